import Targets
import TestSupport
import Testing

/// `TestServer.with`, which every test that needs a server goes through, stops the server on every path.
@Suite struct TestServerLifetimeTests {
    struct Planned: Error {}

    @Test func aBodyThatThrowsStillStopsTheServer() async throws {
        var port = 0
        do {
            try await TestServer.with { server in
                port = server.port
                throw Planned()
            }
            Issue.record("the body's error was swallowed")
        } catch is Planned {}
        let failure = await providerError {
            _ = try await Provider<Target>().request(Target(name: "gone", baseURL: "http://127.0.0.1:\(port)", path: "/echo"))
        }
        #expect(failure?.isConnectionFailure == true, "\(String(describing: failure))")
    }

    @Test func aBodyThatReturnsStopsTheServerToo() async throws {
        let port = try await TestServer.with { server in server.port }
        let failure = await providerError {
            _ = try await Provider<Target>().request(Target(name: "gone", baseURL: "http://127.0.0.1:\(port)", path: "/echo"))
        }
        #expect(failure?.isConnectionFailure == true, "\(String(describing: failure))")
    }
}
