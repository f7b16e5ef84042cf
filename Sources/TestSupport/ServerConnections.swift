import NIOCore
import Synchronization

/// The connections a ``TestServer`` has accepted: how many, and which are still open.
/// Updated from the server's event loops, read from the test's task.
final class ServerConnections: Sendable {
    private struct State {
        /// The connections open now, by channel; a connection leaves when it closes.
        var open: [ObjectIdentifier: any Channel] = [:]
        var acceptedCount = 0
    }

    private let state = Mutex(State())

    /// Counts `channel` and keeps it until it closes.
    func accept(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLock { state in
            state.acceptedCount += 1
            state.open[id] = channel
        }
        channel.closeFuture.whenComplete { [self] _ in state.withLock { _ = $0.open.removeValue(forKey: id) } }
    }

    /// The connections open now.
    var open: [any Channel] {
        state.withLock { Array($0.open.values) }
    }

    /// How many connections have been accepted so far.
    var acceptedCount: Int {
        state.withLock { $0.acceptedCount }
    }
}
