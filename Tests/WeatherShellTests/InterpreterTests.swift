import Foundation
import TestSupport
import Testing
@testable import WeatherShell

@ShellActor
@Suite struct InterpreterTests {
    /// A fresh directory of the test's own.
    static func temporaryDirectory(_ purpose: String) throws -> URL {
        try ScratchDirectory.make("wsh-\(purpose)")
    }

    @Test func letAndEchoExpandAtRunTime() async {
        let shell = ShellHarness()
        await shell.run("let x = 2; echo \"x is $x\"; let x = 3; echo ${x}0")
        #expect(shell.stdout == "x is 2\n30\n")
        #expect(shell.stderr.isEmpty)
    }

    @Test func undefinedVariableIsARuntimeErrorWithSuggestion() async {
        let shell = ShellHarness()
        let halt = await shell.run("let city = Suwon\necho $cty")
        guard case .failure(let kind) = halt else { Issue.record("expected a failure"); return }
        #expect(kind == .runtime)
        #expect(shell.stderr.contains("<test>:2:6: error: undefined variable 'cty'"))
        #expect(shell.stderr.contains("did you mean '$city'?"))
    }

    @Test func envWithoutDefaultNamesTheMissingVariable() async {
        // A name no other process or test sets, so the test needs no unsetenv (the secret itself is
        // read in EnvironmentTests, by a child process given its environment).
        let name = "WSH_TEST_UNSET_\(UUID().uuidString.replacingOccurrences(of: "-", with: "_"))"
        let shell = ShellHarness()
        await shell.run("let k = env \(name)")
        #expect(shell.stderr.contains("environment variable '\(name)' is not set"))
        let withDefault = ShellHarness()
        await withDefault.run("let k = env \(name) or demo; vars")
        #expect(withDefault.stdout == "k = ***  (env \(name))\n")
    }

    @Test func unsetRemovesAVariable() async {
        let shell = ShellHarness(mode: .interactive)
        await shell.run("let a = 1\nunset a\necho $a")
        #expect(shell.stderr.contains("undefined variable 'a'"))
    }

    @Test func bailOffKeepsGoingAndRemembersTheFirstFailure() async {
        let shell = ShellHarness()
        await shell.run("set bail off\necho $missing\necho after")
        #expect(shell.stdout == "after\n")
        #expect(shell.run.firstFailure == .runtime)
    }

    @Test func bailOnStopsAtTheFirstError() async {
        let shell = ShellHarness()
        let halt = await shell.run("echo before\nnosuch\necho after")
        #expect(shell.stdout == "before\n")
        guard case .failure(.runtime) = halt else { Issue.record("expected a runtime failure"); return }
    }

    @Test func setValidatesOptionValues() async {
        let shell = ShellHarness(mode: .interactive)
        await shell.run("set output fancy\nset timeout 2s\nset stub 300ms\nset bail sometimes")
        #expect(shell.stderr.contains("invalid value 'fancy' for 'output'"))
        #expect(shell.stderr.contains("invalid value 'sometimes' for 'bail'"))
        #expect(shell.run.options.timeout == .seconds(2))
        #expect(shell.run.options.stub == .delayed(.milliseconds(300)))
    }

    @Test func exitStopsWithItsCode() async {
        let shell = ShellHarness()
        let halt = await shell.run("echo a; exit 7; echo b")
        guard case .exit(7) = halt else { Issue.record("expected exit 7"); return }
        #expect(shell.stdout == "a\n")
    }

    @Test func sourceNestsRelativeToTheSourcingFileAndRefusesCycles() async throws {
        let directory = try Self.temporaryDirectory("source")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("lib"), withIntermediateDirectories: true)
        try "echo in-a\nsource lib/b.wsh".write(to: directory.appendingPathComponent("a.wsh"), atomically: true, encoding: .utf8)
        try "echo in-b\nsource ../a.wsh".write(to: directory.appendingPathComponent("lib/b.wsh"), atomically: true, encoding: .utf8)
        let shell = ShellHarness()
        let halt = await shell.run("source a.wsh", directory: directory.path)
        #expect(shell.stdout == "in-a\nin-b\n")
        #expect(shell.stderr.contains("is already being sourced"))
        #expect(shell.stderr.contains("cycle:"))
        guard case .failure(.runtime) = halt else { Issue.record("expected a runtime failure"); return }
    }

    @Test func sourcedFileWithParseErrorRunsNothing() async throws {
        let directory = try Self.temporaryDirectory("parse")
        try "echo first\necho \"broken".write(to: directory.appendingPathComponent("bad.wsh"), atomically: true, encoding: .utf8)
        let shell = ShellHarness()
        await shell.run("source bad.wsh", directory: directory.path)
        #expect(shell.stdout.isEmpty)
        #expect(shell.stderr.contains("bad.wsh:2:6: error: unterminated string"))
    }

    @Test func helpListsCommandsAndSuggests() async {
        let shell = ShellHarness(mode: .interactive)
        await shell.run("help\nhelp call\nhelp cal")
        #expect(shell.stdout.contains("  call     call a target"))
        #expect(shell.stdout.contains("usage: call NAME"))
        #expect(shell.stderr.contains("did you mean 'call'?"))
        #expect(shell.stdout.contains("send an OPTIONS request") && shell.stdout.contains("send a GET request"))
        // A curl command line pasted as it is: the note names import curl, not a guess.
        await shell.run("curl https://example.com/x")
        #expect(shell.stderr.contains("note: to make a target of a curl command: import curl curl URL ...; or send it as: get URL"), "\(shell.stderr)")
    }

    @Test func builtInReactorsCompleteFromTheirRegistryEntry() async {
        let shell = ShellHarness(mode: .interactive)
        await shell.run("reactor quote { state a = 1; action refresh { emit a = 2 } }")
        let run = shell.run
        #expect(run.completions(for: "weather use o") == ["open-meteo", "openweathermap"])
        #expect(run.completions(for: "weather f") == ["forecast"])
        #expect(run.completions(for: "counter ") == ["increase", "decrease"])
        #expect(run.completions(for: "quote r") == ["refresh"])
        #expect(run.completions(for: "state ") == ["counter", "quote", "weather"])
        #expect(run.completions(for: "wea") == ["weather"])
        #expect(run.completions(for: "use open") == ["open-meteo", "openweathermap", "openapi"])
    }

    @Test func completionOfCommandsVariablesOptionsAndPaths() async throws {
        let shell = ShellHarness(mode: .interactive)
        await shell.run("let city = Suwon; let cities = 2")
        let run = shell.run
        #expect(run.completions(for: "se") == ["serve", "set"])
        #expect(run.completions(for: "serve s") == ["start", "stop"])
        #expect(run.completions(for: "history sh") == ["show"])
        #expect(run.completions(for: "history ") == ["show", "replay"])
        #expect(run.completions(for: "cookies ") == ["clear", "save", "load"])
        #expect(run.completions(for: "serve start --c") == ["--cors"])
        #expect(run.completions(for: "s").contains("source"))
        #expect(run.completions(for: "echo $ci") == ["$city", "$cities"])
        #expect(run.completions(for: "echo x${ci") == ["x${city}", "x${cities}"])
        #expect(run.completions(for: "set ba") == ["base", "bail"])
        #expect(run.completions(for: "set output r") == ["raw"])
        #expect(run.completions(for: "echo 1; exi") == ["exit"])
        #expect(run.completions(for: "ex") == ["exit", "expect"])
        let files = try Self.temporaryDirectory("completion")
        for name in ["host-a.wsh", "host-b.wsh", ".host-hidden.wsh", "other.wsh"] {
            try "".write(to: files.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(at: files.appendingPathComponent("hosts"), withIntermediateDirectories: false)
        #expect(run.completions(for: "source \(files.path)/host") ==
                ["\(files.path)/host-a.wsh", "\(files.path)/host-b.wsh", "\(files.path)/hosts/"])
        await shell.run("target t {\n base http://x\n query latitude longitude=1\n}")
        #expect(run.completions(for: "call ") == ["t"])
        #expect(run.completions(for: "call t lat") == ["latitude="])
        #expect(run.completions(for: "call t latitude=1 ") == ["longitude="])
        #expect(run.completions(for: "show t ") == ["--curl", "--httpie"])
        #expect(run.completions(for: "call t latitude=${city} lon") == ["longitude="])
    }

    @Test func diagnosticsCutVeryLongLinesAroundTheCaret() async {
        let shell = ShellHarness(mode: .interactive)
        await shell.run(String(repeating: "a", count: 1_000_000) + " $nope")
        let lines = shell.stderr.split(separator: "\n")
        #expect(lines.count >= 3)
        #expect(lines.allSatisfy { $0.count < 300 })
        #expect(shell.stderr.contains("unknown command"))
    }
}
