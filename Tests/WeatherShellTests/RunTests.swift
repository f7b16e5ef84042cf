import Foundation
import Testing
import TestSupport
@testable import WeatherShell

/// Keeps every event a run reports, in order.
@ShellActor
final class RecordingReporter: RunReporter {
    var events: [String] = []

    func report(_ event: RunEvent) {
        switch event {
        case .call(let target, _, let response, let failure, _, _):
            events.append("call \(target) \(response.map { String($0.status) } ?? "none") \(failure ?? "")")
        case .expect(let result):
            events.append("expect \(result.source) \(result.passed ? "passed" : "failed")")
        case .error(let diagnostic):
            events.append("error \(diagnostic.kind) \(diagnostic.message)")
        case .warning(let text):
            events.append("warning \(text)")
        case .interrupted(let file, let span):
            events.append("interrupted \(file.location(of: span.start).line)")
        }
    }
}

/// Sessions hold what is declared; runs execute over them, report what they do, and proceed at once.
@ShellActor
@Suite struct RunTests {
    private static func harness(over session: Session, mode: Run.Mode = .interactive) -> (Run, ShellHarness.Captured) {
        let captured = ShellHarness.Captured()
        let io = ShellIO(stdoutIsTerminal: false, stderrIsTerminal: false, capture: { text, isError in
            if isError { captured.stderr += text } else { captured.stdout += text }
        })
        return (Run(session: session, io: io, mode: mode), captured)
    }

    /// A loopback server for `body`, shut down afterwards.
    private static func withServer(_ body: @ShellActor (TestServer) async throws -> Void) async throws {
        let server = try await TestServer.start(routes: [:])
        do {
            try await body(server)
        } catch {
            try? await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }

    @Test func theReporterSeesEveryCallExpectAndError() async throws {
        try await Self.withServer { server in
            let (run, _) = Self.harness(over: Session(bail: false, color: false))
            let reporter = RecordingReporter()
            run.reporter = reporter
            try await run.execute(text: """
                target ok { base \(server.baseURL); path /echo }
                target gone { base \(server.baseURL); path /status/404; validate 2xx }
                call ok
                expect status == 200
                expect status == 201
                call gone
                target closed { base http://127.0.0.1:1; path /x }
                call closed
                """, file: "<test>", directory: ".")
            #expect(reporter.events.count == 8)
            #expect(reporter.events[0] == "call ok 200 ")
            #expect(reporter.events[1] == "expect status == 200 passed")
            #expect(reporter.events[2] == "expect status == 201 failed")
            #expect(reporter.events[3] == "error expectation expectation failed: status == 201")
            #expect(reporter.events[4].hasPrefix("call gone 404 "))
            #expect(reporter.events[5].hasPrefix("error runtime "))
            #expect(reporter.events[6].hasPrefix("call closed none "))
            #expect(reporter.events[7].hasPrefix("error runtime "))
        }
    }

    @Test func twoRunsOverOneSessionShareDeclarationsButNotTheirLastResponse() async throws {
        try await Self.withServer { server in
            let session = Session(bail: false, color: false)
            let (waiting, waitingOutput) = Self.harness(over: session)
            let (other, otherOutput) = Self.harness(over: session)
            try await waiting.execute(text: """
                target hold { base \(server.baseURL); path /never }
                target quick { base \(server.baseURL); path /echo }
                let shared = yes
                """, file: "<test>", directory: ".")
            let held = Task { @ShellActor in try await waiting.execute(text: "call hold", file: "<a>", directory: ".") }
            // The first run is parked in its call: wait for the server to have it, not for a time
            // (60 s: a bound only a failure reaches).
            let deadline = ContinuousClock.now + .seconds(60)
            while server.hits("/never") == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
            #expect(server.hits("/never") == 1, "the first run's call reached the server")
            try await other.execute(text: "call quick\nexpect status == 200\necho $shared", file: "<b>", directory: ".")
            #expect(otherOutput.stdout.hasSuffix("yes\n"))
            #expect(otherOutput.stderr.isEmpty)
            #expect(other.lastResponse?.status == 200)
            #expect(waiting.lastResponse == nil)
            held.cancel()
            _ = await held.result
            #expect(waitingOutput.stderr.contains("interrupted"))
            #expect(waiting.lastResponse == nil)
        }
    }

    @Test func runsOverSeparateSessionsKeepTheirOwnVariablesAndTargets() async throws {
        let (first, _) = Self.harness(over: Session(bail: false, color: false))
        let (second, secondOutput) = Self.harness(over: Session(bail: false, color: false))
        try await first.execute(text: "let city = Suwon\ntarget t { base http://127.0.0.1:9 }", file: "<a>", directory: ".")
        try await second.execute(text: "echo $city\nshow t", file: "<b>", directory: ".")
        #expect(secondOutput.stderr.contains("undefined variable 'city'"))
        #expect(secondOutput.stderr.contains("unknown target 't'"))
        #expect(first.session.variables["city"]?.value == "Suwon")
    }

    @Test func anActionsParametersAreItsOwnAndItsCallIsItsSendersLastResponse() async throws {
        try await Self.withServer { server in
            let (run, output) = Self.harness(over: Session(bail: false, color: false))
            try await run.execute(text: """
                let city = Seoul
                target quick { base \(server.baseURL); path /echo }
                reactor r {
                  state seen = none
                  action look city { call quick; emit seen = $city }
                }
                r look Busan
                echo $city
                expect status == 200
                """, file: "<test>", directory: ".")
            #expect(output.stdout.contains("seen=\"Busan\""))
            #expect(output.stdout.hasSuffix("Seoul\n"))
            #expect(output.stderr.isEmpty)
        }
    }

    @Test func anActionReadsItsSendersLastResponseAndItsVariablesStayItsOwn() async throws {
        try await Self.withServer { server in
            let (run, output) = Self.harness(over: Session(bail: false, color: false))
            try await run.execute(text: """
                let city = Seoul
                let error = none
                target quick { base \(server.baseURL); path /echo }
                reactor r {
                  state seen = none
                  action look city {
                    expect status == 200
                    unset city
                    let city = Daegu
                    let error = mine
                    set output raw
                    emit seen = $city
                  }
                }
                call quick
                r look Busan
                echo $city $error
                """, file: "<test>", directory: ".")
            #expect(output.stderr.isEmpty)
            #expect(output.stdout.contains("seen=\"Daegu\""))
            #expect(output.stdout.hasSuffix("Seoul none\n"))
            #expect(run.session.options.output == nil)
        }
    }

    @Test func aFailureInsideAnActionDecidesTheSendersExitCode() async throws {
        let (run, _) = Self.harness(over: Session(bail: false, color: false))
        try await run.execute(text: """
            reactor r {
              state n = 0
              action go { source /nonexistent/wsh-test-file.wsh }
            }
            r go
            """, file: "<test>", directory: ".")
        #expect(run.firstFailure == .runtime)
    }

    @Test func anExpectThatCannotBeEvaluatedIsReportedAsFailedAndErrorsAreMasked() async throws {
        let (run, _) = Self.harness(over: Session(bail: false, color: false))
        let reporter = RecordingReporter()
        run.reporter = reporter
        try await run.execute(text: """
            expect status == 200
            let token = env WSH_TEST_NEVER_SET_VARIABLE or hunter2-secret-value
            echo $nope$token
            use $token
            """, file: "<test>", directory: ".")
        #expect(reporter.events.first == "expect status == 200 failed")
        #expect(reporter.events.count == 4)
        #expect(!reporter.events.joined().contains("hunter2"))
        #expect(reporter.events.last?.contains("***") == true)
    }
}

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

    /// `source /dev/null` said "cannot read", where sh's `. /dev/null` does nothing.
    @Test func sourcingAnEmptyDeviceDoesNothing() async {
        let shell = ShellHarness()
        let halt = await shell.run("source /dev/null\necho after")
        #expect(halt == nil && shell.stdout == "after\n", "\(shell.stderr)")
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

    /// A reactor's name alone prints its state, as `weather` alone did and `counter` alone did not.
    @Test func aReactorsNameAlonePrintsItsState() async {
        let shell = ShellHarness()
        let halt = await shell.run("reactor quote { state a = 1; action refresh { emit a = 2 } }\ncounter\nquote")
        #expect(halt == nil, "\(shell.stderr)")
        #expect(shell.stdout == "counter | value=0 loading=false\nquote | a=1\n", "\(shell.stdout)")
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
        #expect(run.completions(for: "history ") == ["show", "replay", "export"])
        #expect(run.completions(for: "history export ") == ["har"])
        #expect(run.completions(for: "cookies ") == ["clear", "save", "load"])
        #expect(run.completions(for: "serve start --c") == ["--cors"])
        #expect(run.completions(for: "s").contains("source"))
        #expect(run.completions(for: "echo $ci") == ["$city", "$cities"])
        #expect(run.completions(for: "echo x${ci") == ["x${city}", "x${cities}"])
        #expect(run.completions(for: "set ba") == ["base", "bail"])
        #expect(run.completions(for: "set output r") == ["raw"])
        #expect(run.completions(for: "echo 1; exi") == ["exit"])
        #expect(run.completions(for: "ex") == ["exit", "expect", "export"])
        #expect(run.completions(for: "export ") == ["http", "locust"])
        #expect(run.completions(for: "import ") == ["curl", "har"])
        #expect(run.completions(for: "use ").contains("postman"))
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
