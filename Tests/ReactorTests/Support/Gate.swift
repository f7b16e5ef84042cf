import Foundation

/// A one-shot signal between a test and the mutate bodies it scripts: `wait()`
/// returns once `open()` has been called, at once if it already was.
///
/// Waiting ignores task cancellation on purpose: a producer that outlives a
/// cancelled action must be able to go on yielding, so tests can check that the
/// store drops what it yields.
final class Gate: @unchecked Sendable {
    // Sendable by construction: `isOpen` and `waiters` are only touched under `lock`.
    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func open() {
        let waiting = lock.withLock {
            isOpen = true
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in waiting {
            waiter.resume()
        }
    }

    func wait() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let openAlready = lock.withLock {
                if !isOpen { waiters.append(waiter) }
                return isOpen
            }
            if openAlready { waiter.resume() }
        }
    }
}
