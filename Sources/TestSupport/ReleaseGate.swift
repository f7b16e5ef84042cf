import Synchronization

/// Holds back the rest of a `/held` answer until a request to `/held/release` opens the gate: a
/// test sees what a client did with the first part before the rest exists. Opening it runs every
/// waiting answer; one that comes later goes on at once.
final class ReleaseGate: Sendable {
    private struct State {
        var open = false
        var waiting: [@Sendable () -> Void] = []
    }
    private let state = Mutex(State())

    /// Runs `action` when the gate opens, or now when it is open.
    func whenOpen(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if !state.open { state.waiting.append(action) }
            return state.open
        }
        if now { action() }
    }

    func open() {
        let waiting = state.withLock { state -> [@Sendable () -> Void] in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for action in waiting { action() }
    }
}
