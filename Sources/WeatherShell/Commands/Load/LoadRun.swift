import Foundation
import Load
import Targets

/// `wsh load`: parses the scenario, checks where its targets go, states the plan, runs the
/// users (closed model) or the arrivals (open model) until the duration is over or Ctrl-C,
/// with a live view at a terminal and a plain line a second in a pipe, then prints the summary,
/// judges the thresholds and writes the reports (docs/load.md).
@ShellActor
enum LoadRun {
    /// The statements of a scenario file that each user runs once, before its iterations:
    /// declarations and settings. Everything else (calls, captures, `expect`s) is the iteration.
    static func isSetup(_ statement: Statement) -> Bool {
        switch statement.kind {
        case .target, .set, .plugin, .reactor, .source: true
        case .command(let name, _): ["use", "import", "env"].contains(name.literal ?? "")
        default: false
        }
    }

    static func run(_ given: LoadOptions, _ run: Run, _ interrupts: InterruptHandler) async -> Int32 {
        let io = run.io
        // A worker of `--processes` runs its share, and tells its parent what it measured.
        let options = given.worker.map { LoadProcesses.share(of: given, for: $0) } ?? given
        if options.worker != nil { LoadProcesses.stopWhenInputCloses() }
        // The files: each read and parsed now, so that a mistake stops the run before it starts.
        var programs: [Program] = []
        for path in options.files {
            let data: Data
            switch ReadableFile.read(path) {
            case .success(let bytes): data = bytes
            case .failure(let problem):
                io.err("wsh: error: cannot read '\(path)': \(problem)\n")
                return FailureKind.usage.exitCode
            }
            let file = SourceFile(name: Run.displayPath(path), directory: Run.directory(of: path), text: String(decoding: data, as: UTF8.self))
            do {
                programs.append(try Parser.parse(file))
            } catch {
                io.err(error.rendered(mask: { run.mask($0) }))
                return FailureKind.parse.exitCode
            }
        }
        var setup: [Program] = []
        let scenario: Program
        let scenarioName: String
        if let target = options.target {
            setup = programs
            let file = SourceFile(name: "<load>", directory: FileManager.default.currentDirectoryPath, text: "call " + CommandLineRequest.word(target))
            guard let program = try? Parser.parse(file) else { return FailureKind.usage.exitCode }
            scenario = program
            scenarioName = "call \(target)"
        } else {
            guard let last = programs.last else { return FailureKind.usage.exitCode }
            setup = programs.dropLast() + [Program(file: last.file, statements: last.statements.filter(isSetup))]
            scenario = Program(file: last.file, statements: last.statements.filter { !isSetup($0) })
            scenarioName = last.file.name
            guard !scenario.statements.isEmpty else {
                io.err("wsh: error: \(last.file.name) has no calls to repeat: a scenario is calls, captures and expects\n")
                return FailureKind.usage.exitCode
            }
        }

        let state = LoadState(options: options)
        // The first user sets up now: where its targets go is checked before anything is sent.
        let first = state.user(from: run)
        await first.setUp(setup)
        if let target = options.target {
            guard let declared = first.run.session.targets[target] else {
                let guess = Suggestion.closest(to: target, in: first.run.session.targets.names).map { "note: did you mean '\($0)'?\n" } ?? ""
                io.err("wsh: error: unknown target '\(target)'\n" + guess)
                return FailureKind.runtime.exitCode
            }
            // A call that cannot be made (a required parameter) would fail the same way every time.
            do {
                _ = try await first.run.provider().preparedRequest(try first.run.compiledTarget(declared), arguments: CallArguments())
            } catch {
                io.err("wsh: error: call \(target) cannot be made as it is: \(run.mask((error as? ProviderError)?.description(masking: run.redaction) ?? "\(error)"))\n"
                       + "note: give its parameters in a scenario: a .wsh file with `call \(target) NAME=VALUE`, run as wsh load FILE.wsh\n")
                return FailureKind.runtime.exitCode
            }
        }
        for declared in first.run.session.targets.all {
            guard let compiled = try? first.run.compiledTarget(declared) else { continue }
            let base = compiled.baseURL.isEmpty ? first.run.options.base ?? "" : compiled.baseURL
            if let host = Run.refusedHost(base, allowed: options.allowedHosts), !host.isEmpty {
                io.err("wsh: error: will not load \(host) (target '\(declared.name)'): it is not a loopback address\n"
                       + "note: a load test is many requests at once; if \(host) is yours to test, give --allow-host \(host)\n")
                return FailureKind.runtime.exitCode
            }
        }
        if options.worker != nil { return await work(options, state, interrupts, first: first, setup: setup, scenario: scenario, parent: run) }
        io.err("wsh load: \(scenarioName): \(state.plan), for \(options.duration.settingText)"
               + (options.ramp > .zero ? " (ramp \(options.ramp.settingText))" : "") + state.totalCalls + "\n")
        io.flush()

        // A report that cannot be written is said now, not after the run; its folder is made.
        for path in [options.jsonReport, options.htmlReport.map { ($0 as NSString).appendingPathComponent("index.html") }].compactMap({ $0 }) {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            if let reason = BodyFile.checkWritable(path) {
                io.err("wsh: error: cannot write the report '\(path)': \(reason)\n")
                return FailureKind.runtime.exitCode
            }
        }
        let live = LiveLines(terminal: io.stderrIsTerminal)
        let ticker = Task { @ShellActor in
            var second = 0
            // Workers report each second as it ends: the view of it waits for their lines.
            if options.processes > 1 { try? await Task.sleep(for: .milliseconds(500)) }
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                guard !Task.isCancelled else { break }
                let snapshot = state.stats.snapshot
                if live.terminal {
                    live.draw(LoadView.live(snapshot, elapsed: state.elapsed, duration: state.seconds(options.duration), plan: state.plan))
                } else {
                    live.draw([LoadView.plain(snapshot, second: second)])
                }
                second += 1
            }
        }
        var workerProblem: String?
        let outcome = await Shell.outcome(interrupts) {
            if options.processes > 1 {
                workerProblem = await LoadProcesses.run(options, stats: state.stats)
            } else {
                await runUsers(options, state, first: first, setup: setup, scenario: scenario, parent: run)
            }
            if Task.isCancelled { state.interrupted = true }
        }
        ticker.cancel()
        if case .failure(.interrupted) = outcome { state.interrupted = true }
        live.clear()
        if let workerProblem { io.err("wsh: error: \(workerProblem)\n") }

        // Rates are over the run's duration (or until Ctrl-C), not its wind-down.
        let elapsed = state.interrupted ? state.elapsed : min(state.elapsed, state.seconds(options.duration))
        let snapshot = state.stats.snapshot
        let report = LoadReport(scenario: scenarioName, plan: state.plan, snapshot: snapshot, seconds: elapsed,
                                thresholds: options.thresholds, interrupted: state.interrupted)
        io.out(summary(report, snapshot: snapshot))
        var code: Int32 = state.interrupted ? FailureKind.interrupted.exitCode : (report.passed ? 0 : FailureKind.expectation.exitCode)
        if workerProblem != nil, code == 0 { code = FailureKind.runtime.exitCode }
        if let path = options.jsonReport, let reason = BodyFile.write(Data(report.json.utf8), to: path) {
            io.err("wsh: error: cannot write '\(path)': \(reason)\n")
            if code == 0 { code = FailureKind.runtime.exitCode }
        }
        if let directory = options.htmlReport {
            let path = (directory as NSString).appendingPathComponent("index.html")
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            if let reason = BodyFile.write(Data(LoadHTMLReport.text(report).utf8), to: path) {
                io.err("wsh: error: cannot write '\(path)': \(reason)\n")
                if code == 0 { code = FailureKind.runtime.exitCode }
            }
        }
        if state.interrupted { io.err("wsh: interrupted\n") }
        io.flush()
        return code
    }

    /// The users of this process, in the open or the closed model.
    private static func runUsers(_ options: LoadOptions, _ state: LoadState, first: VirtualUser, setup: [Program], scenario: Program,
                                 parent: Run) async {
        if let rate = options.rate {
            await openModel(rate: rate, options: options, state: state, first: first, setup: setup, scenario: scenario, parent: parent)
        } else {
            await closedModel(options: options, state: state, first: first, setup: setup, scenario: scenario, parent: parent)
        }
    }

    /// A worker's run: its users, what they measured written to stdout every second and at the
    /// end; no plan, view or report of its own (its parent has those).
    private static func work(_ options: LoadOptions, _ state: LoadState, _ interrupts: InterruptHandler, first: VirtualUser,
                             setup: [Program], scenario: Program, parent: Run) async -> Int32 {
        let ticker = Task { @ShellActor in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                guard !Task.isCancelled else { break }
                LoadProcesses.report(state.stats)
            }
        }
        let outcome = await Shell.outcome(interrupts) {
            await runUsers(options, state, first: first, setup: setup, scenario: scenario, parent: parent)
        }
        ticker.cancel()
        LoadProcesses.report(state.stats)
        if case .failure(.interrupted) = outcome { return FailureKind.interrupted.exitCode }
        return 0
    }

    /// N users, each iterating until the end; with a ramp, user i starts at i/N of it. At the
    /// end, what is still in flight is stopped, not waited for.
    private static func closedModel(options: LoadOptions, state: LoadState, first: VirtualUser, setup: [Program], scenario: Program, parent: Run) async {
        let deadline = state.started + options.duration
        await withDiscardingTaskGroup { group in
            for index in 0..<options.users {
                let delay = options.ramp * Double(index) / Double(options.users)
                group.addTask {
                    if delay > .zero { try? await Task.sleep(until: state.started + delay, clock: .continuous) }
                    await iterateUntil(deadline, user: index == 0 ? first : nil, state: state, setup: setup, scenario: scenario, parent: parent)
                }
            }
            try? await Task.sleep(until: deadline, clock: .continuous)
            await windDown(state, from: deadline)
            group.cancelAll()
        }
    }

    /// After the end: iterations still running get `grace` to finish (and count); those that do
    /// not are counted as cut off, then stopped.
    private static func windDown(_ state: LoadState, from deadline: ContinuousClock.Instant) async {
        let end = deadline + state.grace
        while ContinuousClock.now < end, !Task.isCancelled, state.users.contains(where: \.isBusy) {
            try? await Task.sleep(for: .milliseconds(20))
        }
        guard !Task.isCancelled else { return }
        for _ in state.users.filter(\.isBusy) {
            state.stats.recordError("cut off: no answer by the end of the run and \(state.grace.settingText) more")
        }
    }

    /// Arrivals at `rate` a second (rising linearly over the ramp), each an iteration by a free
    /// user (a new one when none is free), at most `connections` at once: an arrival past that is
    /// dropped and counted, never delayed, so a slow server cannot slow the arrivals.
    private static func openModel(rate: Double, options: LoadOptions, state: LoadState, first: VirtualUser, setup: [Program],
                                  scenario: Program, parent: Run) async {
        let deadline = state.started + options.duration
        let ramp = state.seconds(options.ramp)
        let pool = UserPool(first)
        await withDiscardingTaskGroup { group in
            var arrival = 0
            while !Task.isCancelled {
                // Arrival k's time: k/R after the ramp; during it the rate is R·t/ramp, so the k-th comes at sqrt(2·ramp·k/R).
                let k = Double(arrival)
                let offset = ramp > 0 && k < rate * ramp / 2 ? (2 * ramp * k / rate).squareRoot() : k / rate + ramp / 2
                let due = state.started + .nanoseconds(Int64(offset * 1_000_000_000))
                guard due < deadline else { break }
                if due > .now { try? await Task.sleep(until: due, clock: .continuous) }
                guard !Task.isCancelled else { break }
                arrival += 1
                guard pool.busy < options.connections else {
                    state.stats.recordDropped()
                    continue
                }
                let user = pool.take() ?? state.user(from: parent)
                group.addTask {
                    await iterateOnce(user, pool: pool, setup: setup, scenario: scenario)
                }
            }
            if !Task.isCancelled {
                try? await Task.sleep(until: deadline, clock: .continuous)
                await windDown(state, from: deadline)
            }
            group.cancelAll()
        }
    }

    /// A closed-model user's loop: `user`, or a new one, iterates until `deadline`.
    private static func iterateUntil(_ deadline: ContinuousClock.Instant, user: VirtualUser?, state: LoadState, setup: [Program],
                                     scenario: Program, parent: Run) async {
        let user = user ?? state.user(from: parent)
        while ContinuousClock.now < deadline, !Task.isCancelled {
            await user.iterate(setup: setup, scenario: scenario)
        }
    }

    /// An open-model arrival: one iteration, then the user is free again.
    private static func iterateOnce(_ user: VirtualUser, pool: UserPool, setup: [Program], scenario: Program) async {
        await user.iterate(setup: setup, scenario: scenario)
        pool.give(back: user)
    }

    static func summary(_ report: LoadReport, snapshot: LoadStats.Snapshot) -> String {
        var lines: [String] = []
        let share = report.calls == 0 ? 0 : Double(report.errors) * 100 / Double(report.calls)
        lines.append("wsh load: \(report.calls) calls in \(LoadView.formatted(report.seconds, digits: 1))s, \(report.callsPerSecond) calls/s, "
                     + "\(report.errors) errors (\(LoadView.formatted(share, digits: 2))%)" + (report.dropped > 0 ? ", \(report.dropped) arrivals dropped" : "")
                     + (report.interrupted ? ", interrupted" : ""))
        lines.append("latency  " + LoadView.percentiles(snapshot.latencies))
        lines += LoadView.live(snapshot, elapsed: report.seconds, duration: report.seconds, plan: report.plan).dropFirst(3)
        if !report.thresholds.isEmpty {
            lines.append("thresholds:")
            for result in report.thresholds {
                lines.append("  \(result.passed ? "✔" : "✘") \(result.threshold)  (\(result.valueText))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The open model's users not in an iteration now.
@ShellActor
final class UserPool {
    private var idle: [VirtualUser]
    private(set) var busy = 0

    init(_ first: VirtualUser) {
        idle = [first]
    }

    /// A free user, counted busy; nil when a new one is needed (it is counted busy too).
    func take() -> VirtualUser? {
        busy += 1
        return idle.popLast()
    }

    func give(back user: VirtualUser) {
        busy -= 1
        idle.append(user)
    }
}

/// A run's plan and what it has done so far.
@ShellActor
final class LoadState {
    let options: LoadOptions
    let started = ContinuousClock.now
    let stats: LoadStats
    var interrupted = false

    /// Every user made so far.
    private(set) var users: [VirtualUser] = []
    /// How long iterations still running at the end get to finish.
    let grace: Duration

    init(options: LoadOptions) {
        self.options = options
        stats = LoadStats(started: started)
        grace = min(.seconds(5), options.duration)
    }

    /// A new user, its calls going where the run may send them.
    func user(from parent: Run) -> VirtualUser {
        let user = VirtualUser(stats: stats, from: parent, allowedHosts: options.allowedHosts)
        users.append(user)
        return user
    }

    var elapsed: Double { seconds(ContinuousClock.now - started) }

    func seconds(_ duration: Duration) -> Double {
        duration.milliseconds / 1000
    }

    /// `10 users` or `200 arrivals/s`.
    var plan: String {
        let processes = options.processes > 1 ? " in \(options.processes) processes" : ""
        if let rate = options.rate { return "\(LoadView.formatted(rate, digits: 1)) arrivals/s (at most \(options.connections) at once)" + processes }
        return "\(options.users) user\(options.users == 1 ? "" : "s")" + processes
    }

    /// `, 2000 arrivals` for the open model, whose count is known.
    var totalCalls: String {
        guard let rate = options.rate else { return "" }
        let arrivals = Int(rate * (seconds(options.duration) - seconds(options.ramp) / 2))
        return ", about \(arrivals) iterations"
    }
}

/// The live view's lines on stderr: at a terminal redrawn in place, in a pipe one line a second.
@ShellActor
final class LiveLines {
    let terminal: Bool
    private var drawn = 0

    init(terminal: Bool) {
        self.terminal = terminal
    }

    func draw(_ lines: [String]) {
        var text = ""
        if terminal {
            if drawn > 0 { text += "\u{1B}[\(drawn)A" }
            text += lines.map { "\r\u{1B}[K" + $0 }.joined(separator: "\n") + "\n"
            // Lines left from a longer frame are cleared.
            if drawn > lines.count { text += String(repeating: "\u{1B}[K\n", count: drawn - lines.count) + "\u{1B}[\(drawn - lines.count)A" }
            drawn = lines.count
        } else {
            text = lines.joined(separator: "\n") + "\n"
        }
        FileHandleOutput.standardError(text)
    }

    func clear() {
        guard terminal, drawn > 0 else { return }
        FileHandleOutput.standardError("\u{1B}[\(drawn)A" + String(repeating: "\r\u{1B}[K\n", count: drawn) + "\u{1B}[\(drawn)A")
        drawn = 0
    }
}
