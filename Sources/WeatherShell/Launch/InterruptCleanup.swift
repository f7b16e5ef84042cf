import Synchronization

/// Clean-up that runs after Ctrl-C (a reactor action's `catch`, `loading` turned off): in a task of
/// its own, since the interrupted one is cancelled, yet stopped by the next Ctrl-C, which cancels
/// every clean-up under way and any started after it in the same run (``InterruptHandler``).
enum InterruptCleanup {
    private struct State {
        var running: [Int: @Sendable () -> Void] = [:]
        var nextID = 0
        /// A second Ctrl-C came: clean-ups of this run, even those not started yet, are cancelled.
        var stopped = false
    }
    private static let state = Mutex(State())

    /// Runs `body` to its end, or until the next Ctrl-C cancels it, and returns what it returned.
    static func run<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) async -> Result {
        let task = Task { await body() }
        let id = state.withLock { state -> Int? in
            if state.stopped { return nil }
            state.nextID += 1
            state.running[state.nextID] = { task.cancel() }
            return state.nextID
        }
        if id == nil { task.cancel() }
        defer { if let id { finished(id) } }
        return await task.value
    }

    /// Not inlined into `run`, for the reason ``InterruptHandler``'s `finished()` gives: a lock
    /// taken after an await that resumed on another thread must read that thread's id.
    @inline(never)
    private static func finished(_ id: Int) {
        state.withLock { _ = $0.running.removeValue(forKey: id) }
    }

    /// Cancels every clean-up under way and those started later in this run.
    static func cancelAll() {
        let cancels = state.withLock { state in
            state.stopped = true
            return Array(state.running.values)
        }
        for cancel in cancels { cancel() }
    }

    /// A new run begins: its clean-ups run until its own second Ctrl-C.
    static func reset() {
        state.withLock { $0.stopped = false }
    }
}
