import Foundation
import Targets
import TestSupport
import Testing

/// What a response keeps of the way it came: every redirect that answered, the final URL, every
/// value of a repeated header, the body as received.
@Suite struct ResponseHopTests {
    @Test func everyRedirectIsKeptInOrderWithItsStatusHeadersAndURL() async throws {
        let routes = [
            "/moved": StaticRoute(status: 301, headers: [("Location", "/see-other"), ("X-Hop", "one")], body: []),
            "/see-other": StaticRoute(status: 303, headers: [("Location", "/final")], body: Array("ignored".utf8)),
            "/final": StaticRoute(body: #"{"done":true}"#),
        ]
        try await withTestServer(routes: routes) { server in
            let target = Target(name: "chain", baseURL: server.baseURL, path: "/moved", method: .post,
                                task: .data(Data("payload".utf8), contentType: "text/plain"))
            let response = try await Provider<Target>().request(target)
            #expect(response.status == 200)
            #expect(response.url == server.baseURL + "/final")
            #expect(response.redirects == [server.baseURL + "/moved", server.baseURL + "/see-other"])
            #expect(response.hops.map(\.status) == [301, 303])
            #expect(response.hops.map(\.reason) == ["Moved Permanently", "See Other"])
            #expect(response.hops.map(\.url) == response.redirects)
            #expect(response.hops.map { $0.header("LOCATION") } == ["/see-other", "/final"])
            #expect(response.hops.first?.header("X-Hop") == "one")
            // 301 turned the POST into a GET: each hop keeps the request that was sent on it.
            #expect(response.hops.map(\.request.method) == [.post, .get])
            #expect(response.hops.first?.request.body == Data("payload".utf8))
            #expect(try response.json()["done"] == .bool(true))
        }
    }

    @Test func theBuiltInRedirectRouteLeavesOneHopPerRedirect() async throws {
        try await withTestServer { server in
            let response = try await Provider<Target>().request(
                Target(name: "r", baseURL: server.baseURL, path: "/redirect", task: .query([
                    Parameter(name: "n", defaultValue: .text("3")),
                ])))
            #expect(response.hops.count == 3)
            #expect(response.hops.allSatisfy { $0.status == 302 && $0.reason == "Found" })
            #expect(response.redirects == ["3", "2", "1"].map { server.baseURL + "/redirect?n=" + $0 })
            #expect(response.url == server.baseURL + "/redirect?n=0")
        }
    }

    @Test func anAnswerWithoutRedirectHasNoHopsAndItsRequestsURL() async throws {
        try await withTestServer(routes: ["/plain": StaticRoute(body: "{}")]) { server in
            let response = try await Provider<Target>().request(Target(name: "p", baseURL: server.baseURL, path: "/plain"))
            #expect(response.hops.isEmpty)
            #expect(response.redirects.isEmpty)
            #expect(response.url == server.baseURL + "/plain")
            #expect(response.url == response.request.url)
        }
    }

    @Test func everyValueOfARepeatedHeaderInOrderWhateverTheCase() async throws {
        let route = StaticRoute(headers: [
            ("Set-Cookie", "a=1; Path=/"), ("Content-Type", "text/plain"), ("set-cookie", "b=2, c=3"),
            ("Set-Cookie", "d=4; Expires=Wed, 21 Oct 2037 07:28:00 GMT"),
        ], body: Array("hello".utf8))
        try await withTestServer(routes: ["/cookies": route]) { server in
            let response = try await Provider<Target>().request(Target(name: "c", baseURL: server.baseURL, path: "/cookies"))
            #expect(response.headers(named: "SET-COOKIE") == [
                "a=1; Path=/", "b=2, c=3", "d=4; Expires=Wed, 21 Oct 2037 07:28:00 GMT",
            ])
            #expect(response.header("set-cookie") == "a=1; Path=/")
            #expect(response.headers(named: "Content-Type") == ["text/plain"])
            #expect(response.headers(named: "X-Missing").isEmpty)
        }
    }

    @Test func theRawBodyIsTheBodyAsReceivedWhileNothingDecodesIt() async throws {
        let bytes: [UInt8] = [0x7B, 0x7D, 0xFF, 0x00, 0x0A]
        try await withTestServer(routes: ["/bytes": StaticRoute(contentType: "application/octet-stream", body: bytes)]) { server in
            let response = try await Provider<Target>().request(Target(name: "b", baseURL: server.baseURL, path: "/bytes"))
            #expect(response.rawBody == Data(bytes))
            #expect(response.body == response.rawBody)
        }
    }
}
