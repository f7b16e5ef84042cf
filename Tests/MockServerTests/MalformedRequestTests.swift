import Foundation
import MockServer
import Targets
import TestSupport
import Testing

/// Whatever bytes a client sends, the server answers or closes that connection, and goes on
/// answering others.
@Suite struct MalformedRequestTests {
    static let hostile: [String] = [
        "GARBAGE\r\n\r\n",
        "GET / HTTP/1.1\r\nHost x-no-colon\r\n\r\n",
        "GET /users/7 HTTP/9.9\r\n\r\n",
        "GET /\u{01}\u{7f}path HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\nxx\r\n0\r\n\r\n",
        "POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
        "POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n",
        "GET /" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: 20_000) + "\r\n",
        // Not valid percent-encoding: the id is taken as written.
        "GET /users/%ZZ%00 HTTP/1.1\r\nHost: x\r\n\r\n",
        // Blank lines before a request are allowed (RFC 9112, 2.2).
        "\r\n\r\nGET /users/7 HTTP/1.1\r\nHost: x\r\n\r\n",
    ]

    @Test(arguments: hostile.indices)
    func aMalformedRequestLeavesTheServerAnswering(_ index: Int) async throws {
        try await withMockServer([Samples.userTarget, Samples.createTarget]) { server in
            let request = Self.hostile[index]
            let outcome = try await offPool { () -> Int in
                // A minute to read: a bound only a server that neither answers nor closes reaches.
                let connection = try RawHTTPConnection(port: server.port, timeout: 60)
                try? connection.send(request)
                // Either an answer (4xx) or a closed connection; never silence until the timeout.
                if let answer = try? connection.readAnswer() { return answer.status }
                return connection.isClosedByServer() ? -1 : -2
            }
            #expect(outcome != -2, "no answer and no close for request \(index)")
            #expect(outcome == -1 || (200..<500).contains(outcome), "request \(index) answered \(outcome)")
            let after = try await rawRequest(server.port, "GET /users/7 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(after.status == 200)
        }
    }

    @Test func aMalformedBodyForAJSONRouteIsA400NotACrash() async throws {
        try await withMockServer([Samples.createTarget]) { server in
            let deep = String(repeating: "[", count: 100_000)
            let bodies = [deep, "{\"name\": \"\u{FFFD}\", \"age\": 1e999999}", String(decoding: [0xFF, 0xFE, 0x00, 0x7B], as: UTF8.self)]
            for body in bodies {
                let answer = try await rawRequest(server.port, "POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                #expect([201, 400].contains(answer.status), "\(answer.status) \(answer.text.prefix(200))")
            }
        }
    }
}
