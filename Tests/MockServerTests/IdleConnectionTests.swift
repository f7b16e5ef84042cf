import Foundation
import MockServer
import Testing
import TestSupport

/// A connection that sent part of a request head and stopped, or sat idle after an answer, was
/// held open for ever (slowloris on a mock); it is closed after the idle timeout, 60 s in `wsh
/// serve`, short here. One whose answer waits for the delay is answered.
@Suite struct IdleConnectionTests {
    static let idle: Duration = .milliseconds(200)

    /// Whether the server closed `connection` before the client's read timeout: the read returns
    /// end of file, not "no answer in time".
    static func closed(_ connection: RawHTTPConnection) async throws -> Bool {
        try await offPool { connection.isClosedByServer() }
    }

    @Test func aRequestHeadSentInPartIsClosed() async throws {
        try await withMockServer([Samples.userTarget], idleTimeout: Self.idle) { server in
            let connection = try RawHTTPConnection(port: server.port, timeout: 20)
            try connection.send("GET /users/7 HTTP/1.1\r\nHost: x\r\n")
            #expect(try await Self.closed(connection))
        }
    }

    @Test func anIdleKeptAliveConnectionIsClosedAfterItsAnswer() async throws {
        try await withMockServer([Samples.userTarget], idleTimeout: Self.idle) { server in
            let connection = try RawHTTPConnection(port: server.port, timeout: 20)
            let answer = try await offPool { () throws -> RawHTTPConnection.Answer in
                try connection.send("GET /users/7 HTTP/1.1\r\nHost: x\r\n\r\n")
                return try connection.readAnswer()
            }
            #expect(answer.status == 200 && !answer.head.lowercased().contains("connection: close"), "\(answer.head)")
            #expect(try await Self.closed(connection))
        }
    }

    @Test func anAnswerDelayedPastTheIdleTimeoutIsStillWritten() async throws {
        try await withMockServer([Samples.userTarget], delay: .milliseconds(600), idleTimeout: Self.idle) { server in
            let answer = try await rawRequest(server.port, "GET /users/7 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(answer.status == 200)
        }
    }
}
