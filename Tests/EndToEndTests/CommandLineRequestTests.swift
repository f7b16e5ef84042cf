import Foundation
import Testing
import TestSupport

/// `wsh get URL ITEM...` from the system shell, as `http GET URL` runs: one ad-hoc request, its
/// answer on stdout, the exit code by status as HTTPie's `--check-status` gives it.
@Suite struct CommandLineRequestTests {
    @Test func aMethodVerbSendsOneRequestWithItsItems() async throws {
        try await withLoopbackServer { server in
            let result = try await WSHProcess.run(["post", "\(server.baseURL)/echo/x", "q==a b", "name=it's $HOME", "n:=3", "X-Trace:1"])
            #expect(result.status == 0, "\(result.stderr)")
            let echo = try AdHocRequestTests.Echo(json: result.stdout)
            #expect(echo.method == "POST")
            #expect(echo.path == "/echo/x")
            #expect(echo.query == "q=a%20b")
            #expect(echo.headers["x-trace"] == "1")
            let body = try JSONSerialization.jsonObject(with: Data(echo.body.utf8)) as? [String: Any]
            #expect(body?["name"] as? String == "it's $HOME")
            #expect(body?["n"] as? Int == 3)
        }
    }

    /// `wsh request PROPFIND URL`, the line as the prompt and a script take it (docs tester's F1):
    /// it was read as a script named `request`; now it sends as `wsh PROPFIND URL` does, flags too.
    @Test func theRequestWordSendsAnyMethod() async throws {
        try await withLoopbackServer { server in
            let result = try await WSHProcess.run(["request", "PROPFIND", "\(server.baseURL)/echo/dav", "X-Trace:1"])
            #expect(result.status == 0, "\(result.stderr)")
            let echo = try AdHocRequestTests.Echo(json: result.stdout)
            #expect(echo.method == "PROPFIND" && echo.path == "/echo/dav" && echo.headers["x-trace"] == "1", "\(result.stdout)")
            let lower = try await WSHProcess.run(["request", "propfind", "\(server.baseURL)/echo/dav", "--offline"])
            #expect(lower.status == 0 && lower.stdout.hasPrefix("PROPFIND /echo/dav HTTP/1.1"), "\(lower.stdout)\(lower.stderr)")
        }
    }

    @Test func stdinPipedInIsTheBodyOfARequestThatGivesNone() async throws {
        try await withLoopbackServer { server in
            let piped = try await WSHProcess.run(["post", "\(server.baseURL)/echo/in", "X-A:1"], stdin: "{\"from\":\"stdin\"}\n")
            #expect(piped.status == 0, "\(piped.stderr)")
            let echo = try AdHocRequestTests.Echo(json: piped.stdout)
            #expect(echo.method == "POST")
            #expect(echo.body == "{\"from\":\"stdin\"}\n")
            #expect(echo.headers["x-a"] == "1")
            // `@-` names stdin as the body; a request with fields of its own leaves stdin unread.
            let named = try await WSHProcess.run(["put", "\(server.baseURL)/echo/in", "@-"], stdin: "raw bytes")
            #expect(try AdHocRequestTests.Echo(json: named.stdout).body == "raw bytes", "\(named.stderr)")
            let fields = try await WSHProcess.run(["post", "\(server.baseURL)/echo/in", "a=1"], stdin: "not sent")
            #expect(try AdHocRequestTests.Echo(json: fields.stdout).body == "{\"a\":\"1\"}", "\(fields.stderr)")
            // --ignore-stdin (HTTPie's) and an empty stdin (CI's /dev/null) send no body.
            let ignored = try await WSHProcess.run(["post", "\(server.baseURL)/echo/in", "--ignore-stdin"], stdin: "not sent")
            #expect(try AdHocRequestTests.Echo(json: ignored.stdout).body == "", "\(ignored.stderr)")
            let empty = try await WSHProcess.run(["get", "\(server.baseURL)/echo/in"], stdin: "")
            let emptyEcho = try AdHocRequestTests.Echo(json: empty.stdout)
            #expect(emptyEcho.body == "" && emptyEcho.headers["content-type"] == nil, "\(empty.stderr)")
            // A GET never reads stdin unasked: in `while read id; do wsh get ...; done < ids` the
            // loop keeps its lines.
            let get = try await WSHProcess.run(["get", "\(server.baseURL)/echo/in"], stdin: "the loop's next line\n")
            #expect(try AdHocRequestTests.Echo(json: get.stdout).body == "", "\(get.stderr)")
            // A script read from stdin stays a script, and there @- is refused.
            let script = try await WSHProcess.run(["-"], stdin: "post \(server.baseURL)/echo/in @-\n")
            #expect(script.status != 0)
            #expect(script.stderr.contains("stdin is not free"), "\(script.stderr)")
        }
    }

    @Test func aMethodInCapitalsIsSentAsWritten() async throws {
        try await withLoopbackServer { server in
            for (verb, method) in [("GET", "GET"), ("PROPFIND", "PROPFIND"), ("delete", "DELETE")] {
                let result = try await WSHProcess.run([verb, "\(server.baseURL)/echo/m"])
                #expect(result.status == 0, "\(verb): \(result.stderr)")
                #expect(try AdHocRequestTests.Echo(json: result.stdout).method == method)
            }
        }
    }

    @Test(arguments: [(301, 3), (404, 4), (418, 4), (500, 5), (503, 5), (204, 0)])
    func theExitCodeFollowsTheStatus(status: Int, code: Int32) async throws {
        try await withLoopbackServer { server in
            let result = try await WSHProcess.run(["get", "\(server.baseURL)/status/\(status)"])
            #expect(result.status == code, "\(status): \(result.stderr)")
            if code != 0 { #expect(result.stderr.hasPrefix("wsh: warning: HTTP \(status) ")) }
        }
    }

    @Test func checkStatusWrittenOnTheCommandLineChangesNothing() async throws {
        try await withLoopbackServer { server in
            let result = try await WSHProcess.run(["get", "\(server.baseURL)/status/404", "--check-status"])
            #expect(result.status == 4, "\(result.stderr)")
            #expect(result.stderr == "wsh: warning: HTTP 404 Not Found\n")
        }
    }

    @Test func aRequestThatFailsIsAnErrorAtItsURL() async throws {
        let port = try LoopbackPort.free()
        let result = try await WSHProcess.run(["get", "http://127.0.0.1:\(port)/x"])
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("<command line>:1:5: error:"), "\(result.stderr)")
    }

    @Test func aMissingScriptSaysHowToRunALine() async throws {
        let result = try await WSHProcess.run(["echo hi"])
        #expect(result.status == 1)
        #expect(result.stderr == """
        wsh: error: cannot read 'echo hi': no such file or directory
        note: wsh FILE runs a script; wsh -c 'LINE' runs a line; wsh get URL [ITEM...] sends a request

        """)
        let typo = try await WSHProcess.run(["gte"])
        #expect(typo.stderr.contains("note: did you mean 'wsh get ...'?"), "\(typo.stderr)")
        let late = try await WSHProcess.run(["--norc", "get", "http://127.0.0.1:1/"])
        #expect(late.stderr.hasSuffix("note: a request's method comes first on the command line: wsh get URL [ITEM...] [FLAGS]\n"), "\(late.stderr)")
        let directory = try WSHProcess.temporaryDirectory()
        let asDirectory = try await WSHProcess.run([directory.path])
        #expect(asDirectory.stderr == "wsh: error: cannot read '\(directory.path)': is a directory\n")
    }
}
