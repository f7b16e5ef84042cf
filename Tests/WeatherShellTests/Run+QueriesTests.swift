import Foundation
import TestSupport
import Testing
@testable import WeatherShell

/// Variables where a query takes a value (issue 39.2): a filter's argument, a path's key or
/// index, a variable's own value filtered, and whether a variable is set. Each runs against the
/// loopback server's `/echo`, which answers `{"method":"GET","path":"/echo",...}`.
@Suite struct RunQueriesTests {
    /// What `script` printed after a GET of `/echo`, and how it ended.
    @ShellActor private static func run(_ script: String, on server: TestServer) async -> (halt: Halt?, stdout: String, stderr: String) {
        let shell = ShellHarness()
        let halt = await shell.run("set output quiet\ntarget e { base \(server.baseURL); path /echo }\ncall e\n\(script)\n")
        return (halt, shell.stdout, shell.stderr)
    }

    @Test func aFilterTakesAVariableAsItsArgument() async throws {
        try await TestServer.with { server in
            let result = await Self.run(#"let sep = "/"; let i = 1; print .path | split $sep | nth $i; print .path | replace $sep "-""#, on: server)
            #expect(result.halt == nil, "\(result.stderr)")
            #expect(result.stdout == "echo\n-echo\n")
        }
    }

    @Test func aFilterArgumentOfTheWrongKindIsSaidWhenTheQueryRuns() async throws {
        try await TestServer.with { server in
            let result = await Self.run(#"let i = "one"; print .path | split "/" | nth $i"#, on: server)
            #expect(result.halt != nil)
            #expect(result.stderr.contains("'nth' takes a whole number, not 'one'"), "\(result.stderr)")
        }
    }

    @Test func aVariableIsAPathsKeyOrIndex() async throws {
        try await TestServer.with { server in
            let result = await Self.run(#"let k = "method"; let i = 0; print .$k; print .[$k]; print ."$k"; print .headers[$i] | length"#, on: server)
            #expect(result.halt == nil, "\(result.stderr)")
            #expect(result.stdout == "GET\nGET\nGET\n2\n")
        }
    }

    @Test func aVariableThatIsPartOfAKeyIsAParseError() async throws {
        try await TestServer.with { server in
            let result = await Self.run(#"let k = "thod"; echo ran; print .me$k"#, on: server)
            #expect(result.stdout.isEmpty, "nothing runs: \(result.stdout)")
            #expect(result.stderr.contains("a variable in a query stands for a whole key or index"), "\(result.stderr)")
        }
    }

    @Test func aVariablesValueIsFiltered() async throws {
        try await TestServer.with { server in
            let result = await Self.run(#"let b = "{\"a\": [5, 6]}"; print $b | jsonpath "$.a[1]"; let s = "x-y"; print $s | split "-" | length; expect $s | upper == "X-Y""#, on: server)
            #expect(result.halt == nil, "\(result.stderr)")
            #expect(result.stdout == "6\n2\n")
        }
    }

    /// `| toDate $format` takes the format from a variable; bytes a filter made compare as bytes,
    /// and bytes that were never made do not exist (a review found `exists` always true there, and
    /// text that reads `hex:41` compared as the byte 0x41).
    @Test func aFormatFromAVariableAndBytesFromAFilter() async throws {
        try await TestServer.with { server in
            let result = await Self.run(#"""
                let f = "%d.%m.%Y"
                print "25.11.2026" | toDate $f
                let b = "{\"b64\": \"QWRh\", \"h\": \"aGV4OjQx\"}"
                expect $b | jsonpath "$.b64" | base64Decode == hex:416461
                expect $b | jsonpath "$.nope" | base64Decode not exists
                expect $b | jsonpath "$.h" | base64Decode == "hex:41"
                expect $b | jsonpath "$.h" | base64Decode != hex:41
                """#, on: server)
            #expect(result.halt == nil, "\(result.stderr)")
            #expect(result.stdout == "2026-11-25T00:00:00Z\n")
            let made = await Self.run(#"let b = "{}"; expect $b | jsonpath "$.nope" | base64Decode exists"#, on: server)
            guard case .failure(.expectation)? = made.halt else { Issue.record("\(made.stderr)"); return }
        }
    }

    /// `print "lit" | toDate` and `expect "lit" | toDate` read the same value (`expect` refused it).
    @Test func aLiteralIsFilteredAlikeInPrintAndExpect() async throws {
        try await TestServer.with { server in
            let result = await Self.run(#"print "2026-11-25" | toDate; expect "2026-11-25" | toDate == "2026-11-25T00:00:00Z"; let u = "ab" | upper; echo $u"#, on: server)
            #expect(result.halt == nil, "\(result.stderr)")
            #expect(result.stdout == "2026-11-25T00:00:00Z\nAB\n")
        }
    }

    /// A secret filtered is a secret in its new form: its hex, its base64, its upper case never show
    /// (a review found `print $pw | toHex` printing the secret's hex).
    @Test func aFilteredSecretStaysSecret() async throws {
        EnvironmentOverlay.define("WSH_TEST_FILTERED_SECRET", "hunter2secret")
        try await TestServer.with { server in
            let result = await Self.run("""
                let pw = env WSH_TEST_FILTERED_SECRET
                print $pw | toHex
                print $pw | base64Encode
                let u = $pw | upper
                vars
                echo $u
                expect $pw | toHex == "00"
                """, on: server)
            let all = result.stdout + result.stderr
            for form in ["hunter2secret", "68756e746572327365637265", "aHVudGVyMnNlY3JldA", "HUNTER2SECRET"] {
                #expect(!all.contains(form), "\(form) shows: \(all)")
            }
            #expect(result.stdout.contains("u = ***"), "\(result.stdout)")
        }
    }

    /// What a filter makes from a server's echo of a secret is a secret too (a tester found
    /// `print .x | upper` showing it), but not what the masked echo shows as it is: a key, or a
    /// part beside the secret, also after an earlier filter made a secret of a part that held it.
    @Test func aFilteredEchoOfASecretStaysSecretAndWhatItShowsStays() async throws {
        EnvironmentOverlay.define("WSH_TEST_ECHOED_SECRET", "k3y-ABCDEF")
        try await TestServer.with { server in
            let result = await Self.run("""
                let k = env WSH_TEST_ECHOED_SECRET
                call e > /dev/null
                target q { base \(server.baseURL); path /echo; query appid=$k; header "X-Note:say \\"hi\\"" }
                call q > /dev/null
                print .query | upper
                print .query | base64Encode
                print .query | split "-"
                print .query | replace "-" "_"
                print .query | split "=" | nth 0
                print . | keys
                print . | jsonpath "$.headers[?@[0]=='X-Note'][1]"
                print .query | split "=" | nth 1 | split "-" | nth 0
                echo k3y
                """, on: server)
            #expect(result.halt == nil, "\(result.stderr)")
            // The parts split made are secrets by then; the replacement is masked whole, not as `***_***`.
            #expect(result.stdout.hasPrefix("***\n***\n[\"***\",\"***\"]\n***\nappid\n"), "\(result.stdout)")
            #expect(result.stdout.contains(#""query""#) && result.stdout.contains(#"say \"hi\""#), "\(result.stdout)")
            // A part shorter than 6 is not masked on its own: it would hide every `k3y` after it.
            #expect(result.stdout.hasSuffix("\nk3y\nk3y\n"), "\(result.stdout)")
            for form in ["K3Y", "ABCDEF", "YXBwaWQ9azN5LUFCQ0RFRg", "k3y_", "k3y-"] {
                #expect(!result.stdout.contains(form), "\(form) shows: \(result.stdout)")
            }
        }
    }

    @Test func existsAsksWhetherAVariableIsSet() async throws {
        try await TestServer.with { server in
            let set = await Self.run("let x = 1; expect $x exists; expect $nope not exists", on: server)
            #expect(set.halt == nil, "\(set.stderr)")
            let unset = await Self.run("expect $nope exists", on: server)
            guard case .failure(.expectation)? = unset.halt else { Issue.record("\(String(describing: unset.halt))"); return }
            #expect(unset.stderr.contains("no variable 'nope' is set"), "\(unset.stderr)")
            let compared = await Self.run("expect $nope == 1", on: server)
            #expect(compared.stderr.contains("undefined variable 'nope'"), "a comparison still needs the variable: \(compared.stderr)")
        }
    }

    /// `$name.key` is a path into the variable's value, as jq reads it: a newcomer found
    /// `expect $show.no_such_field exists` holding, the word read as the value's text with
    /// `.no_such_field` after it. A JSON text held as a string is read as JSON; a secret's parts stay secret.
    @Test func aVariableFollowedByAPathIsAPathIntoItsValue() async throws {
        EnvironmentOverlay.define("WSH_TEST_PATH_SECRET", #"{"user":"ada","token":"s3cr3t-path-token"}"#)
        try await TestServer.with { server in
            let found = await Self.run("""
                let e = .
                print $e.method
                print $e.headers[0] | length
                let raw = body
                print $raw.path
                let k = "method"
                expect $e.$k == "GET"
                expect $e.no_such_field not exists
                expect $e.headers[*].typo not exists
                let s = env WSH_TEST_PATH_SECRET
                print $s.token
                """, on: server)
            #expect(found.halt == nil, "\(found.stderr)")
            #expect(found.stdout == "GET\n2\n/echo\n***\n", "\(found.stdout)")
            for check in ["expect $e.no_such_field exists", #"expect $e.no_such_field contains "GET""#, "expect $e.no_such_field isString",
                          #"expect $e.headers[*].typo != "x""#] {
                let failed = await Self.run("let e = .\n\(check)", on: server)
                guard case .failure(.expectation)? = failed.halt else { Issue.record("\(check) held: \(failed.stderr)"); continue }
                #expect(failed.stderr.contains("not found"), "\(failed.stderr)")
            }
        }
    }

    /// An empty node list reached nothing: no comparison holds on it, `!=` and `not` included (a
    /// newcomer found `expect ..nothere != 3` and `expect .items[*].typo != "none"` passing).
    @Test func anEmptyNodeListHoldsNoCheck() async throws {
        try await TestServer.with { server in
            for check in [#"expect ..nothere != 3"#, #"expect $..nothere != 3"#, #"expect not ..nothere == 3"#, #"expect ..nothere not contains 1"#,
                          #"expect headers X-Nope != "a""#, #"expect .headers[*].typo != "none""#, "expect .headers[*].typo isList",
                          "expect ..nothere != [1]", "expect ..nothere isCollection"] {
                let result = await Self.run(check, on: server)
                guard case .failure(.expectation)? = result.halt else { Issue.record("\(check) held"); continue }
                #expect(result.stderr.contains("the query reached no value: its list is empty"), "\(check): \(result.stderr)")
            }
            let held = await Self.run("expect ..nothere not exists; expect .headers[*].typo == []; expect ..nothere isEmpty; expect redirects isEmpty; expect ..method != \"POST\"",
                                      on: server)
            #expect(held.halt == nil, "\(held.stderr)")
        }
    }

    /// A name no `.http` file can use either is refused, saying what a name is; `my-id`, a `.http`
    /// file's `{{my-id}}`, is taken.
    @Test func anArgumentNameThatIsNoVariableNameIsSaidSo() {
        guard case .failure(let error) = ScriptArgument.parse("1id=1") else { Issue.record("1id=1 was taken"); return }
        #expect(error.message == "'1id' is not a variable name: a name is ASCII letters, digits and _, not starting with a digit "
                + "(a .http file's may also hold - and .)")
        guard case .success(let dashed) = ScriptArgument.parse("my-id=1") else { Issue.record("my-id=1 was refused"); return }
        #expect(dashed.name == "my-id")
    }

    /// After `$s` or a quoted word a `|` is a filter's, as after `.s`: a misspelt name is an
    /// unknown filter. `print $s | lenght` printed `abc | lenght`, and `expect` said "expected one value".
    @ShellActor
    @Test func aMisspeltFilterAfterAVariableIsAnUnknownFilter() async {
        for (line, column) in [("print $s | lenght", 10), ("expect $s | lenght == 3", 11), ("let y = $s | lenght", 12), (#"print "abc" | lenght"#, 13)] {
            let shell = ShellHarness()
            await shell.run(#"let s = "abc""#)
            let halt = await shell.run(line)
            #expect(halt != nil, "\(line)")
            #expect(shell.stderr.contains("<test>:1:\(column): error: unknown filter 'lenght'"), "\(shell.stderr)")
            #expect(shell.stderr.contains("did you mean 'length'?"), "\(shell.stderr)")
            #expect(shell.stdout.isEmpty, "\(shell.stdout)")
        }
        let shell = ShellHarness()
        await shell.run(#"let s = "abc"; print $s | length"#)
        #expect(shell.stdout == "3\n", "\(shell.stdout)")
    }
}
