import Foundation
import MockServer
import Testing
import TestSupport

/// A connection that sent part of a request head and stopped, or sat idle after an answer, was
/// held open for ever (slowloris on a mock); it is closed after the idle timeout, 60 s in `wsh
/// serve`, 2 s here (shorter ones lost a race with a machine stalled by other tests). One whose
/// answer waits for the delay is answered.
@Suite struct IdleConnectionTests {
    static let idle: Duration = .seconds(2)

    /// Whether the server closed `connection` before the client's read timeout: the read returns
    /// end of file, not "no answer in time".
    static func closed(_ connection: RawHTTPConnection) async throws -> Bool {
        try await offPool { connection.isClosedByServer() }
    }

    @Test func aRequestHeadSentInPartIsClosed() async throws {
        try await withMockServer([Samples.userTarget], idleTimeout: Self.idle) { server in
            // Connected and sent at once, on one thread: a connection idle before its first byte is closed too.
            let connection = try await offPool { () throws -> RawHTTPConnection in
                let connection = try RawHTTPConnection(port: server.port, timeout: 20)
                try connection.send("GET /users/7 HTTP/1.1\r\nHost: x\r\n")
                return connection
            }
            #expect(try await Self.closed(connection))
        }
    }

    @Test func anIdleKeptAliveConnectionIsClosedAfterItsAnswer() async throws {
        try await withMockServer([Samples.userTarget], idleTimeout: Self.idle) { server in
            let (connection, answer) = try await offPool { () throws -> (RawHTTPConnection, RawHTTPConnection.Answer) in
                let connection = try RawHTTPConnection(port: server.port, timeout: 20)
                try connection.send("GET /users/7 HTTP/1.1\r\nHost: x\r\n\r\n")
                return (connection, try connection.readAnswer())
            }
            #expect(answer.status == 200 && !answer.head.lowercased().contains("connection: close"), "\(answer.head)")
            #expect(try await Self.closed(connection))
        }
    }

    @Test func anAnswerDelayedPastTheIdleTimeoutIsStillWritten() async throws {
        try await withMockServer([Samples.userTarget], delay: .seconds(3), idleTimeout: Self.idle) { server in
            let answer = try await rawRequest(server.port, "GET /users/7 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(answer.status == 200)
        }
    }
}
