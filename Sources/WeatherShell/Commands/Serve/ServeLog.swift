import Synchronization

/// The request lines of `serve start` at the prompt, kept for `serve log` instead of written to
/// the terminal: the server answers on threads of its own while libedit owns the line being typed,
/// and a line written then ran into it.
final class ServeLog: Sendable {
    /// How many lines are kept; older ones are dropped, and counted.
    static let limit = 1000

    private struct State {
        var lines: [String] = []
        var dropped = 0
    }
    private let state = Mutex(State())

    func append(_ line: String) {
        state.withLock { state in
            state.lines.append(line)
            if state.lines.count > Self.limit {
                state.lines.removeFirst()
                state.dropped += 1
            }
        }
    }

    /// The lines kept since the last take, oldest first, and how many were dropped before them.
    func take() -> (lines: [String], dropped: Int) {
        state.withLock { state in
            defer { state = State() }
            return (state.lines, state.dropped)
        }
    }

    /// How many lines wait for `serve log`.
    var count: Int { state.withLock { $0.lines.count } }
}
