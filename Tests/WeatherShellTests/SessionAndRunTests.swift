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
        case .call(let target, let response, let failure, _):
            events.append("call \(target) \(response.map { String($0.status) } ?? "none") \(failure ?? "")")
        case .expect(let result):
            events.append("expect \(result.source) \(result.passed ? "passed" : "failed")")
        case .error(let diagnostic):
            events.append("error \(diagnostic.kind) \(diagnostic.message)")
        }
    }
}

/// Sessions hold what is declared; runs execute over them, report what they do, and proceed at once.
@ShellActor
@Suite struct SessionAndRunTests {
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
