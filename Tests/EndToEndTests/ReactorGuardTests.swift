import Testing
import TestSupport

/// `unless FIELD` skips an action while the field is true: a field holding anything but true or
/// false turned the guard off without a word (reactors tester's L2).
@Suite struct ReactorGuardTests {
    @Test func aGuardFieldWrittenAsAnotherValueIsAParseError() async throws {
        let start = try await WSHProcess.run(["-c", "echo ran; reactor r { state n = 0; action go unless n { echo go } }"])
        #expect(start.status == 2, "\(start)")
        #expect(!start.stdout.contains("ran"), "\(start)")
        #expect(start.stderr.contains("<command line>:1:33: error: 'n' is read by 'unless n' (action 'go'): it holds true or false, not a number"), "\(start)")
        #expect(start.stderr.contains("note: start it as false: state n = false"), "\(start)")

        let emitted = try await WSHProcess.run(["-c", #"reactor r { state busy = false; action a { emit busy = "yes" }; action go unless busy { echo go } }"#])
        #expect(emitted.status == 2, "\(emitted)")
        #expect(emitted.stderr.contains("<command line>:1:56: error: 'busy' is read by 'unless busy' (action 'go'): it holds true or false, not text"), "\(emitted)")
    }

    @Test func aGuardFieldGivenAnotherValueWhenItRunsIsAnError() async throws {
        let argument = try await WSHProcess.run(["-c", "reactor r { state busy = false; action a v { emit busy = $v }; action go unless busy { echo go } }\nr a true\nr a 1\nr go"])
        #expect(argument.status == 3, "\(argument)")
        #expect(argument.stdout == "r | busy=true\n", "\(argument)")
        #expect(argument.stderr.contains("<command line>:1:58: error: 'busy' is read by 'unless busy' (action 'go'): it holds true or false, not a number"), "\(argument)")

        let variable = try await WSHProcess.run(["-c", #"let start = "no"; reactor r { state busy = $start; action go unless busy { echo go } }; r go"#])
        #expect(variable.status == 3, "\(variable)")
        #expect(!variable.stdout.contains("go"), "\(variable)")
        #expect(variable.stderr.contains("error: 'busy' is read by 'unless busy' (action 'go'): it holds true or false, not text"), "\(variable)")

        let booleans = try await WSHProcess.run(["-c", "let f = false; reactor r { state busy = $f; action a v { emit busy = $v }; action go unless busy { echo go } }; r a false; r go"])
        #expect(booleans.status == 0, "\(booleans)")
        #expect(booleans.stdout == "r | busy=false\ngo\n", "\(booleans)")
    }
}
