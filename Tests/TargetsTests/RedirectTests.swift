import Foundation
import Targets
import Testing
import TestSupport

/// Redirects as wsh follows them, hop by hop: methods as the Fetch standard says, credentials
/// never carried to another origin, and every Location checked before a connection.
@Suite struct RedirectTests {
    private static let credentials = [
        Header(name: "Authorization", value: "Bearer secret-1"), Header(name: "X-API-Key", value: "secret-2"),
        Header(name: "Cookie", value: "sid=secret-3"), Header(name: "Accept", value: "application/json"),
    ]

    private func echoed(_ response: Response) throws -> (method: String, headers: [String: String], body: String) {
        let json = try response.json()
        var headers: [String: String] = [:]
        var index = 0
        while let pair = json["headers"]?[index], let name = pair[0]?.string, let value = pair[1]?.string {
            headers[name.lowercased()] = value
            index += 1
        }
        return (json["method"]?.string ?? "", headers, json["body"]?.string ?? "")
    }

    private func post(_ url: String, path: String) -> Target {
        Target(name: "r", baseURL: url, path: path, method: .post, task: .data(Data("payload".utf8), contentType: "text/plain"),
               headers: Self.credentials)
    }

    @Test func aHopToAnotherOriginDropsCredentialsAndKeepsThe307MethodAndBody() async throws {
        try await TestServer.with { other in
            let routes = ["/go": StaticRoute(status: 307, headers: [("Location", other.baseURL + "/echo")], body: [])]
            try await TestServer.with(routes: routes) { origin in
                let response = try await Provider<Target>().request(post(origin.baseURL, path: "/go"))
                let seen = try echoed(response)
                #expect(seen.method == "POST")
                #expect(seen.body == "payload")
                #expect(seen.headers["authorization"] == nil)
                #expect(seen.headers["x-api-key"] == nil)
                #expect(seen.headers["cookie"] == nil)
                #expect(seen.headers["accept"] == "application/json")
                #expect(response.redirects == [origin.baseURL + "/go"])
                #expect(response.request.url == other.baseURL + "/echo")
            }
        }
    }

    /// `set follow trusted` (curl's `--location-trusted`): the credentials go to the other origin too.
    @Test func aTrustedChainKeepsCredentialsOnAnotherOrigin() async throws {
        try await TestServer.with { other in
            let routes = ["/go": StaticRoute(status: 307, headers: [("Location", other.baseURL + "/echo")], body: [])]
            try await TestServer.with(routes: routes) { origin in
                var provider = Provider<Target>()
                provider.redirectsKeepCredentials = true
                let seen = try echoed(try await provider.request(post(origin.baseURL, path: "/go")))
                #expect(seen.headers["authorization"] == "Bearer secret-1")
                #expect(seen.headers["x-api-key"] == "secret-2")
                #expect(seen.headers["cookie"] == "sid=secret-3")
            }
        }
    }

    /// A -> B -> A: the credentials dropped for B are sent again back on A, as curl and Hurl do.
    @Test func credentialsComeBackWithAHopToTheFirstOrigin() async throws {
        func redirect(_ server: TestServer, to url: String) -> String {
            server.baseURL + "/redirect-to?status=307&url=" + (url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url)
        }
        try await TestServer.with { other in
            try await TestServer.with { origin in
                let start = redirect(origin, to: redirect(other, to: origin.baseURL + "/echo"))
                let target = Target(name: "r", baseURL: start, path: "", method: .get, headers: Self.credentials)
                let response = try await Provider<Target>().request(target)
                let seen = try echoed(response)
                #expect(response.redirects.count == 2)
                #expect(response.request.url == origin.baseURL + "/echo")
                #expect(seen.headers["authorization"] == "Bearer secret-1")
                #expect(seen.headers["x-api-key"] == "secret-2")
                #expect(seen.headers["cookie"] == "sid=secret-3")
                #expect(other.hits("/redirect-to") == 1)
            }
        }
    }

    @Test func aHopOnTheSameOriginKeepsCredentialsAnd303BecomesGet() async throws {
        let routes = ["/see-other": StaticRoute(status: 303, headers: [("Location", "/echo")], body: [])]
        try await TestServer.with(routes: routes) { server in
            let seen = try echoed(try await Provider<Target>().request(post(server.baseURL, path: "/see-other")))
            #expect(seen.method == "GET")
            #expect(seen.body == "")
            #expect(seen.headers["content-type"] == nil)
            #expect(seen.headers["authorization"] == "Bearer secret-1")
            #expect(seen.headers["x-api-key"] == "secret-2")
        }
    }

    @Test func aLocationThatCannotBeFollowedIsAnErrorOrTheAnswer() async throws {
        let routes = [
            "/ftp": StaticRoute(status: 302, headers: [("Location", "ftp://127.0.0.1/x")], body: []),
            "/empty": StaticRoute(status: 302, headers: [("Location", "")], body: []),
        ]
        try await TestServer.with(routes: routes) { server in
            await #expect(throws: ProviderError.self) {
                try await Provider<Target>().request(Target(name: "f", baseURL: server.baseURL, path: "/ftp"))
            }
            let empty = try await Provider<Target>().request(Target(name: "e", baseURL: server.baseURL, path: "/empty"))
            #expect(empty.status == 302)
            #expect(empty.redirects.isEmpty)
        }
    }
}
