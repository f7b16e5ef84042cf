import TestSupport
import Testing

/// `TestServer.with`, which every test that needs a server goes through, stops the server on every
/// path: a connection kept open to it during the body is closed by the server afterwards. (Not
/// "its port refuses": a test running beside this one may listen on that port by then.)
@Suite struct TestServerTests {
    struct Planned: Error {}

    /// A connection to `server` that has had one answer and stays open.
    static func keptOpen(to server: TestServer) async throws -> RawHTTPConnection {
        let connection = try RawHTTPConnection(port: server.port)
        let status = try await offPool {
            try connection.send("GET /status/204 HTTP/1.1\r\nHost: x\r\n\r\n")
            return try connection.readAnswer().status
        }
        #expect(status == 204)
        return connection
    }

    @Test func aBodyThatThrowsStillStopsTheServer() async throws {
        var connection: RawHTTPConnection?
        do {
            try await TestServer.with { server in
                connection = try await Self.keptOpen(to: server)
                throw Planned()
            }
            Issue.record("the body's error was swallowed")
        } catch is Planned {}
        let open = try #require(connection)
        #expect(try await offPool { open.isClosedByServer() })
    }

    @Test func aBodyThatReturnsStopsTheServerToo() async throws {
        let connection = try await TestServer.with { server in try await Self.keptOpen(to: server) }
        #expect(try await offPool { connection.isClosedByServer() })
    }
}
