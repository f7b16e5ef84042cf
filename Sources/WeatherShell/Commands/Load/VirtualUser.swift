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
    /// When the run ends: nothing is sent from then on, and what happens from then on is not counted.
    private let ends: ContinuousClock.Instant?
    /// Whether the end of the run cut this iteration short: a call sent or answered past it, or a
    /// statement stopped there. What follows in the iteration is not counted, and it counts as stopped.
    private var cutOff = false
    private let sendsCalls: Bool
    /// Whether the setup is running, and the first error it reported (secrets masked): a setup
    /// that fails for the first user stops the run before it starts.
    private var settingUp = false
    private(set) var setupProblem: Diagnostic?

    /// A user whose calls go to this machine or the allowed hosts until `ends`; with `ends` nil,
    /// one that only declares (the parent of `--processes` checking the setup: its workers call),
    /// its calls refused unsent and the setup run to its end past them.
    init(stats: LoadStats, from parent: Run, allowedHosts: [String], ends: ContinuousClock.Instant?) {
        self.stats = stats
        self.ends = ends
        sendsCalls = ends != nil
        // Every call a user makes, a request with no target too, goes to this machine or an allowed
        // host, and none goes out once the run has ended, however late the event loop gets to it.
        let transport: any Transport = ends.map { AllowedHostsTransport(allowed: allowedHosts, action: "load", next: RunEndTransport(ends: $0)) }
            ?? UnsentTransport()
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
        self.due = due
        cutOff = false
        if !isSetUp { await setUp(setup) }
        try? await run.execute(scenario)
        if cutOff { stats.recordStopped(1) }
    }

    /// Whether `instant` is past the end of the run: then the iteration is cut off there.
    private func isPastTheEnd(_ instant: ContinuousClock.Instant) -> Bool {
        guard let ends, instant >= ends else { return false }
        cutOff = true
        return true
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
        // Past the end of the run nothing counts: the rest of the iteration is cut off.
        guard !cutOff else { return }
        switch event {
        case .call(_, _, let response, let failure, _, _):
            callFailed = failure != nil
            checkFailed = false
            let arrival = due
            due = nil
            // A call counts in the second its answer came, though a busy event loop may get to it later.
            let answered = response?.answeredAt ?? .now
            guard !isPastTheEnd(answered) else { return }
            if let response {
                let failed = failure != nil || response.status >= 400
                let latency = arrival.map { $0.duration(to: answered) } ?? response.latency ?? response.elapsed
                stats.record(latency: latency, error: failed ? "status \(response.status)" : nil, at: answered)
            } else if !Task.isCancelled {
                stats.recordError(Self.kind(of: failure ?? "no answer"), at: answered)
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
            if diagnostic.kind != .expectation, !callFailed, !checkFailed, !Task.isCancelled, !isPastTheEnd(.now) {
                stats.recordError(Self.kind(of: diagnostic.message))
            }
            callFailed = false
            checkFailed = false
        case .interrupted:
            // Stopped by the end of the run (by Ctrl-C, the run is over and nothing is stopped).
            _ = isPastTheEnd(.now)
        case .warning:
            break
        }
    }

    /// How a call to a host that is not loopback, nor allowed, begins its refusal (``AllowedHostsTransport``).
    static let refusedHost = "will not load "

    /// `timeout`, `connection refused`, or the failure as said; a refused host whole, with its `--allow-host` advice.
    static func kind(of failure: String) -> String {
        if failure.hasPrefix(refusedHost) { return failure }
        let lowered = failure.lowercased()
        if lowered.contains("timed out") || lowered.contains("timeout") { return "timeout" }
        if lowered.contains("refused") { return "connection refused" }
        if lowered.contains("reset") || lowered.contains("closed") { return "connection dropped" }
        return failure.count > 80 ? String(failure.prefix(80)) + "…" : failure
    }
}

/// The transport of `wsh load`'s users under their host check: nothing goes out once the run has
/// ended. A busy event loop got to the end late and went on sending, and the answers were counted
/// in seconds past the run's.
struct RunEndTransport: Transport {
    let ends: ContinuousClock.Instant
    var next: any Transport = SessionEventLoop.transport

    func send<T: TargetType>(_ request: Request, for target: T) async throws(ProviderError) -> Response {
        guard ContinuousClock.now < ends else { throw ProviderError.other("not sent: the run has ended", step: .transport, targetName: target.name) }
        return try await next.send(request, for: target)
    }
}

/// The transport of a user that only declares: every call refused before a byte is sent.
struct UnsentTransport: Transport {
    func send<T: TargetType>(_ request: Request, for target: T) async throws(ProviderError) -> Response {
        throw ProviderError.other("not sent: the workers of --processes make the calls", step: .transport, targetName: target.name)
    }
}
