import Foundation

/// One thread for reads that block (libedit's `el_gets`, a line of piped stdin), so that the
/// session's event loop, which runs the statements and every HTTP connection, never waits for a
/// key. Work runs one piece at a time, in order, always on this thread.
final class ReaderThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [() -> Void] = []

    init() {
        // The thread keeps its reader: a reader lives as long as the prompt, which is the process.
        // Not named: Foundation's name setter here renamed the calling thread (the event loop's).
        Thread { self.serve() }.start()
    }

    /// Runs `body` on the thread and returns its result to the awaiting task.
    func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            condition.withLock {
                queue.append { continuation.resume(returning: body()) }
                condition.signal()
            }
        }
    }

    private func serve() {
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let work = queue.removeFirst()
            condition.unlock()
            work()
        }
    }
}
