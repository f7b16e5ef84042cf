import Foundation
import Fuzzing
import Synchronization
import Targets

extension Run {
    /// `fuzz [TARGET...] [options]`: calls the targets with generated inputs and checks the
    /// answers (docs/fuzzing.md). Refuses hosts other than loopback unless allowed, leaves out
    /// targets that write unless allowed, says its plan first, shows a progress line at a
    /// terminal, prints what it found (each failure once, shrunk, with a wsh and a curl
    /// reproducer), writes the reports asked for, and fails (exit 4) when it found anything.
    /// Ctrl-C stops it with the report of what it found so far.
    func fuzz(_ options: FuzzOptions, at span: SourceSpan?) async throws {
        guard self.options.stub == .off else {
            throw failure("fuzz sends real calls, and set stub answers every call from samples", at: span,
                          notes: ["fuzz a server: set stub off (a mock of your own: serve start, then set base to it)"])
        }
        let names = options.targets.isEmpty ? session.targets.names : options.targets
        guard !names.isEmpty else {
            throw failure("no targets to fuzz: declare some first (use openapi FILE, use http FILE, target NAME { ... })", at: span)
        }
        var fuzzed: [FuzzTarget] = []
        var leftOut: [String] = []
        var unusable: [String] = []
        for name in names {
            guard let declared = session.targets[name] else {
                var notes: [String] = []
                if let guess = Suggestion.closest(to: name, in: session.targets.names) { notes.append("did you mean '\(guess)'?") }
                throw failure("unknown target '\(name.shortened())'", at: span, notes: notes)
            }
            let target = try fuzzTarget(declared)
            try checkFuzzHost(target, allowed: options.allowedHosts, at: span)
            if let problem = target.operation.schemaProblems.first {
                io.err("wsh fuzz: left out \(name): \(mask(problem))\n")
                unusable.append(name)
                continue
            }
            if target.operation.writes, !options.allowWrites, !isServedHere(target.base) {
                leftOut.append("\(target.operation.method) \(name)")
                continue
            }
            fuzzed.append(target)
        }
        if !leftOut.isEmpty {
            io.err("wsh fuzz: left out, as they write: \(leftOut.joined(separator: ", ")) (give --allow-writes to send them)\n")
        }
        guard !fuzzed.isEmpty else {
            throw failure("nothing to fuzz: " + (unusable.isEmpty ? "every target named writes; give --allow-writes to send them"
                                                                  : "no target named can be fuzzed (said above)"), at: span)
        }

        // A report that cannot be written is said now, not after a long run.
        for path in [options.junitReport, options.jsonReport].compactMap({ $0 }).map(resolvePath) {
            if let reason = BodyFile.checkWritable(path) { throw failure("cannot write '\(Self.displayPath(path))': \(reason)", at: span) }
        }
        let seed = options.seed ?? UInt64.random(in: 0...UInt64.max)
        var checks = options.checks.isEmpty ? Set(Oracle.allCases) : Set(options.checks)
        if !options.stateful { checks.subtract([.location, .afterDelete]) }
        let settings = FuzzSettings(calls: options.calls ?? 100 * fuzzed.count, seed: seed, duration: options.duration, jobs: options.jobs,
                                    rate: options.rate, stateful: options.stateful, checks: checks)
        let bases = Set(fuzzed.map { redaction.maskedURL($0.base) }).sorted()
        io.err("wsh fuzz: \(fuzzed.count) target\(fuzzed.count == 1 ? "" : "s") at \(bases.joined(separator: ", ")), "
               + "up to \(settings.calls) calls\(options.duration.map { " or \($0.settingText)" } ?? ""), seed \(seed)\n")
        io.flush()

        let byName = Dictionary(fuzzed.map { ($0.operation.name, $0) }, uniquingKeysWith: { first, _ in first })
        let campaign = FuzzCampaign(operations: fuzzed.map(\.operation), settings: settings)
        let line = ProgressLine(total: settings.calls, shown: io.stderrIsTerminal)
        // The line's clock goes on while a slow call is out.
        let ticker = line.shown ? Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                // Cancelled while asleep: the run is over, and the line cleared or about to be.
                guard !Task.isCancelled else { break }
                line.tick()
            }
        } : nil
        let timeout = options.timeout
        let answered = AnswerSeen()
        // What the targets declare as credentials (a typed Authorization, an appid default), not
        // what the fuzzer makes up for a field named so: a reproducer must send its input as it was.
        var credentials = Redaction()
        for target in fuzzed {
            let request = (try? await provider().preparedRequest(target.target))
                ?? Request(method: target.target.method, url: target.base, headers: target.target.headers)
            credentials = credentials.including(secretsOf: request)
        }
        let declared = credentials
        let result = await campaign.run(send: { request in
            guard let target = byName[request.operation] else { return FuzzOutcome(failure: "no such target") }
            let outcome = await self.fuzzCall(request, target, timeout: timeout, allowed: options.allowedHosts, declared: declared)
            if outcome.status != nil { answered.seen.withLock { $0 = true } }
            return outcome
        }, progress: { line.show($0) })
        ticker?.cancel()
        line.clear()
        // No answer at all is no server there, not a defect of one.
        if result.stop != .interrupted, !answered.seen.withLock({ $0 }), let first = result.failures.first(where: { $0.oracle == .noAnswer }) {
            // A server that takes its time is there: the note for it is the time-out, not the address.
            let note = first.summary == "timed out"
                ? "the server answers more slowly than --timeout allows: give it longer, as --timeout 30s"
                : "is the server running? point the targets at it with: set base URL"
            throw failure("nothing answered at \(bases.joined(separator: ", ")): \(declared.mask(mask(first.detail)))", at: span,
                          notes: [note])
        }
        let report = FuzzReport(result: result, seed: seed, targets: byName, timeout: timeout, run: self, declared: declared)
        io.out(report.text)
        if let path = options.junitReport { try writeOutput(report.junit, to: resolvePath(path), at: span) }
        if let path = options.jsonReport { try writeOutput(report.json, to: resolvePath(path), at: span) }
        if result.stop == .interrupted { throw CancellationError() }
        if !result.failures.isEmpty {
            throw failure("fuzzing found \(result.failures.count) failure\(result.failures.count == 1 ? "" : "s") (seed \(seed))", at: span,
                          notes: ["run again with --seed \(seed) to repeat it"], kind: .expectation)
        }
    }

    /// Fuzzing a host that is not this machine sends it thousands of requests: only loopback, or a
    /// host `--allow-host` names.
    private func checkFuzzHost(_ target: FuzzTarget, allowed: [String], at span: SourceSpan?) throws {
        guard let host = Self.refusedHost(target.base, allowed: allowed) else { return }
        guard !host.isEmpty else {
            throw failure("target '\(target.operation.name)' has no base URL to fuzz", at: span,
                          notes: ["declare `base` in the target, or give one for all with `set base URL`"])
        }
        throw failure("will not fuzz \(host) (target '\(target.operation.name)'): it is not this machine", at: span,
                      notes: ["fuzzing sends many requests, some of them malformed; if \(host) is yours to test, give --allow-host \(host)"])
    }

    /// The host of `base` as written when it is neither this machine (localhost, 127.0.0.0/8 as an
    /// address, ::1) nor among `allowed`, in any case; empty when `base` has no host; nil when it may
    /// be sent to. As written, so that a secret in it is masked as the user's value.
    nonisolated static func refusedHost(_ base: String, allowed: [String]) -> String? {
        guard let written = URL(string: base)?.host, !base.isEmpty else { return "" }
        let host = written.lowercased()
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        // 127.0.0.0/8 as an address, not a name that starts so (127.0.0.1.nip.io).
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        let loopbackIPv4 = octets.count == 4 && octets.allSatisfy { UInt8($0) != nil } && octets[0] == "127"
        let loopback = bare == "localhost" || bare == "::1" || loopbackIPv4
        let allowed = allowed.map { $0.lowercased() }
        return loopback || allowed.contains(bare) || allowed.contains(host) ? nil : written
    }

    /// Whether `base` is this session's own mock server (`serve start`), which writes may reach.
    private func isServedHere(_ base: String) -> Bool {
        guard let server = session.server, let url = URL(string: base), let port = url.port else { return false }
        return port == server.port && ["127.0.0.1", "localhost", "::1", server.configuration.host].contains(url.host ?? "")
    }
}

/// Whether any fuzz call got an answer.
final class AnswerSeen: Sendable {
    let seen = Mutex(false)
}

/// The progress line at a terminal, redrawn at most ten times a second after a call, and each
/// second by ``tick()`` while a slow one is out: calls, failures, rate, time.
final class ProgressLine: Sendable {
    private let total: Int
    let shown: Bool
    private let started = ContinuousClock.now
    private let state = Mutex<(drawn: ContinuousClock.Instant?, calls: Int, failures: Int)>((nil, 0, 0))

    init(total: Int, shown: Bool) {
        self.total = total
        self.shown = shown
    }

    func show(_ progress: FuzzProgress) {
        guard shown else { return }
        let now = ContinuousClock.now
        let due = state.withLock { state in
            state.calls = progress.calls
            state.failures = progress.failures
            if let last = state.drawn, now - last < .milliseconds(100) { return false }
            state.drawn = now
            return true
        }
        if due { draw() }
    }

    func tick() {
        state.withLock { $0.drawn = ContinuousClock.now }
        draw()
    }

    private func draw() {
        let (calls, failures) = state.withLock { ($0.calls, $0.failures) }
        let seconds = (ContinuousClock.now - started).milliseconds / 1000
        let rate = seconds > 0 ? Int(Double(calls) / seconds) : 0
        FileHandleOutput.standardError("\r\u{1B}[Kfuzz: \(calls)/\(total) calls, \(failures) failure\(failures == 1 ? "" : "s"), \(rate) calls/s, \(Int(seconds))s")
    }

    func clear() {
        if shown { FileHandleOutput.standardError("\r\u{1B}[K") }
    }
}

/// `fuzz`: call targets with generated inputs and check the answers
struct FuzzShellCommand: ShellCommand {
    static let entry = CommandCatalog.Entry(name: "fuzz", usage: FuzzOptions.usage,
                                            summary: "call targets with generated inputs, valid and invalid, and report answers that break their declaration")

    static func completions(after previous: [String], word: String, in session: CompletionSnapshot) -> [String]? {
        if previous.last == "--check" { return Oracle.allCases.map(\.rawValue) }
        if word.hasPrefix("-") { return FuzzOptions.flags.filter { !previous.contains($0) || $0 == "--check" || $0 == "--allow-host" } }
        // After an option that takes a value, the value; else a target not named yet.
        if let last = previous.last, FuzzOptions.flags.contains(last), !["--stateful", "--allow-writes"].contains(last) { return [] }
        return session.targetNames.filter { !previous.contains($0) }
    }

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        let words = try arguments.map { try run.expand($0).text }
        switch FuzzOptions.parse(words) {
        case .success(let options): try await run.fuzz(options, at: command.span)
        case .failure(let problem):
            throw run.failure(problem.message, at: arguments[problem.index].span, notes: ["usage: \(FuzzOptions.usage)"], kind: .usage)
        }
    }
}
