import Foundation

/// `wsh test`: runs each file in a worker process of its own, `--jobs` at a time, prints a line
/// per file as it finishes and the summary, writes the reports, and gives the exit code.
///
/// Workers are processes, not tasks: every session of a wsh process runs on one event loop
/// (``SessionEventLoop``), so files in one process would take turns on one core. A process per
/// file also gives each its own variables, targets and cookies with nothing shared to leak.
enum TestRunner {
    static func run(_ settings: TestSettings) async -> Int32 {
        let files: [String]
        do {
            files = try selectedFiles(settings)
        } catch {
            FileHandleOutput.standardError("wsh test: error: \(error.description)\n")
            return FailureKind.usage.exitCode
        }
        // After the files are chosen: `--durations` may read the JSON report this run replaces.
        if let problem = TestReports.prepare(settings) {
            FileHandleOutput.standardError("wsh test: error: \(problem)\n")
            return FailureKind.usage.exitCode
        }
        let jobs = max(1, settings.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        let control = TestRunControl()
        let clock = ContinuousClock()
        let started = clock.now
        let start = RunStart(clock: started, wall: Date().timeIntervalSince1970 * 1000)
        var results: [TestFileResult?] = Array(repeating: nil, count: files.count)
        // A reader that goes (`wsh test | head -1`) stops wsh, as it stops `cat`, unless reports
        // are asked for: then it ends the lines, not the run, whose reports were lost.
        var readerGone = false
        func show(_ line: String) {
            guard !readerGone else { return }
            readerGone = ShellIO.writeAll(STDOUT_FILENO, Array(line.utf8), diesWhenReaderGoes: !settings.writesReports)
        }
        await withTaskGroup(of: (Int, TestFileResult).self) { group in
            var next = 0
            while next < min(jobs, files.count) {
                let index = next
                group.addTask { (index, await runFile(files[index], settings, control, start)) }
                next += 1
            }
            while let (index, result) = await group.next() {
                results[index] = result
                show(TestLines.line(for: result))
                if next < files.count, !control.isInterrupted {
                    let index = next
                    group.addTask { (index, await runFile(files[index], settings, control, start)) }
                    next += 1
                }
            }
        }
        let finished = results.compactMap { $0 }
        let summary = TestSummary(results: finished, notStarted: files.indices.filter { results[$0] == nil }.map { files[$0] },
                                  milliseconds: TestRecorder.milliseconds(started.duration(to: clock.now)))
        show(summary.line + "\n")
        var code = summary.exitCode
        for failure in TestReports.write(summary, settings) {
            FileHandleOutput.standardError("wsh test: error: \(failure)\n")
            if code == 0 { code = FailureKind.runtime.exitCode }
        }
        if summary.interrupted { FileHandleOutput.standardError("wsh: interrupted" + (Interruption.wasTermination ? " (SIGTERM)" : "") + "\n") }
        return code
    }

    /// The files the paths name, or this shard's slice of them (said on stdout).
    private static func selectedFiles(_ settings: TestSettings) throws(CommandFailure) -> [String] {
        let (files, hidden, unopened) = try TestFiles.collect(settings.paths)
        if !hidden.isEmpty {
            FileHandleOutput.standardError("note: hidden files are not run: \(hidden.joined(separator: ", ")) (name one to run it)\n")
        }
        if !unopened.isEmpty {
            FileHandleOutput.standardError("note: test files that cannot be opened are not run: \(unopened.joined(separator: ", "))"
                                           + " (a link to nothing, or a name that is not UTF-8)\n")
        }
        guard let shard = settings.shard else { return files }
        var durations: [String: Double] = [:]
        if let path = settings.durationsFile {
            guard let bytes = FileManager.default.contents(atPath: path) else { throw CommandFailure("cannot read --durations \(path)") }
            durations = try TestShard.durations(fromReport: Array(bytes))
            if !durations.isEmpty, !files.contains(where: { durations[TestShard.key($0)] != nil }) {
                FileHandleOutput.standardError("note: --durations \(path) names none of these \(files.count) files (its paths are read from the current directory): the slices are by count\n")
            }
        }
        let selected = shard.select(files, durations: durations)
        ShellIO.writeAll(STDOUT_FILENO, Array("shard \(shard.index)/\(shard.count): \(selected.count) of \(files.count) file\(files.count == 1 ? "" : "s")\n".utf8),
                         diesWhenReaderGoes: !settings.writesReports)
        return selected
    }

    /// When the run started, on the monotonic clock and the wall clock: a file's start is the
    /// wall time plus its offset on the monotonic clock, so that starts and lengths agree.
    struct RunStart: Sendable {
        var clock: ContinuousClock.Instant
        var wall: Double

        func wallMilliseconds(at instant: ContinuousClock.Instant) -> Double {
            wall + TestRecorder.milliseconds(clock.duration(to: instant))
        }
    }

    /// Runs one file in a worker and returns its result, timed from its own start to its own end;
    /// a worker that could not start, or stopped without a result, makes an errored file that says so.
    private static func runFile(_ path: String, _ settings: TestSettings, _ control: TestRunControl, _ run: RunStart) async -> TestFileResult {
        let clock = ContinuousClock()
        let started = clock.now
        let startedAt = run.wallMilliseconds(at: started)
        // `-h.wsh` as it is would be read as an option by the worker.
        var arguments = ["--worker", path.hasPrefix("-") ? "./" + path : path]
        if settings.stub { arguments.append("--stub") }
        if settings.harFile != nil { arguments.append("--keep-bodies") }
        if let environment = settings.environment { arguments += ["--env", environment] }
        for variable in settings.variables { arguments += ["--var", variable] }
        for secret in settings.secrets { arguments += ["--secret", secret] }
        var result: TestFileResult
        do {
            // A worker ends with its runner however the runner ends (kill -9, a closed terminal, `| head`).
            let worker = try WorkerProcess("test", arguments: arguments, input: .stopWhenClosed)
            let id = control.add(worker)
            let limit = settings.timeLimit.map { TestTimeLimit.watch(worker, limit: $0) }
            let ending = await worker.ending()
            limit?.cancel()
            control.remove(id)
            if let decoded = try? JSONDecoder().decode(TestFileResult.self, from: Data(ending.output)) {
                result = decoded
                result.path = path
            } else if ending.status == FailureKind.interrupted.exitCode || control.isInterrupted {
                result = TestFileResult(path: path, outcome: .interrupted, milliseconds: 0)
            } else {
                result = TestFileResult(path: path, outcome: .errored, milliseconds: 0)
                result.firstFailure = TestFailure(location: path, message: "wsh stopped while running this file (exit status \(ending.status))")
            }
            // Stopped by its limit, not by Ctrl-C, and not a file that ended just as the limit passed.
            if let limit, await limit.value, !control.isInterrupted, result.outcome == .interrupted || result.checks.isEmpty && result.errors.isEmpty,
               let text = settings.timeout {
                result = TestTimeLimit.timedOut(result, after: text)
            }
        } catch {
            result = TestFileResult(path: path, outcome: .errored, milliseconds: 0)
            result.firstFailure = TestFailure(location: path, message: error.description)
        }
        if result.outcome == .errored, result.errors.isEmpty, let failure = result.firstFailure {
            result.errors.append(TestErrorRecord(kind: "runtime", message: failure.message, file: path,
                                                 rendered: "wsh: error: \(failure.message)\n"))
        }
        result.milliseconds = TestRecorder.milliseconds(started.duration(to: clock.now))
        result.startedAt = startedAt
        return result
    }
}

/// The whole run: each finished file's result, in the order of the files.
struct TestSummary: Sendable {
    var results: [TestFileResult]
    /// The files not started because Ctrl-C came, in order: each is a skipped test in JUnit.
    var notStarted: [String]
    var notRun: Int { notStarted.count }
    var milliseconds: Double

    var passed: Int { results.count { $0.outcome == .passed } }
    var failed: Int { results.count { $0.outcome == .failed } }
    var errored: Int { results.count { $0.outcome == .errored } }
    var interruptedFiles: Int { results.count { $0.outcome == .interrupted } }
    var interrupted: Bool { interruptedFiles > 0 || notRun > 0 }

    /// `N passed, N failed`, then `, N errored` when a file stopped on an error, and after
    /// Ctrl-C `, N interrupted` and `, N not run`.
    var line: String {
        var line = "\(passed) passed, \(failed) failed"
        if errored > 0 { line += ", \(errored) errored" }
        if interruptedFiles > 0 { line += ", \(interruptedFiles) interrupted" }
        if notRun > 0 { line += ", \(notRun) not run" }
        return line
    }

    /// 130 after Ctrl-C, 3 for any runtime error, else 4 for any failed expectation, else 0.
    var exitCode: Int32 {
        if interrupted { return FailureKind.interrupted.exitCode }
        if errored > 0 { return FailureKind.runtime.exitCode }
        if failed > 0 { return FailureKind.expectation.exitCode }
        return 0
    }
}

/// The line printed for each file as it finishes.
enum TestLines {
    static func line(for result: TestFileResult) -> String {
        fileLine(for: result) + result.warnings.map { "    warning: \(oneLine($0))\n" }.joined()
    }

    private static func fileLine(for result: TestFileResult) -> String {
        let time = "\(MarkupText.whole(result.milliseconds)) ms"
        switch result.outcome {
        case .passed:
            let count = result.checks.count
            return "✓ \(result.path)  \(count) check\(count == 1 ? "" : "s")  \(time)\n"
        case .interrupted:
            // Where it stopped, by what, and the call it stopped.
            let place = result.interruption.map { interruption in
                "    note: \(interruption.message) at \(result.place(of: interruption))\n"
                    + interruption.notes.map { "    note: \(oneLine($0))\n" }.joined()
            }
            return "✗ \(result.path)  interrupted  \(time)\n" + (place ?? "")
        case .failed, .errored:
            // Every failed check (a file with `set bail off` runs on past the first), then the
            // errors, the one that stopped the file last: a CI log says why with the place and caret.
            let (checkErrors, otherErrors) = result.errorsByCheck
            let checks = result.checks.enumerated().filter { !$0.element.passed }.map { index, check in
                TestFailure(location: result.failurePlace(of: check, error: checkErrors[index]), message: check.message ?? "expectation failed",
                            notes: check.notes, excerpt: check.excerpt)
            }
            var errors = otherErrors.map { error in
                TestFailure(location: result.place(of: error), message: error.message, notes: error.notes, excerpt: error.excerpt)
            }
            if checks.isEmpty, errors.isEmpty, let first = result.firstFailure { errors.append(first) }
            guard !checks.isEmpty || !errors.isEmpty else { return "✗ \(result.path)  \(result.outcome.rawValue)  \(time)\n" }
            return failureLines(checks: checks, errors: errors)
        }
    }

    /// Failed checks shown in full (source line, caret, notes) up to this many in a file, then
    /// one line each: 50 failures in a loop would fill a CI log.
    static let checksInFull = 10
    /// Failed checks listed at all in a file; the rest are counted, and the reports list them.
    static let checksListed = 50

    /// The failed checks, the first ``checksInFull`` in full, then a line each up to
    /// ``checksListed`` and a count of the rest; then every error in full (a file stops at its first).
    static func failureLines(checks: [TestFailure], errors: [TestFailure]) -> String {
        var text = ""
        for (index, failure) in checks.prefix(checksListed).enumerated() {
            text += "✗ \(failure.location) \(oneLine(failure.message))\n"
            if index < checksInFull { text += details(failure) }
        }
        if checks.count > checksListed {
            let more = checks.count - checksListed
            text += "… \(more) more failed check\(more == 1 ? "" : "s"): the reports (--report-json, --report-junit) list every one\n"
        }
        for failure in errors {
            text += "✗ \(failure.location) \(oneLine(failure.message))\n" + details(failure)
        }
        return text
    }

    /// A failure's source line and caret, then its notes, under its ✗ line.
    private static func details(_ failure: TestFailure) -> String {
        var text = ""
        // The excerpt's lines are indented by three spaces: one more sets them under the ✗ line, as notes are.
        for line in (failure.excerpt ?? "").split(separator: "\n") { text += " \(line)\n" }
        for note in failure.notes { text += "    note: \(oneLine(note))\n" }
        return text
    }

    /// The text with line breaks shown as spaces: a line per file stays one line.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
