import TestSupport
import Testing

/// `TestServer.with`, which every test that needs a server goes through, stops the server on every
/// path: afterwards its port refuses a connection.
@Suite struct TestServerLifetimeTests {
    struct Planned: Error {}

    /// Whether a connection to `port` on loopback is refused (nothing listens there).
    static func refuses(_ port: Int) -> Bool {
        (try? RawHTTPConnection(port: port, timeout: 2)) == nil
    }

    @Test func aBodyThatThrowsStillStopsTheServer() async throws {
        var port = 0
        do {
            try await TestServer.with { server in
                port = server.port
                #expect(!Self.refuses(port), "it listens while the body runs")
                throw Planned()
            }
            Issue.record("the body's error was swallowed")
        } catch is Planned {}
        #expect(Self.refuses(port))
    }

    @Test func aBodyThatReturnsStopsTheServerToo() async throws {
        let port = try await TestServer.with { server in server.port }
        #expect(Self.refuses(port))
    }
}
