import Foundation
import Testing
import TestSupport

/// The built binary, run as a user runs it: stdin, -c and script files; stdout, stderr and exit codes.
@Suite struct CommandLineTests {
    @Test func pipedStatementsPrintOnlyTheirOutput() async throws {
        let result = try await WSHProcess.run([], stdin: "let x = 2; echo \"x is $x\"\n")
        #expect(result.stdout == "x is 2\n")
        #expect(result.stderr.isEmpty)
        #expect(result.status == 0)
        #expect(try await WSHProcess.run([], stdin: "echo hi\n").stdout == "hi\n")
    }

    @Test func undefinedVariableExitsThreeWithACaret() async throws {
        let result = try await WSHProcess.run(["-c", "echo $nope"])
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
        <command line>:1:6: error: undefined variable 'nope'
           echo $nope
                ^~~~~
        note: no variables are set; set one with 'let nope = VALUE'

        """)
    }

    @Test func unknownCommandSuggestsTheClosest() async throws {
        let result = try await WSHProcess.run(["-c", "ech hi"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("<command line>:1:1: error: unknown command 'ech'"))
        #expect(result.stderr.contains("note: did you mean 'echo'?"))
    }

    @Test func parseErrorOnLineSevenRunsNothing() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let marker = directory.appendingPathComponent("ran.txt")
        // Running this file writes the marker: a stubbed call's body redirected to ran.txt.
        try "target t { base http://127.0.0.1:1; path /a; sample @a.json }\ncall t > ran.txt\n"
            .write(to: directory.appendingPathComponent("side-effect.wsh"), atomically: true, encoding: .utf8)
        try "{}".write(to: directory.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        let statements = """
        source side-effect.wsh
        echo line 2
        # 3
        # 4
        # 5
        # 6

        """
        let script = directory.appendingPathComponent("broken.wsh")
        try (statements + "echo \"missing quote").write(to: script, atomically: true, encoding: .utf8)
        let result = try await WSHProcess.run(["--stub", "broken.wsh"], directory: directory)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("broken.wsh:7:6: error: unterminated string"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "the sourced file did not run")

        // Without its broken line the same script runs, and the marker appears.
        let whole = directory.appendingPathComponent("whole.wsh")
        try statements.write(to: whole, atomically: true, encoding: .utf8)
        let control = try await WSHProcess.run(["--stub", "whole.wsh"], directory: directory)
        #expect(control.status == 0, "\(control.stderr)")
        #expect(control.stdout == "line 2\n")
        #expect(FileManager.default.fileExists(atPath: marker.path), "the side effect leaves its marker")
    }

    @Test func scriptArgumentsBecomeVariables() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let script = directory.appendingPathComponent("hello.wsh")
        try "echo \"hello $name from $city\"".write(to: script, atomically: true, encoding: .utf8)
        let result = try await WSHProcess.run([script.path, "name=Ann", "city=Suwon Si"])
        #expect(result.stdout == "hello Ann from Suwon Si\n")
        #expect(result.status == 0)
        #expect(try await WSHProcess.run([script.path, "oops"]).status == 1)
        // A script that is not there is said before its arguments (`wsh fuzzy x.wsh`).
        let missing = try await WSHProcess.run(["fuzzy", "x.wsh"], directory: directory)
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("wsh: error: cannot read 'fuzzy': no such file or directory\n"), "\(missing.stderr)")
    }

    /// An argument that stands in for `let token = env API_TOKEN` (a CI job's `token=$SECRET`)
    /// was shown in clear by `echo`, the logger and a failed check's notes.
    @Test func anArgumentForAnEnvVariableIsASecret() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try """
            let token = env WSH_E2E_UNSET_TOKEN
            let city = env WSH_E2E_UNSET_CITY public
            echo $token $city
            set bail off
            expect $token == "other"
            """.write(to: directory.appendingPathComponent("s.wsh"), atomically: true, encoding: .utf8)
        let result = try await WSHProcess.run(["s.wsh", "token=arg-secret-77", "city=Suwon"], directory: directory)
        #expect(result.stdout == "*** Suwon\n", "\(result.stdout)")
        #expect(result.status == 4)
        #expect(!result.stderr.contains("arg-secret-77"), "\(result.stderr)")
    }

    /// A `:=` value from a secret that is not JSON: the error quoted the secret's character and
    /// its column (`column 8: unexpected 'Q'`).
    @Test func aSecretThatIsNotJSONIsNotQuotedInTheError() async throws {
        let environment = ["WSH_E2E_JSON_SECRET": "1234567Q89"]
        let adHoc = try await WSHProcess.run(["-c", "let t = env WSH_E2E_JSON_SECRET\npost http://127.0.0.1:9/x n:=$t"], environment: environment)
        #expect(adHoc.status == 3)
        #expect(adHoc.stderr.contains("'n:=' is not valid JSON: the value holds a secret, so where it fails is not shown"), "\(adHoc.stderr)")
        let nested = try await WSHProcess.run(["-c", "let t = env WSH_E2E_JSON_SECRET\npost http://127.0.0.1:9/x a[n]:=$t"], environment: environment)
        #expect(nested.stderr.contains("is not valid JSON: the value holds a secret"), "\(nested.stderr)")
        let target = try await WSHProcess.run(["-c", "let t = env WSH_E2E_JSON_SECRET\ntarget x { base http://127.0.0.1:9; json n:=1 }\ncall x n:=$t"],
                                              environment: environment)
        #expect(target.stderr.contains("parameter 'n' of target 'x' is not valid JSON: the value holds a secret"), "\(target.stderr)")
        for result in [adHoc, nested, target] {
            #expect(!result.stderr.contains("'Q'") && !result.stderr.contains("column"), "\(result.stderr)")
        }
        // Text typed as it is keeps its place: it is no secret.
        let typed = try await WSHProcess.run(["-c", "post http://127.0.0.1:9/x n:=12Q"])
        #expect(typed.stderr.contains("line 1, column 3: unexpected 'Q'"), "\(typed.stderr)")
    }

    @Test func exitCodesFollowTheLanguage() async throws {
        #expect(try await WSHProcess.run(["-c", "exit 5"]).status == 5)
        #expect(try await WSHProcess.run(["-c", "echo \"open"]).status == 2)
        #expect(try await WSHProcess.run(["--no-such-flag"]).status == 1)
        #expect(try await WSHProcess.run(["/no/such/file.wsh"]).status == 1)
        #expect(try await WSHProcess.run(["-c", "exit"]).status == 0)
    }

    @Test func bailOffRunsToTheEndAndFailsWithTheFirstError() async throws {
        let result = try await WSHProcess.run(["-c", "set bail off; echo $a; echo after"])
        #expect(result.stdout == "after\n")
        #expect(result.status == 3)
    }

    @Test func dashReadsStatementsFromStdinWithLineNumbers() async throws {
        let result = try await WSHProcess.run(["-"], stdin: "echo one\n\necho $two\necho three\n")
        #expect(result.stdout == "one\n")
        #expect(result.stderr.hasPrefix("<stdin>:3:6: error: undefined variable 'two'"))
        #expect(result.status == 3)
    }

    @Test func versionAndHelp() async throws {
        let version = try await WSHProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.split(separator: ".").count == 3)
        // The version is the newest section of CHANGELOG.md.
        let changelog = try String(contentsOf: CallTests.repository.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }.map { String($0.dropFirst(3).prefix { $0 != " " }) }
        #expect(newest == version.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "CHANGELOG.md's newest section: \(newest ?? "none")")
        let help = try await WSHProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("-c <STATEMENTS>"))
    }

    @Test func badInputNeverCrashes() async throws {
        let seed = SeededGenerator.seed()
        var generator = SeededGenerator(seed: seed)
        let replay = "seed \(seed); replay with \(SeededGenerator.seedVariable)=\(seed)"
        let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let inputs = [
            String(decoding: bytes, as: UTF8.self),
            String(decoding: [0xC3, 0x28, 0xA0, 0xA1, 0x0A, 0xFF], as: UTF8.self),
            String(repeating: "x", count: 1_000_000) + "\n",
            "target x {\n", "}\n", "echo \"a\n", "echo ${\n", "reactor r { action a { emit } }\n",
        ]
        for (index, input) in inputs.enumerated() {
            let result = try await WSHProcess.run([], stdin: input)
            let which = index == 0 ? "the random input (\(replay))" : "input \(index) of \(input.utf8.count) bytes"
            #expect([0, 2, 3].contains(result.status), "status \(result.status) for \(which)")
            #expect(result.stderr.utf8.count < 10_000, "\(result.stderr.utf8.count) bytes on stderr for \(which)")
        }
    }

    @Test func initFileDoesNotRunForPipedInput() async throws {
        // Piped input is not the interactive prompt: init.wsh does not run there (PromptTests shows
        // that it runs at the prompt, and that --norc skips it).
        let config = try WSHProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: config.appendingPathComponent("wsh"), withIntermediateDirectories: true)
        try "echo from-init".write(to: config.appendingPathComponent("wsh/init.wsh"), atomically: true, encoding: .utf8)
        let result = try await WSHProcess.run([], stdin: "echo hi\n", environment: ["XDG_CONFIG_HOME": config.path])
        #expect(result.stdout == "hi\n")
    }
}
