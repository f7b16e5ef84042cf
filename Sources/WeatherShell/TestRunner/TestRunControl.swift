import Dispatch
import Foundation
import Synchronization

/// Ctrl-C (or SIGTERM) for `wsh test`: the first stops starting files and passes the interrupt to the
/// running workers, which stop their files and report what they did; a second ends the
/// workers and the runner at once.
final class TestRunControl: @unchecked Sendable {
    // Unchecked only for `sources`, set in init and never changed (Dispatch does not declare it
    // Sendable); the mutable state is behind its Mutex.
    private struct State {
        var running: [Int: WorkerProcess] = [:]
        var nextID = 0
        var interrupts = 0
    }
    private let state = Mutex(State())
    private let sources: [DispatchSourceSignal]

    /// SIGTERM, as a CI system cancels a job, counts as a Ctrl-C: the workers stop and the reports
    /// are written with what ran. The workers are given the signal that came, and their reports say which.
    init() {
        sources = Interruption.sources(for: [SIGINT, SIGTERM])
        Interruption.start(sources, for: [SIGINT, SIGTERM]) { [weak self] in self?.interrupt() }
    }

    /// The signal the workers are given: the one that came first.
    private var signalForWorkers: Int32 { Interruption.wasTermination ? SIGTERM : SIGINT }

    var isInterrupted: Bool { state.withLock { $0.interrupts > 0 } }

    /// Keeps `worker` to pass Ctrl-C to; interrupts it at once if Ctrl-C came already.
    func add(_ worker: WorkerProcess) -> Int {
        let (id, interrupted) = state.withLock { state in
            state.nextID += 1
            state.running[state.nextID] = worker
            return (state.nextID, state.interrupts > 0)
        }
        if interrupted { worker.interrupt(with: signalForWorkers) }
        return id
    }

    func remove(_ id: Int) {
        _ = state.withLock { $0.running.removeValue(forKey: id) }
    }

    private func interrupt() {
        let (workers, count) = state.withLock { state in
            state.interrupts += 1
            return (Array(state.running.values), state.interrupts)
        }
        if count == 1 {
            for worker in workers { worker.interrupt(with: signalForWorkers) }
        } else {
            for worker in workers { worker.terminate() }
            ShellIO.writeAll(STDERR_FILENO, Array("\nwsh: interrupted\n".utf8))
            exit(FailureKind.interrupted.exitCode)
        }
    }
}
