import Foundation
import Testing
import TestSupport

/// Answers no HTTP library would write, from a raw loopback server: each must end in a clear error
/// in the user's terms (no library type name, no build path), never a crash.
@Suite struct HostileServerTests {
    private static let replies: [String: [UInt8]] = [
        "/redirect-to-99999": RawReplyServer.response(status: "302 Found", headers: ["Location: http://127.0.0.1:99999/"]),
        "/redirect-to-20-digits": RawReplyServer.response(status: "302 Found", headers: ["Location: http://127.0.0.1:12345678901234567890/"]),
        "/redirect-to-refused": RawReplyServer.response(status: "302 Found", headers: ["Location: http://127.0.0.1:9/x"]),
        "/redirect-to-file": RawReplyServer.response(status: "302 Found", headers: ["Location: file:///etc/passwd"]),
        "/garbage": Array("\u{0}\u{1}garbage here\r\n\r\n".utf8),
        "/http09": Array("<html>hello</html>".utf8),
        "/retry-after-huge": RawReplyServer.response(status: "503 Service Unavailable", headers: ["Retry-After: 9999999999999999"], body: Array("{}".utf8)),
        "/retry-after-int64": RawReplyServer.response(status: "503 Service Unavailable", headers: ["Retry-After: 9223372036854775807"], body: Array("{}".utf8)),
        "/retry-after-past-int64": RawReplyServer.response(status: "503 Service Unavailable", headers: ["Retry-After: 99999999999999999999999"], body: Array("{}".utf8)),
        "/controls": RawReplyServer.response(headers: ["Content-Type: text/plain"], body: Array("\u{1B}]0;pwned\u{7}\u{1B}[2Jhello\u{9B}".utf8)),
        "/big-number": RawReplyServer.response(headers: ["Content-Type: application/json"], body: Array(#"{"n":9007199254740993}"#.utf8)),
        "/cut-short": Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"partial\":\"yyyy".utf8),
    ]

    private func call(_ path: String, _ server: RawReplyServer, extra: String = "") async throws -> WSHProcess.Result {
        try await runScript("target t {\n base \(server.baseURL)\n path \(path)\n}\n\(extra)call t\n").0
    }

    /// A library's words that must never reach the user.
    private func expectPlainWords(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for leak in ["Error.", "NIO", "HTTPClient", "BoringSSL", "NSCocoa", "/.build/", ".swift:", "Fatal error"] {
            #expect(!text.contains(leak), "\(leak) in: \(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func aRedirectToAnImpossiblePortIsAnInvalidURLNotACrash() async throws {
        try await RawReplyServer.with(replies: Self.replies) { server in
            for path in ["/redirect-to-99999", "/redirect-to-20-digits"] {
                let result = try await call(path, server)
                #expect(result.status == 3, "\(path): \(result.stderr)")
                #expect(result.stderr.contains("invalid URL"), "\(result.stderr)")
                #expect(result.stderr.contains("port must be 1-65535"), "\(result.stderr)")
                expectPlainWords(result.stderr)
            }
            let file = try await call("/redirect-to-file", server)
            #expect(file.status == 3)
            #expect(file.stderr.contains("a redirect may go only to an http:// or https:// URL"), "\(file.stderr)")
        }
    }

    @Test func aRedirectToARefusedPortNamesThatPort() async throws {
        try await RawReplyServer.with(replies: Self.replies) { server in
            let result = try await call("/redirect-to-refused", server)
            #expect(result.status == 3)
            #expect(result.stderr.contains("could not connect to 127.0.0.1:9: connection refused"), "\(result.stderr)")
            #expect(!result.stderr.contains(":\(server.port): connection refused"))
        }
    }

    @Test func aTypedPortAboveTheRangeIsAnError() async throws {
        for port in ["99999", "123456789012345678901", "0"] {
            let result = try await WSHProcess.run(["-c", "target p { base http://127.0.0.1:\(port) }\ncall p"])
            #expect(result.status == 3)
            #expect(result.stderr.contains("invalid URL 'http://127.0.0.1:\(port)' for target 'p': port must be 1-65535"), "\(result.stderr)")
        }
        // A request with no target names none: `(get)` is no name the user gave.
        let adHoc = try await WSHProcess.run(["-c", "get http://127.0.0.1:99999/"])
        #expect(adHoc.stderr.contains("error: invalid URL 'http://127.0.0.1:99999/': port must be 1-65535"), "\(adHoc.stderr)")
    }

    @Test func garbageAndHTTP09AnswersAreSaidToBeNotHTTP() async throws {
        try await RawReplyServer.with(replies: Self.replies) { server in
            for path in ["/garbage", "/http09"] {
                let result = try await call(path, server)
                #expect(result.status == 3)
                #expect(result.stderr.contains("is not valid HTTP"), "\(result.stderr)")
                #expect(!result.stderr.contains("invalid constant string"))
                expectPlainWords(result.stderr)
            }
        }
    }

    /// Into a pipe a body is written as it comes: one cut short after a part went out is not sent
    /// again, which would write a second body after the part (`| jq` would read both).
    @Test func anAnswerCutShortAfterPartOfItsBodyWasPrintedIsNotRetried() async throws {
        try await RawReplyServer.with(replies: Self.replies) { server in
            let result = try await call("/cut-short", server, extra: "plugin retry on backoff 10ms\n")
            #expect(result.status == 3, "\(result.stderr)")
            #expect(result.stdout.components(separatedBy: "partial").count == 2, "\(result.stdout)")
            #expect(!result.stderr.contains("retry 1/"), "\(result.stderr)")
            #expect(result.stderr.contains("closed the connection"), "\(result.stderr)")
        }
    }

    @Test func aHugeRetryAfterEndsTheRetriesWithoutATrap() async throws {
        try await RawReplyServer.with(replies: Self.replies) { server in
            for (path, written) in [("/retry-after-huge", "9999999999999999"), ("/retry-after-int64", "9223372036854775807"),
                                    ("/retry-after-past-int64", "99999999999999999999999")] {
                let result = try await call(path, server, extra: "plugin retry on\n")
                #expect(result.status == 3, "\(path): \(result.stderr)")
                #expect(result.stderr.contains("HTTP 503 Service Unavailable"), "\(result.stderr)")
                // The server's number, not one cut to a Duration's range.
                #expect(result.stderr.contains("Retry-After \(written)s is longer than max 5s"), "\(result.stderr)")
            }
        }
    }

    @Test func numbersFromTheServerCompareExactly() async throws {
        try await RawReplyServer.with(replies: Self.replies) { server in
            let script = "target t {\n base \(server.baseURL)\n path /big-number\n}\ncall t\nexpect .n == 9007199254740992\n"
            let result = try await runScript(script).0
            #expect(result.status == 4, "\(result.stderr)")
            #expect(result.stderr.contains("expectation failed"))
            let exact = try await runScript(script.replacingOccurrences(of: "== 9007199254740992", with: "== 9007199254740993")).0
            #expect(exact.status == 0, "\(exact.stderr)")
        }
    }

    @Test func controlCharactersReachAPipeAsSentAndATerminalEscaped() async throws {
        try await RawReplyServer.with(replies: Self.replies) { server in
            let piped = try await call("/controls", server)
            #expect(piped.stdout == "\u{1B}]0;pwned\u{7}\u{1B}[2Jhello\u{9B}")
            let port = server.port
            let screen = try await offPool {
                let terminal = try PseudoTerminal(environment: ["HOME": try WSHProcess.temporaryDirectory().path])
                guard terminal.waitFor("wsh> ") else { return "no prompt" }
                terminal.type("target t { base http://127.0.0.1:\(port); path /controls }\r")
                var mark = terminal.mark
                terminal.type("call t\r")
                guard terminal.waitFor("hello\\x9b", after: mark) else { return terminal.screen }
                mark = terminal.mark
                terminal.type("print body\r")
                guard terminal.waitFor("hello\\x9b", after: mark) else { return terminal.screen }
                terminal.type("exit\r")
                _ = terminal.waitForExit()
                return terminal.screen
            }
            #expect(screen.contains("\\x1b]0;pwned\\x07\\x1b[2Jhello"), "\(screen)")
            #expect(!screen.contains("\u{1B}]0;pwned"))
            #expect(!screen.contains("\u{1B}[2J"))
        }
    }

    @Test func aBadHeaderNameInTheRequestIsSaidPlainly() async throws {
        let result = try await WSHProcess.run(["-c", "target t { base http://127.0.0.1:9; header \"A B:x\" }\ncall t"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("the header name 'A B' holds characters a header name cannot"), "\(result.stderr)")
        expectPlainWords(result.stderr)
    }

    @Test func aLineBreakInAHeaderValueIsSaidWithTheHeadersNameAndNoSecret() async throws {
        let script = "let k = env WSH_BROKEN\ntarget t { base http://127.0.0.1:9; header X-Key:$k }\ncall t"
        let result = try await WSHProcess.run(["-c", script], environment: ["WSH_BROKEN": "line1\nline2-secret"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("the value of header X-Key holds a line break, which HTTP does not allow in a header"), "\(result.stderr)")
        #expect(!result.stderr.contains("line2-secret"), "\(result.stderr)")
        expectPlainWords(result.stderr)
    }

    @Test func writingTheBodyToADirectoryIsSaidPlainly() async throws {
        try await withLoopbackServer(routes: ["/a": StaticRoute(body: "{}")]) { server in
            let result = try await runScript("target t {\n base \(server.baseURL)\n path /a\n}\ncall t > .\n").0
            #expect(result.status == 3)
            #expect(result.stderr.contains("cannot write '.': is a directory"), "\(result.stderr)")
            expectPlainWords(result.stderr)
        }
    }
}
