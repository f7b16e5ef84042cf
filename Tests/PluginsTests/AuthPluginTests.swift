import Foundation
@testable import Plugins
import Synchronization
import Targets
import TestSupport
import Testing

/// Credentials go to the host they were set for, or everywhere when asked.
@Suite struct AuthPluginTests {
    func authorization(_ plugin: AuthPlugin, _ server: TestServer, headers: [Header] = []) async throws -> String? {
        let target = Target(name: "echo", baseURL: server.baseURL, path: "/echo", headers: headers)
        let response = try await Provider<Target>(plugins: [plugin]).request(target)
        return try echoedHeader(response, "Authorization")
    }

    @Test func bearerAndBasicGoToTheirHost() async throws {
        try await withTestServer { server in
            let bearer = try await authorization(.bearer("tok", host: "127.0.0.1"), server)
            let basic = try await authorization(.basic(user: "ann", password: "p:w", host: "127.0.0.1"), server)
            let withPort = try await authorization(.bearer("tok", host: "127.0.0.1:\(server.port)"), server)
            #expect(bearer == "Bearer tok")
            #expect(basic == "Basic " + Data("ann:p:w".utf8).base64EncodedString())
            #expect(withPort == "Bearer tok")
        }
    }

    @Test func otherHostsAndPortsGetNothingUnlessEverywhere() async throws {
        try await withTestServer { server in
            let otherHost = try await authorization(.bearer("tok", host: "api.example.com"), server)
            let otherPort = try await authorization(.bearer("tok", host: "127.0.0.1:1"), server)
            let everywhere = try await authorization(AuthPlugin(.bearer("tok"), scope: .everywhere), server)
            #expect(otherHost == nil)
            #expect(otherPort == nil)
            #expect(everywhere == "Bearer tok")
        }
    }

    @Test func customHeaderAndAnExplicitHeaderWins() async throws {
        try await withTestServer { server in
            let key = AuthPlugin(.header(name: "X-API-Key", value: "k-123"), scope: .host("127.0.0.1"))
            let response = try await Provider<Target>(plugins: [key]).request(Target(name: "e", baseURL: server.baseURL, path: "/echo"))
            #expect(try echoedHeader(response, "X-API-Key") == "k-123")
            let own = [Header(name: "Authorization", value: "Bearer mine")]
            let kept = try await authorization(.bearer("tok", host: "127.0.0.1"), server, headers: own)
            #expect(kept == "Bearer mine")
        }
    }

    @Test func hostPatternsMatchWithoutCaseAndSubdomainsByWildcard() {
        let plugin = AuthPlugin.bearer("t", host: "API.Example.com")
        #expect(plugin.applies(to: "https://api.example.com/v1"))
        #expect(plugin.applies(to: "https://user:pw@API.EXAMPLE.COM:8443/v1"))
        #expect(!plugin.applies(to: "https://api.example.com.evil.net/v1"))
        #expect(!plugin.applies(to: "https://example.com/"))
        let wildcard = AuthPlugin.bearer("t", host: "*.example.com")
        #expect(wildcard.applies(to: "https://a.b.example.com/"))
        #expect(!wildcard.applies(to: "https://badexample.com/"))
        let withPort = AuthPlugin.bearer("t", host: "api.example.com:443")
        #expect(withPort.applies(to: "https://api.example.com/"))
        #expect(!withPort.applies(to: "http://api.example.com/"))
    }
}

/// The auth plugin with Digest credentials in front of a scripted server: it answers a challenge
/// once, reuses the nonce with the next count, answers a stale nonce again, and never loops.
@Suite struct DigestPluginTests {
    static let target = Target(name: "t", baseURL: "http://api.test", path: "/x")
    static let password = "pw-s3cret"

    /// A server given as a function from what it saw (the Authorization's parameters, or nil) to
    /// its status and `WWW-Authenticate`; it records every request.
    final class ScriptedServer: Sendable {
        let seen = Mutex<[Request]>([])
        let answer: @Sendable ([String: String]?) -> (Int, String?)

        init(_ answer: @escaping @Sendable ([String: String]?) -> (Int, String?)) {
            self.answer = answer
        }

        var send: SendClosure {
            { [self] request in
                seen.withLock { $0.append(request) }
                let parameters = request.header("Authorization").flatMap { AuthChallenge.challenges(in: [$0]).first?.parameters }
                let (status, challenge) = answer(parameters)
                return Response(status: status, reason: "", headers: challenge.map { [Header(name: "WWW-Authenticate", value: $0)] } ?? [],
                                request: request)
            }
        }

        /// The Authorization parameters of every request seen, nil where there was none.
        var authorizations: [[String: String]?] {
            seen.withLock { requests in
                requests.map { $0.header("Authorization").flatMap { AuthChallenge.challenges(in: [$0]).first?.parameters } }
            }
        }

        var headerText: String {
            seen.withLock { $0.flatMap(\.headers).map { "\($0.name): \($0.value)" }.joined(separator: "\n") }
        }
    }

    static func challenge(nonce: String, stale: Bool = false) -> String {
        #"Digest realm="r", qop="auth", nonce="\#(nonce)", algorithm=SHA-256"# + (stale ? ", stale=true" : "")
    }

    func call(_ plugin: AuthPlugin, _ server: ScriptedServer, url: String = "http://api.test/x?q=1") async throws -> Int {
        try await plugin.intercept(Request(method: .get, url: url), target: Self.target, next: server.send).status
    }

    @Test func answersAChallengeOnceThenReusesTheNonceWithTheNextCount() async throws {
        let server = ScriptedServer { sent in
            guard let sent else { return (401, DigestPluginTests.challenge(nonce: "n1")) }
            return (sent["nonce"] == "n1" ? 200 : 400, nil)
        }
        let plugin = AuthPlugin.digest(user: "ann", password: Self.password, host: "api.test")
        #expect(try await call(plugin, server) == 200)
        #expect(try await call(plugin, server, url: "http://API.test:80/other") == 200)
        let sent = server.authorizations
        #expect(sent.count == 3)
        #expect(sent[0] == nil)
        #expect(sent[1]?["nc"] == "00000001" && sent[1]?["uri"] == "/x?q=1" && sent[1]?["algorithm"] == "SHA-256")
        #expect(sent[2]?["nc"] == "00000002" && sent[2]?["uri"] == "/other" && sent[2]?["nonce"] == "n1")
        #expect(sent[1]?["cnonce"] != sent[2]?["cnonce"])
        #expect(!server.headerText.contains(Self.password))
    }

    @Test func aStaleNonceIsAnsweredAgainWithTheNewOne() async throws {
        let server = ScriptedServer { sent in
            switch sent?["nonce"] {
            case nil: (401, DigestPluginTests.challenge(nonce: "old"))
            case "old": (401, DigestPluginTests.challenge(nonce: "new", stale: true))
            default: (200, nil)
            }
        }
        let plugin = AuthPlugin.digest(user: "ann", password: Self.password, host: "api.test")
        #expect(try await call(plugin, server) == 200)
        #expect(server.authorizations.map { $0?["nonce"] } == [nil, "old", "new"])
        #expect(server.authorizations.last??["nc"] == "00000001")
    }

    @Test func refusedCredentialsAreNotSentAgainAndNothingLoops() async throws {
        let refusing = ScriptedServer { _ in (401, DigestPluginTests.challenge(nonce: UUID().uuidString)) }
        let plugin = AuthPlugin.digest(user: "ann", password: "wrong", host: "api.test")
        #expect(try await call(plugin, refusing) == 401)
        #expect(try await call(plugin, refusing) == 401)
        #expect(refusing.authorizations.map { $0 == nil } == [true, false, true, false], "the refused nonce is forgotten")

        let alwaysStale = ScriptedServer { sent in (401, DigestPluginTests.challenge(nonce: UUID().uuidString, stale: sent != nil)) }
        #expect(try await call(AuthPlugin.digest(user: "ann", password: "pw", host: "api.test"), alwaysStale) == 401)
        #expect(alwaysStale.seen.withLock { $0.count } == 3, "one answer, and one more for a stale nonce")
    }

    @Test func otherHostsAndTheCallsOwnAuthorizationPassThrough() async throws {
        let server = ScriptedServer { _ in (401, DigestPluginTests.challenge(nonce: "n")) }
        let plugin = AuthPlugin.digest(user: "ann", password: Self.password, host: "api.test")
        #expect(try await call(plugin, server, url: "http://other.test/") == 401)
        let own = Request(method: .get, url: "http://api.test/", headers: [Header(name: "Authorization", value: "Bearer mine")])
        #expect(try await plugin.intercept(own, target: Self.target, next: server.send).status == 401)
        #expect(server.seen.withLock { $0.map { $0.header("Authorization") } } == [nil, "Bearer mine"])
        #expect(plugin.header == nil)
        #expect(try await plugin.prepare(own, target: Self.target) == own)
    }

    @Test func concurrentCallsCountTheNonceWithoutRepeats() async throws {
        let server = ScriptedServer { sent in sent == nil ? (401, DigestPluginTests.challenge(nonce: "n")) : (200, nil) }
        let plugin = AuthPlugin.digest(user: "ann", password: Self.password, host: "api.test")
        #expect(try await call(plugin, server) == 200)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await plugin.intercept(Request(method: .get, url: "http://api.test/"), target: Self.target, next: server.send).status } }
            for try await status in group { #expect(status == 200) }
        }
        let counts = server.authorizations.compactMap { $0?["nc"] }
        #expect(Set(counts).count == 21)
        #expect(Set(counts) == Set((1...21).map { DigestAuth.nonceCountText($0) }))
    }
}
