import Foundation
import Testing
import TestSupport

/// A secret with characters that need escaping, sent in a path, a query, a form body, a JSON body
/// and Basic auth, never shows in any form: not in the logger, `show --curl`, retry or error lines,
/// nor where the server echoes it back to `print`, `echo` and `expect`.
@Suite struct SecretFormsEndToEndTests {
    static let secret = "p@ss w/rd&x=1+Ä"
    static let check = SecretLeakCheck(secret: secret, basicUser: "alice")
    static let environment = ["SECRET": secret]

    /// Targets sending the secret every way, to the echo route, with Basic auth on every request.
    static func setup(_ server: TestServer) -> String {
        """
        let s = env SECRET
        target inpath { base \(server.baseURL); path /echo/$s }
        target segment { base \(server.baseURL); path /echo/{v} }
        target inquery { base \(server.baseURL); path /echo; query q=$s }
        target inform { base \(server.baseURL); path /echo; method POST; form f=$s }
        target injson { base \(server.baseURL); path /echo; method POST; json j=$s }
        plugin auth basic alice:$s everywhere

        """
    }

    static let calls = "call inpath\ncall segment v=$s\ncall inquery\ncall inform\ncall injson\n"

    static func expectClean(_ text: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let leaks = check.leaks(in: text)
        #expect(leaks.isEmpty, "\(context) shows the secret as \(leaks):\n\(text)", sourceLocation: sourceLocation)
        #expect(text.contains("***"), "\(context) masks nothing:\n\(text)", sourceLocation: sourceLocation)
    }

    @Test(arguments: ["summary", "verbose", "curl"])
    func theLoggerNeverShowsTheSecret(mode: String) async throws {
        try await withLoopbackServer { server in
            let script = Self.setup(server) + "set output quiet\nplugin logger on \(mode) body all\n" + Self.calls
            let (result, _) = try await runScript(script, environment: Self.environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.components(separatedBy: "/echo").count > 5, "every call logged:\n\(result.stderr)")
            Self.expectClean(result.stderr, "logger \(mode)")
        }
    }

    /// httpbin echoes the URL with its query re-encoded its own way (`/` and `:` left as they are):
    /// neither the logger, `print` nor a failed `expect` may show it.
    @Test func theURLHttpbinEchoesBackIsMasked() async throws {
        try await HTTPBinServer.with { httpbin in
            let script = """
                let s = env SECRET
                set output quiet
                set bail off
                plugin logger on verbose body all
                get \(httpbin.baseURL)/anything q==$s
                print .url
                expect .url contains "not-there"
                """
            let (result, _) = try await runScript(script, environment: ["SECRET": "ab+cd/ef==g h:x"])
            #expect(result.stdout.contains("/anything?q=***"), "\(result.stdout)")
            let check = SecretLeakCheck(secret: "ab+cd/ef==g h:x", basicUser: "alice")
            for (text, context) in [(result.stdout, "print"), (result.stderr, "logger and expect")] {
                #expect(check.leaks(in: text).isEmpty, "\(context) shows the secret:\n\(text)")
            }
        }
    }

    @Test func theLogFileNeverHoldsTheSecret() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            let script = Self.setup(server) + "set output quiet\nplugin logger on verbose body all file calls.log\n" + Self.calls
            let (result, _) = try await runScript(script, environment: Self.environment, directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let log = try String(contentsOf: directory.appendingPathComponent("calls.log"), encoding: .utf8)
            #expect(log.components(separatedBy: "< 200 OK").count == 6, "every call logged:\n\(log)")
            Self.expectClean(log, "log file")
        }
    }

    @Test func showCurlNeverShowsTheSecret() async throws {
        try await withLoopbackServer { server in
            let script = Self.setup(server) + "show inpath --curl\nshow inquery --curl\nshow inform --curl\nshow injson --curl\n"
            let (result, _) = try await runScript(script, environment: Self.environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.components(separatedBy: "curl ").count == 5, "\(result.stdout)")
            Self.expectClean(result.stdout, "show --curl")
        }
    }

    @Test func retryTimeoutRedirectAndConnectionErrorsNeverShowTheSecret() async throws {
        try await withLoopbackServer { server in
            let script = Self.setup(server) + """
                set bail off
                plugin retry on count 1 backoff 10ms jitter 0
                plugin logger on summary
                target stuck { base \(server.baseURL); path /never; query s=$s; timeout 300ms }
                target loop { base \(server.baseURL); path /redirect; query n=20 s=$s }
                target refused { base http://127.0.0.1:1; path /x/$s }
                call stuck
                call loop
                call refused

                """
            let (result, _) = try await runScript(script, environment: Self.environment)
            #expect(result.status == 3)
            for line in ["retry 1/1 after 10 ms: GET", "timed out after 300 ms", "too many redirects for GET",
                         "could not connect to 127.0.0.1:1", "GET http://127.0.0.1:1/x/*** -> error"] {
                #expect(result.stderr.contains(line), "\(line):\n\(result.stderr)")
            }
            Self.expectClean(result.stderr, "retry and errors")
        }
    }

    /// A password typed in a URL is `***` in the source line an error quotes (as many stars as it
    /// has characters would tell its length), and the message
    /// masks it even when a `/` in it makes the URL unreadable.
    @Test func aPasswordTypedInAURLIsNotQuotedByItsError() async throws {
        let script = "set bail off\nget http://al:pw-typed-1@127.0.0.1:1/x\nget http://al:pa/ss-typed-2@127.0.0.1:1/x\n"
        let (result, _) = try await runScript(script)
        #expect(result.status == 3)
        #expect(!result.stderr.contains("pw-typed-1") && !result.stderr.contains("ss-typed-2"), "\(result.stderr)")
        #expect(result.stderr.contains("   get http://al:***@127.0.0.1:1/x\n       ^~~"), "\(result.stderr)")
        #expect(result.stderr.contains("'http://al:***@127.0.0.1:1/x'") && result.stderr.contains("written %2F"), "\(result.stderr)")
    }

    @Test func anExpectNoteCutThroughTheSecretShowsNoPartOfIt() async throws {
        try await withLoopbackServer { server in
            // The note shows 200 characters: paddings from 140 to 170 put the secret across that cut.
            let calls = stride(from: 140, through: 170, by: 3).map { length in
                "call segment v=\(String(repeating: "a", count: length))$s\nexpect body == \"no\"\n"
            }
            let script = Self.setup(server) + "set output quiet\nset bail off\n" + calls.joined()
            let (result, _) = try await runScript(script, environment: Self.environment)
            #expect(result.status == 4, "the expectations fail")
            #expect(result.stderr.components(separatedBy: "expectation failed").count == calls.count + 1, "\(result.stderr)")
            Self.expectClean(result.stderr, "expect notes")
            for start in ["p%40", "p@s"] {
                #expect(!result.stderr.contains(start), "the start of the secret shows:\n\(result.stderr)")
            }
        }
    }

    @Test func whatTheServerEchoesNeverShowsInPrintEchoOrExpect() async throws {
        try await withLoopbackServer { server in
            let inspect = "print body\nlet copy = body\necho copy: $copy\nexpect body == \"no\"\nexpect .body == \"no\"\n"
            let calls = Self.calls.split(separator: "\n").map { $0 + "\n" + inspect }.joined()
            let script = Self.setup(server) + "set output quiet\nset bail off\n" + calls
            let (result, _) = try await runScript(script, environment: Self.environment)
            #expect(result.status == 4, "the expectations fail")
            #expect(result.stdout.components(separatedBy: "copy: ").count == 6, "\(result.stdout)")
            #expect(result.stderr.components(separatedBy: "expectation failed").count == 11, "\(result.stderr)")
            #expect(result.stdout.contains(#"["Authorization","Basic ***"]"#), "\(result.stdout)")
            Self.expectClean(result.stdout, "print and echo")
            Self.expectClean(result.stderr, "expect notes")
        }
    }

    @Test func anErrorBodyPreviewCutThroughTheSecretShowsNoPartOfIt() async throws {
        // The secret straddles the 200-character cut of the preview in the error message.
        let body = String(repeating: "x", count: 195) + Self.secret + " tail"
        try await withLoopbackServer(routes: ["/fail": StaticRoute(status: 500, contentType: "text/plain", body: body)]) { server in
            let script = "let s = env SECRET\ntarget f {\n base \(server.baseURL)\n path /fail\n validate 2xx\n}\ncall f\n"
            let (result, _) = try await runScript(script, environment: Self.environment)
            #expect(result.status == 3)
            #expect(result.stderr.contains("HTTP 500"), "\(result.stderr)")
            #expect(!result.stderr.contains("p@ss"), "\(result.stderr)")
            Self.expectClean(result.stderr, "the error's body preview")
        }
    }
}
