import Foundation
import TestSupport
import Testing

/// `sleep`, `if ... else`, `for`, `repeat` and `until` in scripts against the loopback server:
/// what each runs, the rounds the server saw, the bail rules of `until`, errors at their words, Ctrl-C.
@Suite struct ControlFlowTests {
    private static let list = StaticRoute(body: #"{"names":["Seoul","Busan"],"ids":[1,2,3],"one":{"a":1}}"#)

    @Test func ifAndForRunWhatTheyShould() async throws {
        try await withLoopbackServer(routes: ["/list": Self.list]) { server in
            let (result, _) = try await runScript("""
            set output quiet
            get \(server.baseURL)/list
            if status == 200 { echo two-hundred } else { echo other }
            if .names | length > 5 { echo many } else { echo few }
            if not .missing exists { echo no-missing }
            for city in .names { echo "city $city" }
            for id in .ids { get \(server.baseURL)/echo n==$id }
            for word in a "b c" { echo "word $word" }
            """)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "two-hundred\nfew\nno-missing\ncity Seoul\ncity Busan\nword a\nword b c\n", "\(result.stdout)")
            #expect(server.hits("/echo") == 3)
        }
    }

    /// `for` over a query of several words goes over its list, and over `$list` goes over the
    /// list's elements: each ran over something else (the words `headers` and `Set-Cookie`; the
    /// list's JSON text, once) and a check in the loop held on a wrong answer.
    @Test func forGoesOverAHeadersListAndAListVariable() async throws {
        let login = StaticRoute(status: 200, headers: [("Content-Type", "application/json"), ("Set-Cookie", "sid=abc; HttpOnly"),
                                                       ("Set-Cookie", "track=1; SameSite=None")], body: Array(#"{"tags":["ok","banned"],"none":[]}"#.utf8))
        try await withLoopbackServer(routes: ["/login": login]) { server in
            let (result, _) = try await runScript("""
            set output quiet
            set bail off
            get \(server.baseURL)/login
            for c in headers Set-Cookie { echo "cookie $c" }
            let tags = .tags
            let none = .none
            for t in $tags { echo "tag $t" }
            for t in $none { echo "never $t" }
            for t in "$tags" { echo "quoted $t" }
            for t in $tags { expect $t != "banned" }
            """)
            #expect(result.stdout == """
                cookie sid=***; HttpOnly
                cookie track=1; SameSite=None
                tag ok
                tag banned
                quoted ["ok","banned"]

                """, "\(result.stdout)")
            #expect(result.status == 4, "the check on the second tag fails: \(result.stderr)")
            #expect(result.stderr.contains(#"actual:   "banned""#), "\(result.stderr)")
        }
        let twoQueries = try await WSHProcess.run(["-c", "for x in .a .b { echo $x }"])
        #expect(twoQueries.status != 0 && twoQueries.stdout.isEmpty, "\(twoQueries.stdout)")
        #expect(twoQueries.stderr.contains("<command line>:1:13: error: 'for' goes over one query, or over words"), "\(twoQueries.stderr)")
    }

    @Test func repeatSendsNTimesAndUntilRetriesUntilTheExpressionHolds() async throws {
        try await withLoopbackServer { server in
            // The first two answers are 503: the expect in the body fails in those rounds without
            // counting, and holds in the third, where the loop stops.
            let (result, _) = try await runScript("""
            repeat 3 { get \(server.baseURL)/echo > /dev/null }
            until status == 200 every 10ms max 5 {
              get \(server.baseURL)/flaky/job?fail=2 > /dev/null
              expect status == 200
            }
            echo done
            """)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "done\n")
            #expect(!result.stderr.contains("expectation failed"), "\(result.stderr)")
            #expect(server.hits("/echo") == 3)
            #expect(server.hits("/flaky/job") == 3)
        }
    }

    /// A round whose answer the condition cannot read (a proxy's HTML 502 page while the service
    /// starts), or whose call got no answer, is a round that does not hold yet, as Hurl's retry
    /// goes on after such a round: `until` ended at the first one, with an error.
    @Test func untilGoesOnAfterARoundWhoseAnswerIsNotJSONOrIsMissing() async throws {
        try await withLoopbackServer { server in
            let (result, _) = try await runScript("""
            target checked {
              base \(server.baseURL)
              path /flaky/other
              query fail=2 status=503 html=1
              validate 200
            }
            until .ok == true every 10ms max 5 {
              get \(server.baseURL)/flaky/job?fail=2&status=502&html=1 > /dev/null
            }
            let n = .attempts
            echo "done after $n"
            until .ok == true every 10ms max 5 {
              call checked
              expect status == 200
            }
            """)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("done after 3\n"), "\(result.stdout)")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            #expect(server.hits("/flaky/job") == 3)
            #expect(server.hits("/flaky/other") == 3)
        }
        // In the last round the error is said, with its place; nothing answers on a closed port.
        let closed = try await runScript("""
        until .ok == true every 0ms max 2 {
          get http://127.0.0.1:9/never
        }
        """).0
        #expect(closed.status == 3, "\(closed.stderr)")
        #expect(closed.stderr.components(separatedBy: "error:").count == 2, "one error, the last round's: \(closed.stderr)")
        #expect(closed.stderr.contains("script.wsh:2:7: error:"), "\(closed.stderr)")
    }

    @Test func untilThatNeverHoldsFailsWithFourAndItsLastRoundsExpect() async throws {
        try await withLoopbackServer { server in
            let (result, _) = try await runScript("""
            set bail off
            until status == 201 every 0ms max 2 {
              get \(server.baseURL)/echo > /dev/null
              expect status == 201
            }
            """)
            #expect(result.status == 4, "\(result.stderr)")
            #expect(server.hits("/echo") == 2)
            // One failed expect (the last round's), then the loop's own failure, at the expression.
            #expect(result.stderr.components(separatedBy: "expectation failed: status == 201").count == 2, "\(result.stderr)")
            #expect(result.stderr.contains("script.wsh:2:7: error: 'status == 201' still does not hold after 2 rounds"), "\(result.stderr)")
        }
    }

    @Test func mistakesAreErrorsAtTheirWords() async throws {
        let cases: [(String, String)] = [
            ("sleep soon", "<command line>:1:7: error: 'soon' is not a duration"),
            ("repeat lots { echo x }", "<command line>:1:8: error: 'lots' is not a number of rounds"),
            ("until 1 == 2 max 0 { echo x }", "<command line>:1:18: error: '0' is not a number of rounds"),
            ("for x Seoul { echo x }", "<command line>:1:1: error: wrong arguments for 'for'"),
            ("if 1 == 1 { echo a } otherwise { echo b }", "<command line>:1:22: error: expected a new line or ';' after '}'"),
            ("target t { base http://x } else { echo c }", "<command line>:1:28: error: 'else' belongs after an 'if' block"),
            ("let s = abc\nfor c in .x { echo $c }", "<command line>:2:10: error:"),
        ]
        for (script, expected) in cases {
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status != 0, "\(script)")
            #expect(result.stderr.contains(expected), "\(script): \(result.stderr)")
        }
    }

    @Test func ctrlCStopsALoopAndASleep() async throws {
        try await withLoopbackServer { server in
            let running = try RunningWSH(["-c", "set output quiet\nrepeat 1000000 { get \(server.baseURL)/echo; sleep 1m }"])
            // In the first round's minute of sleep: the server has seen its request.
            let deadline = Date().addingTimeInterval(60)
            while server.hits("/echo") == 0, running.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(server.hits("/echo") == 1)
            running.interrupt()
            #expect(try await offPool { running.waitForExit(timeout: 30) } == 130)
            #expect(running.stderr.hasSuffix("wsh: interrupted\n"), "\(running.stderr)")
            #expect(server.hits("/echo") == 1)
        }
    }
}
