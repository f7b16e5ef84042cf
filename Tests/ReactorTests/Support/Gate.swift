import Synchronization

/// A one-shot signal between a test and the mutate bodies it scripts: `wait()`
/// returns once `open()` has been called, at once if it already was.
///
/// Waiting ignores task cancellation on purpose: a producer that outlives a
/// cancelled action must be able to go on yielding, so tests can check that the
/// store drops what it yields.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiting {
            waiter.resume()
        }
    }

    func wait() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let openAlready = state.withLock { state in
                if !state.isOpen { state.waiters.append(waiter) }
                return state.isOpen
            }
            if openAlready { waiter.resume() }
        }
    }
}
