import NIOConcurrencyHelpers
import NIOCore

extension TestServer {
    /// How many of the connections the server accepted are still open.
    public var openConnections: Int {
        connections.withLockedValue { $0.count }
    }

    /// Waits until every connection open now has been closed (by either side), or `timeout` has passed.
    /// Returns whether they all closed; waits for the closes themselves, not a fixed time.
    public func openConnectionsClose(within timeout: Duration) async -> Bool {
        let open = connections.withLockedValue { Array($0.values) }
        guard let loop = open.first?.eventLoop else { return true }
        let promise = loop.makePromise(of: Bool.self)
        let settled = NIOLockedValueBox(false)
        let settle: @Sendable (Bool) -> Void = { closed in
            let first = settled.withLockedValue { done in
                defer { done = true }
                return !done
            }
            if first { promise.succeed(closed) }
        }
        EventLoopFuture.andAllComplete(open.map(\.closeFuture), on: loop).whenComplete { _ in settle(true) }
        let (seconds, attoseconds) = timeout.components
        let timer = loop.scheduleTask(in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)) { settle(false) }
        let closed = (try? await promise.futureResult.get()) ?? false
        timer.cancel()
        return closed
    }
}
