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

    init(stats: LoadStats, from parent: Run) {
        self.stats = stats
        let session = Session(bail: true, color: false)
        // The variables and settings the command line gave (--var, --env, script arguments).
        session.variables = parent.session.variables
        session.options = parent.session.options
        session.mask = parent.session.mask
        let io = ShellIO(stdoutIsTerminal: false, stderrIsTerminal: false, capture: { _, _ in })
        run = Run(session: session, io: io, mode: .script, reporter: self)
    }

    /// One iteration: the setup first, the first time.
    func iterate(setup: [Program], scenario: Program) async {
        if !isSetUp {
            isSetUp = true
            for program in setup { try? await run.execute(program) }
        }
        try? await run.execute(scenario)
    }

    /// The setup alone (the first user's, before the run, to check where its targets go).
    func setUp(_ setup: [Program]) async {
        guard !isSetUp else { return }
        isSetUp = true
        for program in setup { try? await run.execute(program) }
    }

    func report(_ event: RunEvent) {
        switch event {
        case .call(_, let response, let failure, _):
            if let response {
                let failed = failure != nil || response.status >= 400
                stats.record(latency: response.elapsed, error: failed ? "status \(response.status)" : nil)
            } else if !Task.isCancelled {
                stats.recordError(Self.kind(of: failure ?? "no answer"))
            }
        case .expect(let result) where !result.passed:
            let line = result.file.location(of: result.span.start).line
            stats.recordFailedExpectation("\(result.file.name):\(line): \(result.source)")
        default:
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
