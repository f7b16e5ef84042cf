import Foundation
import TestSupport
import Testing

/// `plugins`, `plugin NAME ...` and the four plugins, run in the built binary against the loopback server.
@Suite struct PluginCommandTests {
    static let secret = "planted-Secr3t-81c"

    /// The stderr lines that report a retry.
    func retryLines(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("retry ") }
    }

    @Test func retryMakesAFlakyCallSucceedWithTwoNotices() async throws {
        try await withLoopbackServer { server in
            let (result, _) = try await runScript("""
            target flaky {
              base \(server.baseURL)
              path /flaky/e2e
              query fail=2
            }
            plugin retry on count 3 backoff 50ms
            call flaky
            """)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == #"{"ok":true,"attempts":3}"#)
            let lines = retryLines(result.stderr)
            #expect(lines.count == 2, "\(result.stderr)")
            #expect(lines.first?.wholeMatch(of: /retry 1\/3 after (4\d|5\d|60) ms: 503 Service Unavailable/) != nil, "\(lines)")
            #expect(lines.last?.wholeMatch(of: /retry 2\/3 after (8\d|9\d|1[01]\d|120) ms: 503 Service Unavailable/) != nil, "\(lines)")
            #expect(server.hits("/flaky/e2e") == 3)
        }
    }

    @Test func runningOutOfRetriesExitsThreeQuotingTheServer() async throws {
        try await withLoopbackServer { server in
            let (result, _) = try await runScript("""
            target flaky { base \(server.baseURL); path /flaky/out; query fail=2 }
            plugin retry on count 1 backoff 50ms
            call flaky
            echo not reached
            """)
            #expect(result.status == 3)
            #expect(result.stdout.isEmpty)
            #expect(retryLines(result.stderr).count == 1)
            #expect(result.stderr.contains(
                #"error: HTTP 503 Service Unavailable from target 'flaky' (after 2 attempts): "Service Unavailable""#))
            #expect(server.hits("/flaky/out") == 2)
        }
    }

    @Test func postIsRetriedOnlyWhenUnsafe() async throws {
        try await withLoopbackServer { server in
            let (safe, _) = try await runScript("""
            target create { base \(server.baseURL); path /flaky/post; method POST; query fail=1 }
            plugin retry on count 3 backoff 20ms
            call create
            """)
            #expect(safe.status == 0)
            #expect(safe.stdout.contains(#""status":503"#))
            #expect(retryLines(safe.stderr).isEmpty)
            #expect(server.hits("/flaky/post") == 1)

            let (unsafe, _) = try await runScript("""
            target create { base \(server.baseURL); path /flaky/post-unsafe; method POST; query fail=1 }
            plugin retry on count 3 backoff 20ms unsafe
            call create
            """)
            #expect(unsafe.stdout == #"{"ok":true,"attempts":2}"#)
            #expect(retryLines(unsafe.stderr).count == 1)
        }
    }

    @Test func tooManyRequestsWithRetryAfterWaitsAboutASecond() async throws {
        try await withLoopbackServer { server in
            let (result, elapsed) = try await runScript("""
            target limited { base \(server.baseURL); path /flaky/limited; query fail=1 status=429 retry-after=1 }
            plugin retry on backoff 60s max 120s
            call limited
            """)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(retryLines(result.stderr) == ["retry 1/3 after 1000 ms: 429 Too Many Requests"])
            // The line says the wait was Retry-After's second, not the 60 s backoff.
            #expect(elapsed >= .milliseconds(1000))
        }
    }

    @Test func targetRetryCountWorksWithThePluginOff() async throws {
        try await withLoopbackServer { server in
            let (result, _) = try await runScript("""
            target flaky { base \(server.baseURL); path /flaky/target; query fail=2; retry 2 }
            target once { base \(server.baseURL); path /flaky/once; query fail=1 }
            call flaky
            call once
            plugins
            """)
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix(#"{"ok":true,"attempts":3}{"status":503"#))
            #expect(retryLines(result.stderr).map { String($0.prefix(9)) } == ["retry 1/2", "retry 2/2"])
            #expect(result.stdout.contains("retry    off  count 3 backoff 200ms max 5s jitter 20%\n"))
        }
    }

    @Test func verboseLoggerMasksAnEnvSecretEverywhere() async throws {
        try await withLoopbackServer { server in
            let (result, _) = try await runScript("""
            let key = env WSH_E2E_KEY
            target look { base \(server.baseURL); path /echo; query q=$key city=Suwon; header Accept:application/json }
            target stuck { base \(server.baseURL); path /never; query q=$key; timeout 200ms }
            plugin logger on verbose
            call look
            show look --curl
            set bail off
            call stuck
            """, environment: ["WSH_E2E_KEY": Self.secret])
            #expect(result.status == 3)
            #expect(!result.stderr.contains(Self.secret), "\(result.stderr)")
            // wsh's own headers come first, as curl -v shows its own; the target's Accept replaces `*/*`.
            let version = try await WSHProcess.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(result.stderr.contains("""
                > GET \(server.baseURL)/echo?q=***&city=Suwon
                > User-Agent: wsh/\(version)
                > Accept-Encoding: gzip, deflate, br
                > Accept: application/json
                """), "\(result.stderr)")
            #expect(result.stderr.contains("< 200 OK "))
            #expect(result.stderr.contains("\"query\": \"q=***&city=Suwon\""), "the echoed body is masked in the log")
            #expect(result.stderr.contains("error: GET \(server.baseURL)/never?q=*** timed out after 200 ms"))
            let curl = try #require(result.stdout.range(of: "curl -L --compressed \\\n"))
            let shown = String(result.stdout[curl.lowerBound...])
            #expect(shown.contains("\"\(server.baseURL)/echo?q=$WSH_E2E_KEY&city=Suwon\""), "\(shown)")
            #expect(!shown.contains(Self.secret))
            #expect(result.stdout.contains(Self.secret), "the body on stdout is the data, unmasked")
        }
    }

    @Test func loggerWritesToAFileRelativeToTheCurrentDirectory() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            let (result, _) = try await runScript("""
            target ok { base \(server.baseURL); path /status/204 }
            plugin logger on summary file logs.txt
            call ok
            call ok
            """, directory: directory)
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty)
            let log = try String(contentsOf: directory.appendingPathComponent("logs.txt"), encoding: .utf8)
            let lines = log.split(separator: "\n")
            #expect(lines.count == 2)
            #expect(lines.allSatisfy { $0.wholeMatch(of: /GET http:\/\/127\.0\.0\.1:\d+\/status\/204 -> 204 No Content (\d+ ms|\d+\.\d s) 0 B/) != nil }, "\(log)")
        }
    }

    @Test func authGoesOnlyToItsHost() async throws {
        try await withLoopbackServer { server in
            let (result, _) = try await runScript("""
            let token = env WSH_E2E_TOKEN
            set base \(server.baseURL)
            plugin auth bearer $token
            target mine { path /echo }
            target other { base http://localhost:\(server.port); path /echo }
            call mine
            echo
            call other
            echo
            plugins
            """, environment: ["WSH_E2E_TOKEN": Self.secret])
            #expect(result.status == 0, "\(result.stderr)")
            let outputs = result.stdout.split(separator: "\n")
            #expect(outputs[0].contains(#"["Authorization","Bearer \#(Self.secret)"]"#))
            #expect(!outputs[1].contains("Authorization"))
            #expect(result.stdout.contains("auth     on   bearer *** host 127.0.0.1\n"))
        }
    }

    /// An authentication scheme's name is case-insensitive (RFC 9110): `Basic`, as the header
    /// writes it, was an unknown setting, and the line kept the password in the history.
    @Test func aSchemeIsReadInAnyCase() async throws {
        try await withLoopbackServer { server in
            let (result, _) = try await runScript("""
            plugin auth Basic al:pw-any-case host 127.0.0.1
            get \(server.baseURL)/echo
            """)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(#"["Authorization","Basic YWw6cHctYW55LWNhc2U="]"#), "\(result.stdout)")
        }
    }

    @Test func errorBodiesAreQuoted() async throws {
        let routes = ["/owm": StaticRoute(status: 401, body: #"{"cod":401,"message":"Invalid API key."}"#)]
        try await withLoopbackServer(routes: routes) { server in
            let (result, _) = try await runScript("""
            target weather { base \(server.baseURL); path /owm; validate 2xx }
            call weather
            """)
            #expect(result.status == 3)
            #expect(result.stderr.contains(#"error: HTTP 401 Unauthorized from target 'weather' (expected 2xx): "Invalid API key.""#))
        }
    }

    @Test func pluginsListsInOrderAndOrderMovesThem() async throws {
        let (result, _) = try await runScript("""
        plugin logger on curl
        plugin loading on
        plugin retry on count 2 backoff 100ms max 2s jitter 0 unsafe
        plugin order retry auth
        plugins
        plugin loading off
        plugin logger
        """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
        retry    on   count 2 backoff 100ms max 2s jitter 0% unsafe
        auth     off  (no credential)
        logger   on   curl
        loading  on
        logger   on   curl

        """)
    }

    @Test func mistakesAreNamedWithASuggestion() async throws {
        let unknown = try await WSHProcess.run(["-c", "plugin retyr on"])
        // Found before anything runs, as a wrong setting word is.
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("error: unknown plugin 'retyr'"))
        #expect(unknown.stderr.contains("note: did you mean 'retry'?"))
        let setting = try await WSHProcess.run(["-c", "plugin retry on count 3 bakoff 1s"])
        #expect(setting.stderr.contains("<command line>:1:25: error: unknown setting 'bakoff' for plugin 'retry'"))
        #expect(setting.stderr.contains("note: did you mean 'backoff'?"))
        let value = try await WSHProcess.run(["-c", "plugin retry on count many"])
        #expect(value.stderr.contains("error: invalid retry count 'many'"))
        let host = try await WSHProcess.run(["-c", "plugin auth bearer abc123"])
        #expect(host.status == 3)
        #expect(host.stderr.contains("<command line>:1:8: error: plugin auth needs the host to send the credential to\n"))
        // The credential shows nowhere: the quoted line has `***` for it, and no message or note repeats it.
        #expect(!host.stderr.contains("abc123"), "\(host.stderr)")
        #expect(host.stderr.contains("   plugin auth bearer ***\n          ^~~~\n"), "\(host.stderr)")
        // A scheme wsh does not know: the word after it was typed as the credential.
        let typo = try await WSHProcess.run(["-c", "plugin auth bearr tok-typo-9 host x"])
        #expect(typo.stderr.contains("error: unknown setting 'bearr' for plugin 'auth'"), "\(typo.stderr)")
        #expect(!typo.stderr.contains("tok-typo-9"), "\(typo.stderr)")
        // `basic alice: pw`, as a header is written: the password was quoted as an unknown setting.
        let blank = try await WSHProcess.run(["-c", "plugin auth basic alice: pw-blank-7 host x"])
        #expect(blank.stderr.contains("error: 'basic' takes basic USER:PASSWORD in one word: a blank after ':' leaves it empty"), "\(blank.stderr)")
        #expect(!blank.stderr.contains("pw-blank-7"), "\(blank.stderr)")
        // A setting from a variable is read when its line runs: a failed statement changes nothing.
        let unchanged = try await WSHProcess.run(["-c", "set bail off; let m = nope; plugin retry on count 9 max $m; plugins"])
        #expect(unchanged.stdout.contains("retry    off  count 3 "), "a failed statement changes nothing: \(unchanged.stdout)\(unchanged.stderr)")
        // Written out, the same mistake is read before anything runs.
        let early = try await WSHProcess.run(["-c", "echo ran; plugin retry on count 9 max nope"])
        #expect(early.status == 2 && early.stdout.isEmpty, "\(early.stdout)\(early.stderr)")
    }

    @Test func spinnerIsAbsentWhenStderrIsNotATerminal() async throws {
        try await withLoopbackServer { server in
            let (result, _) = try await runScript("""
            target slow { base \(server.baseURL); path /slow; query ms=400 }
            plugin loading on
            call slow
            """)
            #expect(result.status == 0)
            #expect(result.stdout == #"{"slept_ms":400}"#)
            #expect(result.stderr.isEmpty)
        }
    }
}
