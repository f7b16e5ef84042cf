import Foundation
import Targets
import TestSupport
import Testing

/// Requests through Debian's tinyproxy, checked by tinyproxy's own log and nginx's access log,
/// side by side with curl through the same proxy.
@Suite struct ProxyTransportTests {
    /// AsyncHTTPClient tunnels every request through CONNECT, http:// ones too; curl does the same with `-p`.
    @Test func aProxyFromSettingsCarriesTheRequestAsCurlsTunnelDoes() async throws {
        try await withNginx { nginx in
            try await withTinyproxy(connectPorts: [nginx.httpPort]) { proxy in
                let transport = NetworkTransport(settings: TransportSettings(proxy: .url(proxy.url())), environment: [:])
                let response = try await get(nginx.httpURL + "/data.json", through: transport)
                #expect(response.status == 200)
                #expect(response.text == nginx.jsonBody)
                let tunnel = "CONNECT 127.0.0.1:\(nginx.httpPort) HTTP/1.1"
                #expect(proxy.log().components(separatedBy: tunnel).count == 2, "\(proxy.log())")
                let seen = try #require(await nginx.requestSeen(1))
                #expect(seen == "\(nginx.httpPort) \"GET /data.json HTTP/1.1\" 200 - \"-\"")

                _ = try await curl(["-p", "-x", proxy.url(), nginx.httpURL + "/data.json"])
                #expect(proxy.log().components(separatedBy: tunnel).count == 3)
                #expect(try await nginx.requestSeen(2) == seen)
            }
        }
    }

    @Test func aProxyFromTheEnvironmentCarriesTheRequest() async throws {
        try await withNginx { nginx in
            try await withTinyproxy(connectPorts: [nginx.httpPort]) { proxy in
                let transport = NetworkTransport(environment: ["http_proxy": proxy.url()])
                let response = try await get(nginx.httpURL + "/data.json", through: transport)
                #expect(response.status == 200)
                #expect(proxy.log().contains("CONNECT 127.0.0.1:\(nginx.httpPort) HTTP/1.1"))
            }
        }
    }

    @Test func noProxyNamesAHostThatGoesDirectly() async throws {
        try await withNginx { nginx in
            try await withTinyproxy(connectPorts: [nginx.httpPort]) { proxy in
                let transport = NetworkTransport(environment: ["http_proxy": proxy.url(), "NO_PROXY": "localhost,127.0.0.1"])
                let response = try await get(nginx.httpURL + "/data.json", through: transport)
                #expect(response.status == 200)
                #expect(!proxy.log().contains("127.0.0.1:\(nginx.httpPort)"))
                #expect(try await nginx.requestSeen(1) == "\(nginx.httpPort) \"GET /data.json HTTP/1.1\" 200 - \"-\"")
            }
        }
    }

    @Test func httpsGoesThroughAConnectTunnelAsCurls() async throws {
        try await withNginx { nginx in
            try await withTinyproxy(connectPorts: [nginx.httpsPort]) { proxy in
                let ca = nginx.certificates.caCertificate
                let transport = NetworkTransport(
                    settings: TransportSettings(caCertificateFile: ca), environment: ["HTTPS_PROXY": proxy.url()])
                let response = try await get(nginx.httpsURL + "/tls", through: transport)
                #expect(response.status == 200)
                #expect(response.httpVersion == "HTTP/2")
                let tunnel = "CONNECT 127.0.0.1:\(nginx.httpsPort) HTTP/1.1"
                #expect(proxy.log().components(separatedBy: tunnel).count == 2)
                let seen = try await nginx.requestSeen(1)
                #expect(seen == "\(nginx.httpsPort) \"GET /tls HTTP/2.0\" 200 TLSv1.3 \"-\"")

                _ = try await curl(["--cacert", ca, "-x", proxy.url(), nginx.httpsURL + "/tls"])
                #expect(proxy.log().components(separatedBy: tunnel).count == 3)
                #expect(try await nginx.requestSeen(2) == seen)
            }
        }
    }

    @Test func proxyCredentialsAreAskedForAndNeverShown() async throws {
        try await withNginx { nginx in
            try await withTinyproxy(connectPorts: [nginx.httpPort], credentials: ("wsh", "s3cret-pw")) { proxy in
                let url = nginx.httpURL + "/data.json"
                let without = try #require(await failure(
                    of: url, through: NetworkTransport(settings: TransportSettings(proxy: .url(proxy.url())), environment: [:])))
                #expect(without.description == "the proxy at 127.0.0.1:\(proxy.port) asks for credentials (407): give them in the proxy URL, as http://USER:PASSWORD@127.0.0.1:\(proxy.port)")

                // tinyproxy answers wrong credentials with 401, not 407: a refused tunnel.
                let wrongURL = proxy.url(user: "wsh", password: "wrong-pw")
                let wrong = try #require(await failure(of: url, through: NetworkTransport(environment: ["http_proxy": wrongURL])))
                #expect(wrong.description == "the proxy at 127.0.0.1:\(proxy.port) refused to open a tunnel (CONNECT) to 127.0.0.1:\(nginx.httpPort)")
                #expect(!wrong.description.contains("wrong-pw"))

                let right = NetworkTransport(environment: ["http_proxy": proxy.url(user: "wsh", password: "s3cret-pw")])
                let response = try await get(url, through: right)
                #expect(response.status == 200)
                #expect(!response.request.headers.contains { $0.name.lowercased() == "proxy-authorization" })

                // curl's answer with the same credentials, through the same tunnel.
                let curled = try await curl(["-p", "-x", proxy.url(user: "wsh", password: "s3cret-pw"), url])
                #expect(curled == response.text)
            }
        }
    }

    @Test func aProxyThatRefusesTheTunnelIsNamed() async throws {
        try await withNginx { nginx in
            // CONNECT allowed to another port only.
            try await withTinyproxy(connectPorts: [nginx.httpsPort]) { proxy in
                let transport = NetworkTransport(environment: ["http_proxy": proxy.url()])
                let error = try #require(await failure(of: nginx.httpURL + "/data.json", through: transport))
                #expect(error.description == "the proxy at 127.0.0.1:\(proxy.port) refused to open a tunnel (CONNECT) to 127.0.0.1:\(nginx.httpPort)")
            }
        }
    }

    @Test func aProxyNobodyListensOnIsAConnectionFailureNamingTheProxy() async throws {
        // Port 9 (discard): nothing listens there.
        let transport = NetworkTransport(settings: TransportSettings(proxy: .url("http://user:pw-9@127.0.0.1:9")), environment: [:])
        let error = try #require(await failure(of: "http://127.0.0.1:1/", through: transport))
        #expect(error.isConnectionFailure)
        #expect(error.description == "could not connect to the proxy at 127.0.0.1:9: connection refused")
    }

    @Test func anUnusableProxyURLFailsRequestsRatherThanGoingAround() async throws {
        let transport = NetworkTransport(environment: ["https_proxy": "https://me:pw-x@proxy.example:3128"])
        let error = try #require(await failure(of: "https://127.0.0.1:9/", through: transport))
        #expect(error.description == "https_proxy: a proxy reached over https:// is not supported; use http://me:***@proxy.example:3128")
    }
}
