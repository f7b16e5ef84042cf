import Checks
import Foundation
import TestSupport
import Testing
@testable import WeatherShell

/// The ways a check could pass on a wrong answer (issue 43): an `until` round that ends the loop,
/// a word read as text, a missing value under `not`. Each runs against the loopback server's
/// `/echo`, which answers GET with `{"method":"GET",...}`.
@Suite struct RunExpectTests {
    /// How `script` ends after a GET of `/echo`, and what it wrote to stderr.
    @ShellActor private static func run(_ script: String, on server: TestServer) async -> (Halt?, String) {
        let shell = ShellHarness()
        let halt = await shell.run("set output quiet\ntarget e { base \(server.baseURL); path /echo }\n\(script)\n")
        return (halt, shell.stderr)
    }

    @ShellActor private static func output(of script: String) async -> (Halt?, String, String) {
        let shell = ShellHarness()
        let halt = await shell.run(script)
        return (halt, shell.stdout, shell.stderr)
    }

    private static func failedCheck(_ halt: Halt?) -> Bool {
        if case .failure(.expectation)? = halt { return true }
        return false
    }

    @Test func aFailedExpectInTheRoundThatEndsAnUntilCounts() async throws {
        try await TestServer.with { server in
            // The first round's condition holds, so it is the last: its failed expect is a failure.
            let (halt, stderr) = await Self.run(#"until status == 200 every 10ms max 3 { call e; expect .method == "POST" }"#, on: server)
            #expect(Self.failedCheck(halt), "\(stderr)")
            #expect(stderr.contains(#"expectation failed: .method == "POST""#), "\(stderr)")
            #expect(server.hits("/echo") == 1)
        }
    }

    @Test func earlierRoundsStayProvisionalAndTheLastCounts() async throws {
        try await TestServer.with { server in
            // Round 1 answers 503: its expect fails and its condition does not hold, so it does not
            // count; round 2 answers 200 and passes.
            let url = "\(server.baseURL)/flaky/until?fail=1&status=503"
            let (passed, passedErrors) = await Self.run("until status == 200 every 1ms max 5 { get \(url); expect status == 200 }", on: server)
            #expect(passed == nil, "\(passedErrors)")
            #expect(server.hits("/flaky/until") == 2)
            // The round that reaches `max` is the last too.
            let (failed, failedErrors) = await Self.run(#"until status == 201 every 1ms max 2 { call e; expect .method == "PUT" }"#, on: server)
            #expect(Self.failedCheck(failed))
            #expect(failedErrors.components(separatedBy: "expectation failed").count == 2, "\(failedErrors)")
        }
    }

    /// A round that ends the script (`exit`, `exit 0`, an `exit` in a file it sources) is the last:
    /// its held-back failures are shown and counted. They were lost, and the script exited 0.
    @Test func aRoundThatEndsTheScriptIsTheLast() async throws {
        try await TestServer.with { server in
            let included = FileManager.default.temporaryDirectory.appendingPathComponent("exit-\(UUID().uuidString).wsh")
            defer { try? FileManager.default.removeItem(at: included) }
            try Data("exit\n".utf8).write(to: included)
            for ending in ["exit", "exit 0", "if status == 200 { exit 0 }", "source \(included.path)",
                           "until status == 200 every 1ms max 2 { exit }"] {
                let (halt, stderr) = await Self.run(#"until status == 201 every 1ms max 3 { call e; expect .method == "POST"; \#(ending) }"#,
                                                    on: server)
                #expect(Self.failedCheck(halt), "\(ending): \(halt.map { "\($0)" } ?? "completed"): \(stderr)")
                #expect(stderr.contains(#"expectation failed: .method == "POST""#), "\(ending): \(stderr)")
            }
            // With bail off, the failure is said, and a bare exit takes its code; `exit 0` is 0.
            for (ending, code) in [("exit", Int32(4)), ("exit 0", 0)] {
                let (halt, stderr) = await Self.run(#"set bail off\#nuntil status == 201 every 1ms max 3 { call e; expect .method == "POST"; \#(ending) }"#,
                                                    on: server)
                guard case .exit(code)? = halt else { Issue.record("\(ending): \(String(describing: halt)): \(stderr)"); continue }
                #expect(stderr.contains("expectation failed"), "\(ending): \(stderr)")
            }
            // A round that passes and exits is no failure.
            let (passed, stderr) = await Self.run(#"until status == 201 every 1ms max 3 { call e; expect .method == "GET"; exit }"#, on: server)
            guard case .exit(0)? = passed else { Issue.record("\(String(describing: passed)): \(stderr)"); return }
        }
    }

    /// A catch cannot make a failed check pass: one that exits (0 or any code) or fails had the
    /// failure go unsaid and the script exit 0. It is said and counted first.
    @Test func aCatchThatExitsStillFailsTheCheck() async throws {
        try await TestServer.with { server in
            for handler in ["exit 0", "exit 3", "exit", "call nowhere"] {
                let (halt, stderr) = await Self.run("""
                    target nowhere { base http://127.0.0.1:9; path /x }
                    reactor r { action go { call e; expect .method == "POST" } catch { \(handler) } }
                    r go
                    """, on: server)
                #expect(Self.failedCheck(halt), "\(handler): \(String(describing: halt)): \(stderr)")
                #expect(stderr.contains(#"expectation failed: .method == "POST""#), "\(handler): \(stderr)")
            }
            // With bail off (the prompt), the failure is said and the catch's exit is kept.
            let (halt, stderr) = await Self.run("""
                set bail off
                reactor r { action go { call e; expect .method == "POST" } catch { exit 0 } }
                r go
                """, on: server)
            guard case .exit(0)? = halt else { Issue.record("\(String(describing: halt)): \(stderr)"); return }
            #expect(stderr.contains("expectation failed"), "\(stderr)")
        }
    }

    @Test func anUntilInsideAnotherCountsItsLastRoundWhenTheOuterRoundDoes() async throws {
        try await TestServer.with { server in
            let (halt, stderr) = await Self.run("""
            until status == 200 every 1ms max 2 {
              until status == 200 every 1ms max 2 { call e; expect .method == "DELETE" }
            }
            """, on: server)
            #expect(Self.failedCheck(halt), "\(stderr)")
        }
    }

    /// An inner `until` that runs out of rounds inside an outer round that is not the last does not
    /// fail the run when a later outer round ends the loop.
    @Test func anInnerUntilThatRunsOutCountsOnlyInTheOuterLastRound() async throws {
        try await TestServer.with { server in
            let url = "\(server.baseURL)/flaky/outer?fail=1&status=503"
            let (passed, stderr) = await Self.run("""
                until status == 200 every 1ms max 3 {
                  until status == 200 every 1ms max 1 { get \(url) }
                }
                """, on: server)
            #expect(passed == nil, "\(stderr)")
            #expect(server.hits("/flaky/outer") == 2)
            let (failed, _) = await Self.run("until status == 201 every 1ms max 2 { until status == 201 every 1ms max 1 { call e } }", on: server)
            #expect(Self.failedCheck(failed))
        }
    }

    /// A round whose condition cannot be evaluated was the last: its failed check is said.
    @Test func aRoundEndedByAnErrorStillCountsItsChecks() async throws {
        try await TestServer.with { server in
            let (halt, stderr) = await Self.run(#"until .nope.deeper == 1 every 1ms max 3 { get \#(server.baseURL)/status/500; expect status == 200 }"#, on: server)
            #expect(halt != nil)
            #expect(stderr.contains("expectation failed: status == 200"), "\(stderr)")
        }
    }

    @Test func aLoneDollarOrAPriceIsText() async throws {
        try await TestServer.with { server in
            let (halt, stdout, stderr) = await Self.output(of: "echo Price: $ and $.50\nlet unit = $\necho $unit")
            #expect(halt == nil, "\(stderr)")
            #expect(stdout == "Price: $ and $.50\n$\n")
            _ = server
        }
    }

    @Test func aCheckOnAMissingValueFailsWithOrWithoutNot() async throws {
        try await TestServer.with { server in
            for check in ["expect not .nope == 1", "expect .nope not isEmpty", "expect .nope != 1", "expect not .nope contains x"] {
                let (halt, stderr) = await Self.run("call e\n\(check)", on: server)
                #expect(Self.failedCheck(halt), "\(check)")
                #expect(stderr.contains("note: actual:   not found (no key 'nope' at the top"), "\(stderr)")
            }
            // Asking whether it exists is how absence is checked.
            let (halt, stderr) = await Self.run("call e\nexpect not .nope exists\nexpect .nope not exists", on: server)
            #expect(halt == nil, "\(stderr)")
            // A condition is JSONPath's: a comparison with nothing is false, and `not` makes it true.
            let (conditional, conditionalErrors) = await Self.run("call e\nif not .nope == 1 { echo yes } else { expect 1 == 2 }", on: server)
            #expect(conditional == nil, "\(conditionalErrors)")
        }
    }

    /// A failed `==` on two long values shows both around where they first differ, and says where:
    /// cut at their start, both showed the same 200 a's. Secrets are masked before the cut.
    @Test func twoLongValuesShowWhereTheyFirstDiffer() async throws {
        let (a, b) = (String(repeating: "a", count: 400), String(repeating: "b", count: 100))
        let (halt, _, stderr) = await Self.output(of: "let s = \(a)X\(b)\nexpect $s == \(a)Y\(b)\n")
        #expect(Self.failedCheck(halt), "\(stderr)")
        let (expected, actual) = (String(repeating: "a", count: 60) + "Y" + b + "\" (string)", String(repeating: "a", count: 60) + "X" + b + "\" (string)")
        #expect(stderr.contains("note: expected: …aa") && stderr.contains(expected), "\(stderr)")
        #expect(stderr.contains("note: actual:   …aa") && stderr.contains(actual), "\(stderr)")
        #expect(stderr.contains("note: they first differ at character 401 (of 501 expected, 501 actual)"), "\(stderr)")
        // Short values, or a difference a cut at the start shows, are shown as before.
        let (_, _, short) = await Self.output(of: "let x = abc\nexpect $x == abd\n")
        #expect(short.contains(#"note: expected: "abd" (string)"#) && !short.contains("differ at"), "\(short)")
        let (_, _, early) = await Self.output(of: "let s = X\(a)\nexpect $s == Y\(a)\n")
        #expect(early.contains(#"note: actual:   "X"# + String(repeating: "a", count: 198) + "… (string)") && !early.contains("differ at"), "\(early)")
        // A secret near the difference is masked, then cut.
        EnvironmentOverlay.define("WSH_TEST_LONG_SECRET", "s3cr3tvalue9")
        let (_, _, secret) = await Self.output(of: "let t = env WSH_TEST_LONG_SECRET\nlet s = \"\(a)zz-X\"\nexpect $s == \"\(a)$t-Y\"\n")
        #expect(!secret.contains("s3cr3t") && secret.contains("a***-Y\" (string)") && secret.contains("azz-X\" (string)")
                && secret.contains("differ at character 401"), "\(secret)")
    }

    @Test func emptyTextIsInEveryText() async throws {
        try await TestServer.with { server in
            let (halt, stderr) = await Self.run(#"""
            call e
            expect body contains ""
            expect body startsWith ""
            expect body endsWith ""
            expect .method contains ""
            expect .method startsWith ""
            expect .method endsWith ""
            """#, on: server)
            #expect(halt == nil, "\(stderr)")
        }
    }

    /// The diagnostic's message and notes for a line that must not parse.
    private func parseError(_ text: String) -> String? {
        do {
            _ = try Parser.parse(SourceFile(name: "t.wsh", directory: "/", text: text))
            return nil
        } catch {
            return ([error.message] + error.notes).joined(separator: "\n")
        }
    }

    /// Small words of a failure (Hurl tester's #16, #25, #26): a string compared with `<` keeps its
    /// quotes, a long hex window starts on a byte, and two numbers past a double's range are not
    /// "the same double".
    @Test func failureNotesSayValuesAsTheyAre() async throws {
        let (_, _, order) = await Self.output(of: #"expect "10" < "9""#)
        #expect(order.contains(#"note: actual: "10" (string), expected: "9" (string)"#), "\(order)")
        let same = String(repeating: "ab", count: 100)
        let cut = try #require(Run.aroundFirstDifference("hex:" + same + "0c", "hex:" + same + "0d", hexAfter: 4))
        let shown = cut.expected.dropFirst().prefix { $0 != "…" }
        #expect(shown.hasPrefix("ab") && shown.hasSuffix("0c") && shown.count % 2 == 0, "\(cut.expected)")
        let (_, _, huge) = await Self.output(of: "let n = 1e400\nexpect $n == 1e401")
        #expect(huge.contains("expectation failed") && !huge.contains("same double"), "\(huge)")
    }

    @Test func aBareWordIsNoQuery() {
        #expect(parseError("expect staus != 200")?.contains("'staus' is not a query\ndid you mean 'status'?") == true)
        #expect(parseError("expect duration < 1000")?.contains("'duration' is not a query\ndid you mean 'time'?") == true)
        #expect(parseError("if bdoy contains x { echo }")?.contains("did you mean 'body'?") == true)
        #expect(parseError("expect @.json.id exists")?.hasPrefix("'@.json.id' is not a query") == true)
        // A filter after the word does not make it a value: `staus | length` filtered the text "staus" and passed.
        #expect(parseError("expect staus | length == 5")?.contains("'staus' is not a query\ndid you mean 'status'?") == true)
        #expect(parseError("until bdoy | length > 0 every 1s max 2 { echo }")?.contains("did you mean 'body'?") == true)
        // A lone `$` is text, not the body (Hurl's `jsonpath "$"` is `.`): `$ | count == 1` held on any answer.
        #expect(parseError("expect $ | count == 2")?.hasPrefix("'$' is not a query\nthe whole answer is '.'") == true)
        #expect(parseError("expect .json.id == .json.other")?.hasPrefix("'.json.other' after '==' would be compared as text") == true)
        #expect(parseError("expect $.json.id != $.json.other")?.hasPrefix("'$.json.other' after '!=' would be compared as text") == true)
        #expect(parseError("expect $.json[ exists")?.hasPrefix("'$.json[' is not a JSONPath query") == true)
        // Quoted text, variables, numbers and constants stand on either side; text after endsWith is text.
        for line in [#"expect "a" == "a""#, "expect $x == 1", "expect 2 > 1", "expect true == true", #"expect .host endsWith .com"#,
                     #"expect .a == ".b""#, "expect .n == .5"] {
            #expect(parseError(line) == nil, "\(line)")
        }
    }

    /// The example in docs/queries-and-expect.md: a second wildcard, slice or filter adds to one flat list.
    @Test func pathsFlattenAsTheReadmeSays() async throws {
        let items = #"{"items":[{"id":1,"n":5,"tags":["a"]},{"id":2,"n":1,"tags":[]},{"id":3,"n":9,"tags":["b","c"]}]}"#
        try await TestServer.with(routes: ["/items": StaticRoute(body: items)]) { server in
            let (halt, stdout, stderr) = await Self.output(of: """
                set output quiet
                get \(server.baseURL)/items
                print .items[*].tags[*]
                print .items[? .n > 4][*] | length
                print .items[1:].tags[0]
                print ..tags[*]
                print $.items[*].tags[*]
                """)
            #expect(halt == nil, "\(stderr)")
            #expect(stdout == #"""
                ["a","b","c"]
                6
                ["b"]
                ["a","b","c"]
                ["a","b","c"]

                """#)
        }
    }

    @Test func dollarPathsAreJSONPathOnTheBody() async throws {
        try await TestServer.with { server in
            let (halt, stderr) = await Self.run(#"""
            call e
            expect $.method == "GET"
            expect $["method"] == "GET"
            expect $.nope not exists
            let m = $.method
            expect $m == "GET"
            """#, on: server)
            #expect(halt == nil, "\(stderr)")
            let (missing, missingErrors) = await Self.run("call e\nexpect $.json.id exists", on: server)
            #expect(Self.failedCheck(missing))
            #expect(missingErrors.contains("not found ('$.json.id' found nothing)"), "\(missingErrors)")
        }
    }

    /// A node list of one compares as its node, as Hurl compares a JSONPath that found one; its
    /// length, `contains` and `| first` still see the list, and an empty one does not exist.
    @Test func aNodeListOfOneComparesAsItsNode() async throws {
        try await TestServer.with { server in
            let (halt, stderr) = await Self.run("""
                call e X-Probe:one-value
                expect $.headers[?@[0] == 'X-Probe'][1] startsWith "one-"
                expect $.headers[?@[0] == 'X-Probe'][1] == "one-value"
                expect $.headers[?@[0] == 'X-Probe'][1] | length == 1
                expect $.headers[?@[0] == 'X-Probe'][1] contains "one-value"
                expect $.headers[?@[0] == 'Nope'][1] not exists
                """, on: server)
            #expect(halt == nil, "\(stderr)")
            let (twoNodes, twoErrors) = await Self.run("call e\n" + #"expect $.headers[*][0] == "Host""#, on: server)
            #expect(Self.failedCheck(twoNodes), "a list of several is no one value: \(twoErrors)")
            let (oneOfMany, _) = await Self.run("call e X-Probe:x\n" + #"expect $.headers[*][0] == "X-Probe""#, on: server)
            #expect(Self.failedCheck(oneOfMany))
        }
    }
}

/// Every form of `expect`, run on an answer where it must hold and again on the same answer with
/// one thing changed, where it must fail; and `expect not` on the first, where it must fail too.
/// A check that passes on a wrong answer is the worst defect a test tool can have. The table must
/// name every operator, every query source and every filter, so none can be added without both cases.
@Suite struct CheckNetTests {
    /// An answer as bytes on the wire, so that status line, version and headers can all change.
    struct Answer {
        var version = "HTTP/1.1"
        var status = "200 OK"
        var headers = ["Content-Type: application/json", "X-Id: 7", "X-Tag: a", "X-Tag: b",
                       "Set-Cookie: sid=abc; Path=/; HttpOnly"]
        var body = CheckNetTests.body
        /// Reached through a 302 from the case's path.
        var redirected = false
        /// Served by the test server's `/slow` after this long, instead of these bytes.
        var delayMilliseconds = 0

        var bytes: [UInt8] {
            let head = (["\(version) \(status)"] + headers + ["Content-Length: \(body.utf8.count)", "Connection: close"])
                .joined(separator: "\r\n")
            return Array((head + "\r\n\r\n" + body).utf8)
        }

        static let html = Answer(headers: ["Content-Type: text/html; charset=utf-8"], body: "<html><body><b>x</b></body></html>")
    }

    /// What is changed in the answer where the check holds, to make one where it must fail.
    enum Change {
        /// Every occurrence of the text in the body.
        case body(String, String)
        case status(String)
        case version(String)
        /// Header lines with the first text replaced by the second; nil removes them.
        case header(String, String?)
        case notRedirected
        case notDelayed

        func applied(to answer: Answer) -> Answer {
            var changed = answer
            switch self {
            case .body(let old, let new): changed.body = answer.body.replacingOccurrences(of: old, with: new)
            case .status(let status): changed.status = status
            case .version(let version): changed.version = version
            case .header(let old, let new?): changed.headers = answer.headers.map { $0.replacingOccurrences(of: old, with: new) }
            case .header(let old, nil): changed.headers = answer.headers.filter { !$0.hasPrefix(old) }
            case .notRedirected: changed.redirected = false
            case .notDelayed: changed.delayMilliseconds = 0
            }
            return changed
        }
    }

    struct Case: CustomTestStringConvertible {
        var check: String
        var change: Change
        var answer = Answer()
        var testDescription: String { check }
    }

    static let body = """
        {"name":"Ada","id":7,"price":9.5,"ok":true,"none":null,"tags":["a","b"],"empty":[],"obj":{"k":"v"},\
        "when":"2026-11-25T08:00:00Z","day":"25/11/2026","text":"  Hello, World  ","html":"&lt;b&gt;","enc":"a%20b",\
        "b64":"QWRh","count":"42","link":"/p?q=w%2Bx+y","items":[{"id":1,"n":5},{"id":2,"n":1}],\
        "uuid":"3f2b8a9e-1c4d-4e5f-9a7b-0c1d2e3f4a5b"}
        """

    static let cases: [Case] = [
        // Operators.
        Case(check: #"expect .name == "Ada""#, change: .body("Ada", "Bob")),
        Case(check: #"expect .name != "Bob""#, change: .body("Ada", "Bob")),
        Case(check: "expect .id < 8", change: .body(#""id":7"#, #""id":8"#)),
        Case(check: "expect .id <= 7", change: .body(#""id":7"#, #""id":8"#)),
        Case(check: "expect .id > 6", change: .body(#""id":7"#, #""id":6"#)),
        Case(check: "expect .id >= 7", change: .body(#""id":7"#, #""id":6"#)),
        Case(check: #"expect .name contains "d""#, change: .body("Ada", "Bob")),
        Case(check: #"expect .name contains """#, change: .body(#""name""#, #""nome""#)),
        Case(check: #"expect .name startsWith """#, change: .body(#""name""#, #""nome""#)),
        Case(check: #"expect .name endsWith """#, change: .body(#""name""#, #""nome""#)),
        Case(check: #"expect .tags contains "b""#, change: .body(#"["a","b"]"#, #"["a","c"]"#)),
        Case(check: #"expect .tags includes "b""#, change: .body(#"["a","b"]"#, #""ab""#)),
        Case(check: #"expect .name startsWith "A""#, change: .body("Ada", "Bob")),
        Case(check: #"expect .name endsWith "a""#, change: .body("Ada", "Bob")),
        Case(check: #"expect .name matches "^A[a-z]+$""#, change: .body("Ada", "Bob")),
        Case(check: "expect .obj.k exists", change: .body(#""k":"#, #""j":"#)),
        Case(check: "expect .name isString", change: .body(#""name":"Ada""#, #""name":1"#)),
        Case(check: "expect .id isNumber", change: .body(#""id":7"#, #""id":"7""#)),
        Case(check: "expect .id isInteger", change: .body(#""id":7"#, #""id":7.5"#)),
        Case(check: "expect .price isFloat", change: .body(#""price":9.5"#, #""price":9"#)),
        Case(check: "expect .ok isBool", change: .body(#""ok":true"#, #""ok":"true""#)),
        Case(check: "expect .none isNull", change: .body(#""none":null"#, #""none":0"#)),
        Case(check: "expect .tags isList", change: .body(#"["a","b"]"#, #""a,b""#)),
        Case(check: "expect .obj isObject", change: .body(#"{"k":"v"}"#, #"["k","v"]"#)),
        Case(check: "expect .obj isCollection", change: .body(#"{"k":"v"}"#, #""k""#)),
        Case(check: "expect .uuid isUuid", change: .body("0c1d2e3f4a5b", "0c1d2e3f4a5")),
        Case(check: "expect .empty isEmpty", change: .body(#""empty":[]"#, #""empty":[0]"#)),
        Case(check: "expect .when isDate", change: .body("2026-11-25T08", "2026-11-25X08")),
        Case(check: "expect .when isIsoDate", change: .body("2026-11-25T08", "2026-11-25X08")),
        // Query sources.
        Case(check: "expect status == 200", change: .status("201 Created")),
        Case(check: #"expect header X-Id == "7""#, change: .header("X-Id: 7", "X-Id: 8")),
        Case(check: "expect header X-Id exists", change: .header("X-Id", nil)),
        Case(check: "expect headers X-Tag | length == 2", change: .header("X-Tag: b", nil)),
        Case(check: "expect headers X-Tag exists", change: .header("X-Tag", nil)),
        Case(check: #"expect body contains "Ada""#, change: .body("Ada", "Bob")),
        Case(check: "expect bytes | length == \(body.utf8.count)", change: .body("Ada", "Adam")),
        // An answer held 1.6 s takes that long; one sent at once taking 1.5 s would need a stall
        // of the whole machine (the cases run one at a time, so not one another's).
        Case(check: "expect time >= 1500", change: .notDelayed, answer: Answer(delayMilliseconds: 1600)),
        Case(check: #"expect url endsWith "/end""#, change: .notRedirected, answer: Answer(redirected: true)),
        Case(check: "expect redirects exists", change: .notRedirected, answer: Answer(redirected: true)),
        Case(check: "expect redirects | length == 1", change: .notRedirected, answer: Answer(redirected: true)),
        Case(check: #"expect hops | jsonpath "$[0].status" == 302"#, change: .notRedirected, answer: Answer(redirected: true)),
        Case(check: #"expect hops | jsonpath "$[0].location" endsWith "/holds/end""#, change: .notRedirected, answer: Answer(redirected: true)),
        Case(check: #"expect version == "HTTP/1.1""#, change: .version("HTTP/1.0")),
        Case(check: #"expect cookie sid == "abc""#, change: .header("sid=abc", "sid=xyz")),
        Case(check: "expect cookie sid.httponly == true", change: .header("; HttpOnly", "")),
        Case(check: "expect .items[*].id == [1,2]", change: .body(#""id":2"#, #""id":3"#)),
        Case(check: "expect .items[-1].id == 2", change: .body(#""id":2"#, #""id":3"#)),
        Case(check: "expect .items[1:].id == [2]", change: .body(#""id":2"#, #""id":3"#)),
        Case(check: "expect .items[? .n > 4].id == [1]", change: .body(#""n":5"#, #""n":3"#)),
        Case(check: "expect .items[? .n > 4] exists", change: .body(#""n":5"#, #""n":3"#)),
        Case(check: "expect ..n exists", change: .body(#""n":"#, #""m":"#)),
        Case(check: "expect .items[*].n | length == 2", change: .body(#""n":1"#, #""m":1"#)),
        Case(check: "expect $.items[0].id == 1", change: .body(#""id":1"#, #""id":9"#)),
        Case(check: "expect $.items[?@.n > 4] exists", change: .body(#""n":5"#, #""n":3"#)),
        Case(check: "expect $.obj.k exists", change: .body(#""k":"#, #""j":"#)),
        // Filters.
        Case(check: "expect .tags | length == 2", change: .body(#"["a","b"]"#, #"["a"]"#)),
        Case(check: #"expect .obj | keys == '["k"]'"#, change: .body(#""k":"#, #""j":"#)),
        Case(check: #"expect .obj | values == '["v"]'"#, change: .body(#""v""#, #""w""#)),
        Case(check: #"expect .tags | first == "a""#, change: .body(#"["a","b"]"#, #"["b","a"]"#)),
        Case(check: #"expect .tags | last == "b""#, change: .body(#"["a","b"]"#, #"["b","a"]"#)),
        Case(check: #"expect .tags | nth 1 == "b""#, change: .body(#"["a","b"]"#, #"["b","a"]"#)),
        Case(check: "expect .count | toInt == 42", change: .body(#""42""#, #""43""#)),
        Case(check: "expect .count | toFloat == 42", change: .body(#""42""#, #""42.5""#)),
        Case(check: #"expect .id | toString == "7""#, change: .body(#""id":7"#, #""id":8"#)),
        Case(check: #"expect .text | split "," | length == 2"#, change: .body("Hello, World", "Hello World")),
        Case(check: #"expect .tags | join "-" == "a-b""#, change: .body(#"["a","b"]"#, #"["b","a"]"#)),
        Case(check: #"expect .name | replace "d" "x" == "Axa""#, change: .body("Ada", "Bob")),
        Case(check: #"expect .name | replaceRegex "[a-z]" "x" == "Axx""#, change: .body("Ada", "ADA")),
        Case(check: #"expect .name | upper == "ADA""#, change: .body("Ada", "Bob")),
        Case(check: #"expect .name | lower == "ada""#, change: .body("Ada", "Bob")),
        Case(check: #"expect .text | trim == "Hello, World""#, change: .body("World", "world")),
        Case(check: #"expect .text | trim | urlEncode == "Hello%2C%20World""#, change: .body("World", "world")),
        Case(check: #"expect .enc | urlDecode == "a b""#, change: .body("a%20b", "a%21b")),
        Case(check: #"expect .name | base64Encode == "QWRh""#, change: .body("Ada", "Bob")),
        Case(check: #"expect .b64 | base64Decode == "Ada""#, change: .body("QWRh", "Qm9i")),
        Case(check: #"expect rawbytes contains "Ada""#, change: .body("Ada", "Bob")),
        // Bytes a filter made compare with a byte literal, as Hurl's `base64Decode == hex,416461;` (it
        // was compared with the text "hex:416461" and failed).
        Case(check: "expect .b64 | base64Decode == hex:416461", change: .body("QWRh", "Qm9i")),
        Case(check: #"expect .when | regex "T([0-9]+):" == "08""#, change: .body("T08:", "T09:")),
        Case(check: #"expect .name | sha256 == "99a563ab2f6e21e96998f9fddd2a2bab82b70ac019579502b8d7fc0032ff62bb""#,
             change: .body("Ada", "Adb")),
        Case(check: #"expect .name | md5 == "1a382809b7c03f686e12dd15677c5497""#, change: .body("Ada", "Adb")),
        Case(check: #"expect .name | hex == "416461""#, change: .body("Ada", "Adb")),
        Case(check: #"expect .html | htmlUnescape == "<b>""#, change: .body("&lt;b&gt;", "&lt;i&gt;")),
        Case(check: #"expect .html | htmlUnescape | htmlEscape == "&lt;b&gt;""#, change: .body("&lt;b&gt;", "&lt;i&gt;")),
        Case(check: "expect .tags | count == 2", change: .body(#"["a","b"]"#, #"["a"]"#)),
        Case(check: #"expect .name | base64UrlSafeEncode == "QWRh""#, change: .body("Ada", "Bob")),
        Case(check: #"expect .b64 | base64UrlSafeDecode == "Ada""#, change: .body("QWRh", "Qm9i")),
        Case(check: #"expect .b64 | base64Decode | utf8Decode == "Ada""#, change: .body("QWRh", "Qm9i")),
        Case(check: #"expect .b64 | base64Decode | charsetDecode latin1 == "Ada""#, change: .body("QWRh", "Qm9i")),
        Case(check: #"expect .name | utf8Encode | toHex == "416461""#, change: .body("Ada", "Adb")),
        Case(check: #"expect .link | urlQueryParam q == "w+x y""#, change: .body("q=", "r=")),
        Case(check: #"expect .day | toDate "%d/%m/%Y" | format "%Y-%m-%d" == "2026-11-25""#, change: .body("25/11/2026", "26/11/2026")),
        Case(check: #"expect .when | toDate | format "%Y" == "2026""#, change: .body("2026-11-25T08", "2025-11-25T08")),
        Case(check: #"expect .when | toDate "%+" | dateFormat "%A %-d" == "Wednesday 25""#, change: .body("2026-11-25T08", "2026-11-26T08")),
        Case(check: "expect .when | toDate | daysBeforeNow > 0", change: .body("2026-11-25T08", "2996-11-25T08")),
        Case(check: "expect .when | toDate | daysAfterNow < 0", change: .body("2026-11-25T08", "2996-11-25T08")),
        Case(check: #"expect body | jsonpath "$.items[1].id" == 2"#, change: .body(#""id":2"#, #""id":3"#)),
        Case(check: #"expect body | jsonpath "$..n" exists"#, change: .body(#""n":"#, #""m":"#)),
        Case(check: #"expect body | xpath "string(//b)" == "x""#, change: .body("<b>x</b>", "<b>y</b>"), answer: .html),
        Case(check: #"expect body | xpath "//b" exists"#, change: .body("<b>x</b>", "<i>x</i>"), answer: .html),
    ]

    /// Where each case's two answers are served, and the server for the delayed ones.
    private struct Servers {
        let raw: RawReplyServer
        let timed: TestServer

        func url(_ answer: Answer, _ path: String) -> String {
            answer.delayMilliseconds > 0 ? "\(timed.baseURL)/slow?ms=\(answer.delayMilliseconds)" : raw.baseURL + path
        }
    }

    private static var replies: [String: [UInt8]] {
        var replies: [String: [UInt8]] = [:]
        for (index, item) in cases.enumerated() {
            for (name, answer) in [("holds", item.answer), ("fails", item.change.applied(to: item.answer))] {
                let path = "/\(index)/\(name)"
                if answer.redirected {
                    replies[path] = Array("HTTP/1.1 302 Found\r\nLocation: \(path)/end\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
                    replies[path + "/end"] = answer.bytes
                } else {
                    replies[path] = answer.bytes
                }
            }
        }
        return replies
    }

    /// How `check` ends after a call to `url` in a fresh shell: nil when it held.
    @ShellActor private static func outcome(of check: String, at url: String) async -> (Halt?, String) {
        let shell = ShellHarness()
        let halt = await shell.run("set output quiet\nget \(url)\n\(check)\n")
        return (halt, shell.stderr)
    }

    @Test(.serialized, arguments: Array(cases.indices))
    func eachCheckHoldsOnItsAnswerAndFailsOnTheChangedOne(_ index: Int) async throws {
        let item = Self.cases[index]
        try await RawReplyServer.with(replies: Self.replies) { raw in
            try await TestServer.with { timed in
                let servers = Servers(raw: raw, timed: timed)
                let (held, heldErrors) = await Self.outcome(of: item.check, at: servers.url(item.answer, "/\(index)/holds"))
                #expect(held == nil && heldErrors.isEmpty, "\(item.check) should hold: \(heldErrors)")

                let negated = item.check.replacingOccurrences(of: "expect ", with: "expect not ", options: .anchored)
                let (negatedHalt, _) = await Self.outcome(of: negated, at: servers.url(item.answer, "/\(index)/holds"))
                #expect(Self.isExpectationFailure(negatedHalt), "\(negated) should fail where \(item.check) holds")

                let changed = item.change.applied(to: item.answer)
                let (failed, failedErrors) = await Self.outcome(of: item.check, at: servers.url(changed, "/\(index)/fails"))
                #expect(Self.isExpectationFailure(failed), "\(item.check) should fail on the changed answer (\(item.change)): \(failedErrors)")
            }
        }
    }

    private static func isExpectationFailure(_ halt: Halt?) -> Bool {
        if case .failure(.expectation)? = halt { return true }
        return false
    }

    /// The table names every operator, query source and filter the language has.
    @Test func theTableCoversEveryOperatorSourceAndFilter() throws {
        var operators: Set<String> = []
        var sources: Set<String> = []
        var filters: Set<String> = []
        for item in Self.cases {
            let program = try Parser.parse(SourceFile(name: "<net>", directory: "/", text: item.check))
            guard case .expect(let expectation)? = program.statements.first?.kind else {
                Issue.record("'\(item.check)' is not an expect")
                continue
            }
            operators.insert(expectation.op.rawValue)
            guard case .query(let query) = expectation.subject else { continue }
            sources.insert(Self.sourceName(query.source))
            filters.formUnion(query.filters.map(\.name))
            if case .path(let steps) = query.source { sources.formUnion(steps.map(Self.stepName)) }
        }
        #expect(Set(Expectation.Operator.allCases.map(\.rawValue)).subtracting(operators).isEmpty)
        #expect(Set(QueryFilter.arities.map(\.name)).subtracting(filters).isEmpty)
        let allSources: Set = ["path", "status", "header", "headers", "body", "bytes", "time", "url", "redirects", "version",
                               "cookie", "jsonPath", "key", "index", "all", "slice", "descendants", "filter", "hops", "rawBytes"]
        #expect(allSources.subtracting(sources).isEmpty)
    }

    /// A name for each source: a new case will not compile until it is named here and in the table.
    private static func sourceName(_ source: Query.Source) -> String {
        switch source {
        case .path: "path"
        case .status: "status"
        case .header: "header"
        case .headers: "headers"
        case .body: "body"
        case .bytes: "bytes"
        case .rawBytes: "rawBytes"
        case .time: "time"
        case .url: "url"
        case .redirects: "redirects"
        case .hops: "hops"
        case .version: "version"
        case .cookie: "cookie"
        case .jsonPath: "jsonPath"
        // Not in the table: they read a variable, not the answer the table changes (RunQueriesTests).
        case .value: "value"
        case .variablePath: "variablePath"
        }
    }

    private static func stepName(_ step: Query.PathStep) -> String {
        switch step {
        case .key: "key"
        case .index: "index"
        case .all: "all"
        case .slice: "slice"
        case .descendants: "descendants"
        case .filter: "filter"
        }
    }
}
