import Foundation
import Load
import Synchronization

/// `wsh load --processes N`: the users (or the arrivals) split over N worker processes of wsh's
/// own binary, each `wsh load --worker K/N` with its share, so that a load uses N cores. One
/// process runs every user on one event loop, one core (docs/dev/performance.md has the rates).
///
/// Each worker writes, every second and at its end, what it measured since as one line
/// (``LoadStats/Snapshot/line``); the parent adds the lines into its stats, which its live view,
/// summary, thresholds and reports read as if one process had measured it all. A worker stops
/// early when its stdin closes: on Ctrl-C, the parent closes it; if the parent dies, so does the pipe.
@ShellActor
enum LoadProcesses {
    /// The command line after `wsh load` of worker `index` of `options.processes`.
    static func arguments(_ options: LoadOptions, worker index: Int, startedAt: ContinuousClock.Instant) -> [String] {
        var arguments = options.files + (options.target.map { [$0] } ?? [])
        arguments += ["--duration", "\(Int64(options.duration.milliseconds))ms", "--ramp", "\(Int64(options.ramp.milliseconds))ms"]
        if let rate = options.rate {
            arguments += ["--rate", "\(rate)", "--connections", "\(options.connections)"]
        } else {
            arguments += ["--users", "\(options.users)"]
        }
        for host in options.allowedHosts { arguments += ["--allow-host", host] }
        if let environment = options.environment { arguments += ["--env", environment] }
        let started = (try? JSONEncoder().encode(startedAt)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return arguments + ["--worker", "\(index)/\(options.processes)", "--worker-started", started]
    }

    /// Runs the workers to their end, adding what each reports into `stats`. Cancelled (Ctrl-C),
    /// it stops them and still waits for what they did. Returns what went wrong, if anything.
    static func run(_ options: LoadOptions, startedAt: ContinuousClock.Instant, stats: LoadStats) async -> String? {
        var started: [WorkerProcess] = []
        for index in 1...options.processes {
            do {
                started.append(try WorkerProcess("load", arguments: arguments(options, worker: index, startedAt: startedAt),
                                                 input: .stopWhenClosed, keepsStderr: true))
            } catch {
                for worker in started {
                    worker.closeInput()
                    _ = await worker.ending()
                }
                return error.description
            }
        }
        let workers = started
        let endings = await withTaskCancellationHandler {
            await withTaskGroup(of: (Int, Int32).self) { group in
                for (index, worker) in workers.enumerated() {
                    group.addTask {
                        let ending = await worker.ending { line in
                            if let snapshot = LoadStats.Snapshot(line: line) { stats.merge(snapshot) }
                        }
                        return (index + 1, ending.status)
                    }
                }
                var endings: [(Int, Int32)] = []
                for await ending in group { endings.append(ending) }
                return endings
            }
        } onCancel: {
            workers.forEach { $0.closeInput() }
        }
        // A worker stopped by Ctrl-C here ends with 130; one that stopped by itself did not finish its part.
        let stopped: Int32 = Task.isCancelled ? FailureKind.interrupted.exitCode : 0
        guard let failed = endings.filter({ (_, status) in status != 0 && status != stopped }).min(by: { $0.0 < $1.0 }) else { return nil }
        return "load worker \(failed.0) of \(options.processes) stopped with exit status \(failed.1)"
    }

    /// In a worker: runs `work` until it ends, or until stdin closes (the parent stopping the run,
    /// or gone), which cancels it; then returns whether it was stopped so. Not through SIGINT, so
    /// that what the worker measured is written whenever the stop comes.
    static func runUntilInputCloses(_ work: @escaping @ShellActor @Sendable () async -> Void) async -> Bool {
        let task = Task(executorPreference: SessionEventLoop.executor) { await work() }
        Thread.detachNewThread {
            WorkerProcess.waitUntilInputCloses()
            task.cancel()
        }
        await task.value
        return task.isCancelled
    }

    /// In a worker: what `stats` measured since the last report, as one line on stdout.
    static func report(_ stats: LoadStats) {
        FileHandleOutput.standardOutput(stats.drain().line + "\n")
    }
}
