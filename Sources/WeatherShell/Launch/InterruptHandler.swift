import Dispatch
import Targets
import Foundation

/// Turns SIGINT into cancellation of the running statements, so Ctrl-C during a request
/// brings the prompt back (or ends a script with 130) instead of killing the process.
/// A second Ctrl-C while a script is still stopping ends it at once.
final class InterruptHandler: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Task<Void, any Error>?
    private var pending = false
    private let interactive: Bool
    private let source: DispatchSourceSignal

    init(interactive: Bool) {
        self.interactive = interactive
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        // Signals that arrive before the handler runs are counted, not queued: each is a Ctrl-C.
        source.setEventHandler { [weak self, source] in
            for _ in 0..<max(1, source.data) { self?.interrupt() }
        }
        source.resume()
    }

    /// Runs `work` as a task that Ctrl-C cancels.
    func run(_ work: @escaping @ShellActor @Sendable () async throws -> Void) async throws {
        let task = Task(executorPreference: SessionEventLoop.executor) { try await work() }
        lock.withLock { current = task; pending = false }
        InterruptCleanup.reset()
        defer { lock.withLock { current = nil } }
        try await task.value
    }

    private func interrupt() {
        let (task, again) = lock.withLock { () -> (Task<Void, any Error>?, Bool) in
            let again = pending
            pending = true
            return (current, again)
        }
        if let task, !(again && !interactive) {
            task.cancel()
            // A second Ctrl-C at the prompt also stops the clean-up the first one started.
            if again { InterruptCleanup.cancelAll() }
        } else if !interactive {
            ShellIO.writeAll(STDERR_FILENO, Array("wsh: interrupted\n".utf8))
            exit(FailureKind.interrupted.exitCode)
        }
    }
}
