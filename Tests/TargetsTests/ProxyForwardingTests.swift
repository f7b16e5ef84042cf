import Foundation
import Targets
import TestSupport
import Testing

/// Requests through Debian's tinyproxy, checked by tinyproxy's own log and nginx's access log,
/// side by side with curl through the same proxy.
@Suite struct ProxyForwardingTests {
    /// Plain http goes to the proxy with its whole URL as the request target, as curl sends it
    /// (RFC 9112 section 3.2.2); no tunnel.
    @Test func aProxyFromSettingsCarriesPlainHTTPAsCurlDoes() async throws {
        try await withNginx { nginx in
            try await withTinyproxy(connectPorts: [nginx.httpPort]) { proxy in
                let transport = NetworkTransport(settings: TransportSettings(proxy: .url(proxy.url())), environment: [:])
                let response = try await get(nginx.httpURL + "/data.json", through: transport)
                #expect(response.status == 200)
                #expect(response.text == nginx.jsonBody)
                let forwarded = "GET http://127.0.0.1:\(nginx.httpPort)/data.json HTTP/1.1"
                #expect(proxy.log().components(separatedBy: forwarded).count == 2, "\(proxy.log())")
                #expect(!proxy.log().contains("CONNECT 127.0.0.1"))
                let seen = try #require(await nginx.requestSeen(1))
                #expect(seen == "\(nginx.httpPort) \"GET /data.json HTTP/1.1\" 200 - \"-\"")

                _ = try await curl(["-x", proxy.url(), nginx.httpURL + "/data.json"])
                #expect(proxy.log().components(separatedBy: forwarded).count == 3)
                #expect(try await nginx.requestSeen(2) == seen)
            }
        }
    }

    /// Debian's squid as shipped refuses CONNECT to any port but 443; plain http goes through it.
    @Test func squidsShippedConfigurationCarriesPlainHTTPAsForCurl() async throws {
        try await withNginx { nginx in
            try await withSquid { squid in
                let transport = NetworkTransport(environment: ["http_proxy": squid.url])
                let response = try await get(nginx.httpURL + "/data.json", through: transport)
                #expect(response.status == 200)
                #expect(response.text == nginx.jsonBody)
                let mine = try #require(squid.accessLines(count: 1).first)
                #expect(mine.contains("TCP_MISS/200"), "\(mine)")
                #expect(mine.contains(" GET http://127.0.0.1:\(nginx.httpPort)/data.json "), "\(mine)")

                _ = try await curl(["-x", squid.url, nginx.httpURL + "/data.json"])
                let lines = squid.accessLines(count: 2)
                #expect(lines.count == 2 && lines[1].contains("/200 ") && lines[1].contains(" GET http://127.0.0.1:\(nginx.httpPort)/data.json "), "\(lines)")
                #expect(!lines.contains { $0.contains("CONNECT") })
            }
        }
    }

    /// A request with a body, a query and headers of its own arrives through squid as sent, with
    /// its Host and Content-Length.
    @Test func aPostThroughSquidArrivesWhole() async throws {
        try await withTestServer { server in
            try await withSquid { squid in
                let transport = NetworkTransport(environment: ["http_proxy": squid.url])
                let body = RequestTask.data(Data("{\"a\":1}".utf8), contentType: "application/json")
                let target = Target(name: "post", baseURL: server.baseURL, path: "/echo/a b", method: .post,
                                    task: .composite(query: [Parameter(name: "q", defaultValue: .text("x y"))], body: body),
                                    headers: [Header(name: "X-Mine", value: "1")])
                let response = try await Provider<Target>(transport: transport).request(target)
                try await transport.shutdown()
                #expect(response.status == 200)
                let echo = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
                #expect(echo["method"] as? String == "POST")
                #expect(echo["path"] as? String == "/echo/a%20b")
                #expect(echo["query"] as? String == "q=x%20y")
                #expect(echo["body"] as? String == "{\"a\":1}")
                let headers = (echo["headers"] as? [[String]] ?? []).map { ($0.first ?? "").lowercased() + ": " + ($0.last ?? "") }
                #expect(headers.contains("x-mine: 1"), "\(headers)")
                #expect(headers.contains("content-length: 7"), "\(headers)")
                #expect(headers.contains("host: 127.0.0.1:\(server.port)"), "\(headers)")
                // Squid leaves the query out of its log (strip_query_terms).
                let line = try #require(squid.accessLines(count: 1).first)
                #expect(line.contains(" POST http://127.0.0.1:\(server.port)/echo/a%20b? "), "\(line)")
            }
        }
    }

    /// A HEAD through squid ends with its head: no body is waited for.
    @Test(.timeLimit(.minutes(1))) func aHeadRequestThroughSquidEndsWithItsHead() async throws {
        try await withNginx { nginx in
            try await withSquid { squid in
                let transport = NetworkTransport(environment: ["http_proxy": squid.url])
                let target = Target(name: "head", baseURL: nginx.httpURL, path: "/data.json", method: .head)
                let response = try await Provider<Target>(transport: transport).request(target)
                try await transport.shutdown()
                #expect(response.status == 200)
                #expect(response.body.isEmpty)
            }
        }
    }

    /// A proxy of our own that answers only the absolute form: what it says, a close before any
    /// answer, and a 407 to credentials, each as a user needs to hear it.
    @Test func aProxysAnswerCloseAndRefusalAreSaidSo() async throws {
        let closed = "http://127.0.0.1:1/closed", refusing = "http://127.0.0.1:1/auth", answered = "http://127.0.0.1:1/x"
        try await RawReplyServer.with(replies: [
            answered: RawReplyServer.response(body: Array("ok".utf8)),
            closed: [],
            refusing: RawReplyServer.response(status: "407 Proxy Authentication Required"),
        ]) { proxy in
            let url = "http://u:pw-7@127.0.0.1:\(proxy.port)"
            #expect(try await get(answered, through: NetworkTransport(environment: ["http_proxy": url])).text == "ok")
            let ended = try #require(await failure(of: closed, through: NetworkTransport(environment: ["http_proxy": url])))
            #expect(ended.step == .transport, "\(ended)")
            #expect(!ended.description.contains("pw-7"), "\(ended)")
            let refused = try #require(await failure(of: refusing, through: NetworkTransport(environment: ["http_proxy": url])))
            #expect(refused.description == "the proxy at 127.0.0.1:\(proxy.port) refused the credentials in the proxy URL (407)")
        }
    }

    /// The request's timeout holds through a proxy too: an answer that never comes fails the
    /// request at its deadline, as a timeout.
    @Test func aRequestThroughAProxyTimesOut() async throws {
        try await withTestServer { server in
            try await withTinyproxy(connectPorts: []) { proxy in
                let transport = NetworkTransport(environment: ["http_proxy": proxy.url()])
                let stuck = Target(name: "stuck", baseURL: server.baseURL, path: "/never", timeout: .milliseconds(300))
                let failure = await providerError { _ = try await Provider<Target>(transport: transport).request(stuck) }
                try await transport.shutdown()
                #expect(failure?.isTimeout == true, "\(String(describing: failure))")
            }
        }
    }

    @Test func aProxyFromTheEnvironmentCarriesTheRequest() async throws {
        try await withNginx { nginx in
            try await withTinyproxy(connectPorts: [nginx.httpPort]) { proxy in
                let transport = NetworkTransport(environment: ["http_proxy": proxy.url()])
                let response = try await get(nginx.httpURL + "/data.json", through: transport)
                #expect(response.status == 200)
                #expect(proxy.log().contains("GET http://127.0.0.1:\(nginx.httpPort)/data.json HTTP/1.1"))
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

                // tinyproxy answers wrong credentials with 401, not 407: the proxy's answer, as curl shows it.
                let wrongURL = proxy.url(user: "wsh", password: "wrong-pw")
                let wrong = try await get(url, through: NetworkTransport(environment: ["http_proxy": wrongURL]))
                #expect(wrong.status == 401)
                #expect(!wrong.request.headers.contains { $0.value.contains("wrong-pw") || $0.name.lowercased() == "proxy-authorization" })
                #expect(try await curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-x", wrongURL, url]) == "401")

                let right = NetworkTransport(environment: ["http_proxy": proxy.url(user: "wsh", password: "s3cret-pw")])
                let response = try await get(url, through: right)
                #expect(response.status == 200)
                #expect(!response.request.headers.contains { $0.name.lowercased() == "proxy-authorization" })

                // curl's answer with the same credentials, through the same proxy.
                let curled = try await curl(["-x", proxy.url(user: "wsh", password: "s3cret-pw"), url])
                #expect(curled == response.text)
            }
        }
    }

    @Test func aProxyThatRefusesTheTunnelIsNamed() async throws {
        try await withNginx { nginx in
            // CONNECT allowed to another port only.
            try await withTinyproxy(connectPorts: [nginx.httpPort]) { proxy in
                let transport = NetworkTransport(environment: ["https_proxy": proxy.url()])
                let error = try #require(await failure(of: nginx.httpsURL + "/tls", through: transport))
                // With its status (tinyproxy's reason is its own), and the hint a 403 gets.
                #expect(error.description.hasPrefix(
                    "the proxy at 127.0.0.1:\(proxy.port) refused to open a tunnel (CONNECT) to 127.0.0.1:\(nginx.httpsPort): it answered 403 "),
                    "\(error.description)")
                #expect(error.description.hasSuffix(" (many proxies open tunnels only to port 443)"), "\(error.description)")
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
