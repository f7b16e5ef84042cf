import Foundation
import Load
import Targets

/// One user of `wsh load`: a session of its own (variables, targets, cookies), whose calls and
/// `expect`s go into the run's stats. It runs the setup once, then the scenario each iteration;
/// a failed `expect` or call ends that iteration, as in a script with bail on.
@ShellActor
final class VirtualUser: RunReporter {
    private let stats: LoadStats
    private(set) var run: Run!
    private var isSetUp = false
    /// Whether the last call failed: its error, reported next, is that call's, already counted.
    private var callFailed = false
    /// Whether the last `expect` failed: an error reported next (one on an answer that is not
    /// JSON) is that check's, already counted as a failed check and no call of its own.
    private var checkFailed = false
    /// Whether an iteration is running: one still running when the run ends is counted as cut off.
    private(set) var isBusy = false
    private let sendsCalls: Bool
    /// Whether the setup is running, and the first error it reported (secrets masked): a setup
    /// that fails for the first user stops the run before it starts.
    private var settingUp = false
    private(set) var setupProblem: Diagnostic?

    /// A user whose calls go to this machine or the allowed hosts; with `sendsCalls` false, one
    /// that only declares (the parent of `--processes` checking the setup: its workers call),
    /// its calls refused unsent and the setup run to its end past them.
    init(stats: LoadStats, from parent: Run, allowedHosts: [String], sendsCalls: Bool = true) {
        self.stats = stats
        self.sendsCalls = sendsCalls
        // Every call a user makes, a request with no target too, goes to this machine or an allowed host.
        let transport: any Transport = sendsCalls ? AllowedHostsTransport(allowed: allowedHosts, action: "load") : UnsentTransport()
        let session = Session(bail: sendsCalls, color: false, transport: transport)
        // The variables and settings the command line gave (--var, --env, script arguments).
        session.variables = parent.session.variables
        session.options = parent.session.options
        session.mask = parent.session.mask
        // A retry would hide the attempt that failed and its latency: each attempt is a call of its own.
        session.retries = false
        let io = ShellIO(stdoutIsTerminal: false, stderrIsTerminal: false, capture: { _, _ in })
        run = Run(session: session, io: io, mode: .script, reporter: self)
    }

    /// When the open model's arrival this iteration serves was due: its first call's latency
    /// counts from then, so that a wait before the call was sent (a busy process, a full
    /// connection pool) is not hidden.
    private var due: ContinuousClock.Instant?

    /// One iteration: the setup first, the first time.
    func iterate(setup: [Program], scenario: Program, due: ContinuousClock.Instant? = nil) async {
        isBusy = true
        self.due = due
        defer { isBusy = false }
        if !isSetUp { await setUp(setup) }
        try? await run.execute(scenario)
    }

    /// The setup alone (the first user's, before the run, to check where its targets go).
    func setUp(_ setup: [Program]) async {
        guard !isSetUp else { return }
        isSetUp = true
        settingUp = true
        for program in setup { try? await run.execute(program) }
        settingUp = false
        // Nobody reads a user's output: answers are not written to it, whatever the setup set.
        run.session.options.output = .quiet
    }

    func report(_ event: RunEvent) {
        switch event {
        case .call(_, _, let response, let failure, _, _):
            callFailed = failure != nil
            checkFailed = false
            let arrival = due
            due = nil
            if let response {
                let failed = failure != nil || response.status >= 400
                let latency = arrival.map { $0.duration(to: .now) } ?? response.latency ?? response.elapsed
                stats.record(latency: latency, error: failed ? "status \(response.status)" : nil)
            } else if !Task.isCancelled {
                stats.recordError(Self.kind(of: failure ?? "no answer"))
            }
        case .expect(let result):
            if result.passed {
                stats.recordPassedExpectation()
            } else {
                let line = result.file.location(of: result.span.start).line
                stats.recordFailedExpectation("\(result.file.name):\(line): \(result.source)")
            }
            checkFailed = !result.passed
        case .error(let diagnostic):
            // A user that only declares has its calls refused: those are not the setup's problem.
            if settingUp, setupProblem == nil, sendsCalls || !callFailed, !Task.isCancelled { setupProblem = diagnostic }
            // A step that failed without a call or a check to show it (an unknown target, an unset
            // variable, a query with nothing there): counted, or a broken scenario would pass.
            if diagnostic.kind != .expectation, !callFailed, !checkFailed, !Task.isCancelled {
                stats.recordError(Self.kind(of: diagnostic.message))
            }
            callFailed = false
            checkFailed = false
        case .warning, .interrupted:
            break
        }
    }

    /// `timeout`, `connection refused`, or the failure as said.
    static func kind(of failure: String) -> String {
        let lowered = failure.lowercased()
        if lowered.contains("timed out") || lowered.contains("timeout") { return "timeout" }
        if lowered.contains("refused") { return "connection refused" }
        if lowered.contains("reset") || lowered.contains("closed") { return "connection dropped" }
        return failure.count > 80 ? String(failure.prefix(80)) + "…" : failure
    }
}

/// The transport of a user that only declares: every call refused before a byte is sent.
struct UnsentTransport: Transport {
    func send<T: TargetType>(_ request: Request, for target: T) async throws(ProviderError) -> Response {
        throw ProviderError.other("not sent: the workers of --processes make the calls", step: .transport, targetName: target.name)
    }
}
