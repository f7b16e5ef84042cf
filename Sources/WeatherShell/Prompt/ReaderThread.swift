import Dispatch
import Foundation
import Synchronization

/// One thread for reads that block (libedit's `el_gets`, a line of piped stdin), so that the
/// session's event loop, which runs the statements and every HTTP connection, never waits for a
/// key. Work runs one piece at a time, in order, always on this thread.
final class ReaderThread: Sendable {
    /// The work not started yet, oldest first.
    private let queue = Mutex<[@Sendable () -> Void]>([])
    /// Counts the pieces in `queue`: the thread waits on it while there is nothing to do.
    private let queued = DispatchSemaphore(value: 0)

    init() {
        // The thread keeps its reader: a reader lives as long as the prompt, which is the process.
        // Not named: Foundation's name setter here renamed the calling thread (the event loop's).
        Thread { self.serve() }.start()
    }

    /// Runs `body` on the thread and returns its result to the awaiting task.
    func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            queue.withLock { $0.append { continuation.resume(returning: body()) } }
            queued.signal()
        }
    }

    private func serve() {
        while true {
            queued.wait()
            let work = queue.withLock { $0.removeFirst() }
            work()
        }
    }
}
