import Foundation
import Plugins
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
