import Foundation
import Plugins
import Targets
import TestSupport
import Testing

/// The provider follows redirects hop by hop through the plugins: the logger shows every hop, a
/// retry resends only the hop that failed, and an auth plugin's header stays with its origin.
@Suite struct RedirectThroughPluginsTests {
    @Test func theLoggerShowsEveryHop() async throws {
        try await withTestServer { server in
            let recorder = Recorder()
            let provider = Provider<Target>(plugins: [LoggerPlugin.summary.with(output: recorder.output)])
            let response = try await provider.request(Target(name: "r", baseURL: server.baseURL, path: "/redirect", task: .query([
                Parameter(name: "n", defaultValue: .text("2")),
            ])))
            #expect(response.status == 200)
            let shown = recorder.lines.map { $0.components(separatedBy: " -> ").first ?? "" }
            #expect(shown == ["2", "1", "0"].map { "GET \(server.baseURL)/redirect?n=\($0)" })
            #expect(recorder.lines.prefix(2).allSatisfy { $0.contains("-> 302 Found") })
        }
    }

    @Test func aRetryResendsTheHopThatFailedNotTheChain() async throws {
        let routes = ["/go": StaticRoute(status: 302, headers: [("Location", "/flaky/hop?fail=1")], body: [])]
        try await withTestServer(routes: routes) { server in
            let retry = RetryPlugin(count: 2, backoff: .milliseconds(1), jitter: 0, report: { _ in })
            let response = try await Provider<Target>(plugins: [retry]).request(Target(name: "r", baseURL: server.baseURL, path: "/go"))
            #expect(try response.json()["attempts"] == .number("2"))
            #expect(server.hits("/go") == 1)
            #expect(response.redirects == [server.baseURL + "/go"])
        }
    }

    @Test func anAuthPluginsOwnHeaderStaysWithItsOrigin() async throws {
        let auth = AuthPlugin(.header(name: "X-Custom", value: "tok-123"), scope: .everywhere)
        try await TestServer.with { other in
            let routes = [
                "/away": StaticRoute(status: 307, headers: [("Location", other.baseURL + "/echo")], body: []),
                "/home": StaticRoute(status: 307, headers: [("Location", "/echo")], body: []),
            ]
            try await withTestServer(routes: routes) { origin in
                let provider = Provider<Target>(plugins: [auth])
                let away = try await provider.request(Target(name: "a", baseURL: origin.baseURL, path: "/away"))
                #expect(try away.json()["headers"].map { "\($0)" }?.contains("tok-123") == false)
                #expect(away.url == other.baseURL + "/echo")
                let home = try await provider.request(Target(name: "h", baseURL: origin.baseURL, path: "/home"))
                #expect(try home.json()["headers"].map { "\($0)" }?.contains("tok-123") == true)
            }
        }
    }

    /// Digest credentials answer a challenge only at the origin the chain started at, as curl
    /// does: a Digest answer lets the server a redirect named guess the password offline.
    @Test func aDigestChallengeAtAnotherOriginIsNotAnswered() async throws {
        let auth = AuthPlugin(.digest(user: "ann", password: "pw-s3cret"), scope: .everywhere)
        let challenge = StaticRoute(status: 401, headers: [("WWW-Authenticate", #"Digest realm="r", qop="auth", nonce="n1""#)], body: [])
        try await TestServer.with(routes: ["/dg": challenge]) { other in
            let routes = [
                "/away": StaticRoute(status: 307, headers: [("Location", other.baseURL + "/dg")], body: []),
                "/dg": challenge,
            ]
            try await withTestServer(routes: routes) { origin in
                let provider = Provider<Target>(plugins: [auth])
                let away = try await provider.request(Target(name: "a", baseURL: origin.baseURL, path: "/away"))
                #expect(away.status == 401)
                #expect(other.hits("/dg") == 1, "the challenge at the other origin was answered")
                // At its own origin the challenge is answered (the static route refuses it again).
                _ = try await provider.request(Target(name: "h", baseURL: origin.baseURL, path: "/dg"))
                #expect(origin.hits("/dg") == 2)
            }
        }
    }

    @Test func followOffAnswersWithTheRedirectAndATargetsLimitWins() async throws {
        try await withTestServer { server in
            let three = Target(name: "r", baseURL: server.baseURL, path: "/redirect", task: .query([
                Parameter(name: "n", defaultValue: .text("3")),
            ]))
            var provider = Provider<Target>()
            provider.redirectLimit = 0
            let itself = try await provider.request(three)
            #expect(itself.status == 302)
            #expect(itself.header("Location") == "/redirect?n=2")
            #expect(itself.hops.isEmpty)

            var limited = three
            limited.redirectLimit = 2
            let error = await providerError { _ = try await Provider<Target>().request(limited) }
            #expect(error?.isTooManyRedirects == true)

            limited.redirectLimit = 3
            let followed = try await provider.request(limited)
            #expect(followed.status == 200)
            #expect(followed.hops.count == 3)
        }
    }
}
