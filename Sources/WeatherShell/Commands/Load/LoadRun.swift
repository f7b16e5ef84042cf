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

    /// What each user runs once, before its iterations, in the file's order: the setup statements,
    /// and the `let`s before the last of them whose value needs no answer (`let token = env
    /// API_TOKEN`, a text of variables already set), so that a setup statement sees them
    /// (`plugin auth bearer $token`) as it does in `wsh test`. Those `let`s run in each iteration too.
    /// `known`: the variables set before the file runs (`--var`).
    static func setup(of statements: [Statement], known: [String]) -> [Statement] {
        guard let last = statements.lastIndex(where: isSetup) else { return [] }
        var set = Set(known)
        var setup: [Statement] = []
        for statement in statements[...last] {
            if isSetup(statement) {
                setup.append(statement)
            } else if case .assign(let name, let value) = statement.kind, let name = name.literal {
                let words: [Word?] = switch value {
                case .word(let word): [word]
                case .env(let variable, let fallback, _, _): [variable, fallback]
                case .query: []
                }
                let needs = words.compactMap { $0 }.flatMap(\.variableNames)
                guard !words.isEmpty, needs.allSatisfy(set.contains) else { continue }
                set.insert(name)
                setup.append(statement)
            }
        }
        return setup
    }

    static func run(_ options: LoadOptions, _ run: Run, _ interrupts: InterruptHandler) async -> Int32 {
        let io = run.io
        // Each user (each connection of the open model) holds a socket: more than the process may
        // open would fail mid-run, the report too. The most any one process of the run holds:
        let slot = options.worker ?? LoadOptions.Slot(index: 1, count: options.processes)
        let sockets = slot.share(of: options.rate == nil ? options.users : options.connections)
        let what = "\(sockets) " + (options.rate == nil ? "users" : "connections (--connections)") + (options.processes > 1 ? " a process" : "")
        if let problem = DescriptorLimit.problem(sockets: sockets, what: what) {
            io.err("wsh: error: " + problem)
            return FailureKind.usage.exitCode
        }
        // A report that cannot be written is said now, before anything is sent, not after the run;
        // its folders are made only when it is written.
        for report in reports(options) {
            if let reason = BodyFile.checkCreatable(report.file) {
                io.err(report.problem(reason) + "note: the run was not started\n")
                return FailureKind.runtime.exitCode
            }
        }
        // The files: each read and parsed now, so that a mistake stops the run before it starts.
        var programs: [Program] = []
        for path in options.files {
            if let note = notAScenario(path) {
                io.err("wsh: error: \(path) is not a .wsh file: wsh load runs .wsh scenarios\nnote: \(note)\n")
                return FailureKind.usage.exitCode
            }
            let data: Data
            switch ReadableFile.read(path) {
            case .success(let bytes): data = bytes
            case .failure(let problem):
                io.err("wsh: error: cannot read '\(path)': \(problem)\n")
                return FailureKind.usage.exitCode
            }
            let file = SourceFile(name: Run.displayPath(path), directory: Run.directory(of: path), contents: Array(data))
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
            setup = programs.dropLast() + [Program(file: last.file, statements: Self.setup(of: last.statements, known: run.session.variables.names))]
            scenario = Program(file: last.file, statements: last.statements.filter { !isSetup($0) })
            scenarioName = last.file.name
            guard !scenario.statements.isEmpty else {
                io.err("wsh: error: \(last.file.name) has no calls to repeat: a scenario is calls, captures and expects\n")
                return FailureKind.usage.exitCode
            }
        }

        let state = LoadState(options: options)
        // The first user sets up now: where its targets go is checked before anything is sent.
        // With --processes its calls are the workers' to make and count: this one only checks.
        let first = options.processes > 1 ? VirtualUser(stats: LoadStats(), from: run, allowedHosts: options.allowedHosts, ends: nil)
            : state.user(from: run)
        await first.setUp(setup)
        // A setup that fails (a bad setting, a missing file, a call refused) would fail every
        // iteration after it, thousands a second, over a problem said once: said once, here.
        if let problem = first.setupProblem {
            io.err(problem.rendered(mask: { run.mask($0) }) + "note: the setup failed, so the run was not started\n")
            return (problem.kind == .parse ? FailureKind.parse : FailureKind.runtime).exitCode
        }
        // Samples read from memory would pass every threshold without the server seeing a call.
        if first.run.options.stub != .off {
            io.err("wsh: error: wsh load sends real calls, and set stub answers every call from samples\n"
                   + "note: load a server: set stub off (a mock of your own: wsh serve, then set base to it)\n")
            return FailureKind.runtime.exitCode
        }
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
        // A `call` of a target neither the setup nor the scenario declares would fail every iteration the same way.
        let declaredInScenario = Set(scenario.statements.compactMap { statement -> String? in
            switch statement.kind {
            case .target(let declaration): declaration.name.literal
            case .targetFromLast(let name): name.literal
            default: nil
            }
        })
        for statement in scenario.statements {
            guard case .call(let call) = statement.kind, let name = call.target.literal, !declaredInScenario.contains(name) else { continue }
            do {
                _ = try first.run.declaredTarget(call.target)
            } catch var diagnostic as Diagnostic {
                diagnostic.file = scenario.file
                io.err(diagnostic.rendered(mask: { run.mask($0) }) + "note: every iteration would fail on it, so the run was not started\n")
                return FailureKind.runtime.exitCode
            } catch {}
        }
        var retried = first.run.session.pluginSettings.isOn("retry") ? ["plugin retry"] : []
        for declared in first.run.session.targets.all {
            guard let compiled = try? first.run.compiledTarget(declared) else { continue }
            if (compiled.retryCount ?? 0) > 0 { retried.append("target '\(declared.name)' retry \(compiled.retryCount ?? 0)") }
            let base = compiled.baseURL.isEmpty ? first.run.options.base ?? "" : compiled.baseURL
            if let host = Run.refusedHost(base, allowed: options.allowedHosts), !host.isEmpty {
                io.err("wsh: error: will not load \(host) (target '\(declared.name)'): it is not a loopback address\n"
                       + "note: a load test is many requests at once; if \(host) is yours to test, give --allow-host \(host)\n")
                return FailureKind.runtime.exitCode
            }
        }
        if !retried.isEmpty, options.worker == nil {
            io.err("note: retries are off under load (\(retried.joined(separator: ", "))): each attempt is a call, so a 503 counts as an error\n")
        }
        if options.worker != nil { return await work(options, state, first: first, setup: setup, scenario: scenario, parent: run) }
        io.err("wsh load: \(scenarioName): \(state.plan), for \(options.duration.settingText)"
               + (options.ramp > .zero ? " (ramp \(options.ramp.settingText))" : "") + state.totalCalls + "\n")
        io.flush()

        let live = LiveLines(terminal: io.stderrIsTerminal)
        // Workers report each second as it ends: the view of it waits half a second for their lines.
        let ticker = everySecond(after: options.processes > 1 ? .milliseconds(500) : .zero) {
            let snapshot = state.stats.snapshot
            if live.terminal {
                live.draw(LoadView.live(snapshot, elapsed: state.elapsed, duration: state.seconds(options.duration), plan: state.plan))
            } else {
                live.drawPlain(snapshot, upTo: live.secondsShown + 1)
            }
        }
        var workerProblem: String?
        let outcome = await Shell.outcome(interrupts) {
            if options.processes > 1 {
                workerProblem = await LoadProcesses.run(options, startedAt: state.started, stats: state.stats)
            } else {
                await LoadModels.run(options, state, first: first, setup: setup, scenario: scenario, parent: run)
            }
            if Task.isCancelled { state.interrupted = true }
        }
        ticker.cancel()
        if case .failure(.interrupted) = outcome { state.interrupted = true }
        live.clear()
        // In a pipe, a line for each whole second of the run, those the ticker had not reached too.
        if !live.terminal { live.drawPlain(state.stats.snapshot, upTo: Int(min(state.elapsed, state.seconds(options.duration)))) }
        if let workerProblem { io.err("wsh: error: \(workerProblem)\n") }

        // Rates are over the run's duration (or until Ctrl-C), not its wind-down.
        let elapsed = state.interrupted ? state.elapsed : min(state.elapsed, state.seconds(options.duration))
        let snapshot = state.stats.snapshot
        // A failed check fails the run, as any failure sets Locust's exit code, unless a `checks`
        // threshold says what share may fail: a scenario whose expects all failed passed before.
        var thresholds = options.thresholds
        if snapshot.failedChecks > 0, !thresholds.contains(where: { $0.metric == .checks }), let all = try? Threshold("checks>=100%") {
            thresholds.append(all)
        }
        let report = LoadReport(scenario: scenarioName, plan: state.plan, snapshot: snapshot, seconds: elapsed,
                                thresholds: thresholds, interrupted: state.interrupted)
        io.out(summary(report, snapshot: snapshot))
        var code: Int32 = state.interrupted ? FailureKind.interrupted.exitCode : (report.passed ? 0 : FailureKind.expectation.exitCode)
        if workerProblem != nil, code == 0 { code = FailureKind.runtime.exitCode }
        // A host refused at run time (a `let` in the URL, a redirect, a request with no target) is
        // the error a declared one is before the run: nothing was sent to it, and the run did not do its work.
        if let refused = snapshot.errorsByKind.keys.sorted().first(where: { $0.hasPrefix(VirtualUser.refusedHost) }), !state.interrupted {
            io.err("wsh: error: \(refused)\n")
            code = FailureKind.runtime.exitCode
        }
        // Each report that can be written is, whichever other could not be.
        for file in reports(options) {
            let text = file.option == "--report-json" ? report.json : LoadHTMLReport.text(report)
            if let reason = BodyFile.writeReport(text, to: file.file) {
                io.err(file.problem(reason))
                if code == 0 { code = FailureKind.runtime.exitCode }
            }
        }
        if state.interrupted { io.err("wsh: interrupted" + (Interruption.wasTermination ? " (SIGTERM)" : "") + "\n") }
        io.flush()
        return code
    }

    /// A report asked for: its option, the path given and the file written there.
    struct ReportFile {
        var option: String
        var given: String
        var file: String

        /// The error when `file` cannot be written, in the words of the command line.
        func problem(_ reason: String) -> String {
            "wsh: error: \(option) '\(given)': cannot write " + (file == given ? "it" : "'\(file)'") + ": \(reason)\n"
        }
    }

    /// The reports `options` ask for: `--report-json FILE`, and `--report-html DIR` as `DIR/index.html`.
    static func reports(_ options: LoadOptions) -> [ReportFile] {
        (options.jsonReport.map { [ReportFile(option: "--report-json", given: $0, file: $0)] } ?? [])
            + (options.htmlReport.map { [ReportFile(option: "--report-html", given: $0, file: ($0 as NSString).appendingPathComponent("index.html"))] } ?? [])
    }

    /// What to do instead with a file wsh load cannot run as a scenario (a .http file, an OpenAPI
    /// document), which would otherwise be parsed as wsh, every line an error.
    static func notAScenario(_ path: String) -> String? {
        let lowered = path.lowercased()
        if Run.isHTTPFile(path) {
            return "declare its requests in a .wsh scenario with `use http \(path)`, then call them there"
        }
        if [".yaml", ".yml", ".json"].contains(where: lowered.hasSuffix) {
            return "declare its operations in a .wsh file with `use openapi \(path)`, then call them there or give one as TARGET: wsh load FILE.wsh TARGET"
        }
        return nil
    }

    /// A worker's run (`--worker`): its part of the users, what they measured written to stdout
    /// every second and at the end; no plan, view or report of its own (its parent has those).
    /// It stops when its stdin closes; 130 then.
    private static func work(_ options: LoadOptions, _ state: LoadState, first: VirtualUser, setup: [Program], scenario: Program,
                             parent: Run) async -> Int32 {
        let ticker = everySecond { LoadProcesses.report(state.stats) }
        let stopped = await LoadProcesses.runUntilInputCloses {
            await LoadModels.run(options, state, first: first, setup: setup, scenario: scenario, parent: parent)
        }
        ticker.cancel()
        LoadProcesses.report(state.stats)
        return stopped ? FailureKind.interrupted.exitCode : 0
    }

    /// A task that runs `body` each second, after `delay`, until cancelled.
    private static func everySecond(after delay: Duration = .zero, _ body: @escaping @ShellActor () -> Void) -> Task<Void, Never> {
        Task { @ShellActor in
            if delay > .zero { try? await Task.sleep(for: delay) }
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                guard !Task.isCancelled else { break }
                body()
            }
        }
    }

    static func summary(_ report: LoadReport, snapshot: LoadStats.Snapshot) -> String {
        var lines: [String] = []
        let share = report.calls == 0 ? 0 : Double(report.errors) * 100 / Double(report.calls)
        lines.append("wsh load: \(report.calls) call\(report.calls == 1 ? "" : "s") in \(LoadView.formatted(report.seconds, digits: 1))s, \(report.callsPerSecond) calls/s, "
                     + "\(report.errors) errors (\(LoadView.formatted(share, digits: 2))%)" + (report.dropped > 0 ? ", \(report.dropped) arrivals dropped" : "")
                     + (report.stopped > 0 ? ", \(report.stopped) iteration\(report.stopped == 1 ? "" : "s") stopped at the end (their calls in flight not counted)" : "")
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
