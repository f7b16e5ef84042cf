import Foundation
import TestSupport
import Testing
@testable import WeatherShell

/// The ways a check could pass on a wrong answer (issue 43): an `until` round that ends the loop,
/// a word read as text, a missing value under `not`. Each runs against the loopback server's
/// `/echo`, which answers GET with `{"method":"GET",...}`.
@Suite struct ExpectStrictnessTests {
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

    @Test func aBareWordIsNoQuery() {
        #expect(parseError("expect staus != 200")?.contains("'staus' is not a query\ndid you mean 'status'?") == true)
        #expect(parseError("if bdoy contains x { echo }")?.contains("did you mean 'body'?") == true)
        #expect(parseError("expect @.json.id exists")?.hasPrefix("'@.json.id' is not a query") == true)
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
