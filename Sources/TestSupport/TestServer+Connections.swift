import NIOCore
import Synchronization

extension TestServer {
    /// How many of the connections the server accepted are still open.
    public var openConnections: Int {
        connections.open.count
    }

    /// Waits until every connection open now has been closed (by either side), or `timeout` has passed.
    /// Returns whether they all closed; waits for the closes themselves, not a fixed time.
    public func openConnectionsClose(within timeout: Duration) async -> Bool {
        let open = connections.open
        guard let loop = open.first?.eventLoop else { return true }
        let promise = loop.makePromise(of: Bool.self)
        let settled = FirstCall()
        let settle: @Sendable (Bool) -> Void = { closed in
            if settled.claim() { promise.succeed(closed) }
        }
        EventLoopFuture.andAllComplete(open.map(\.closeFuture), on: loop).whenComplete { _ in settle(true) }
        let (seconds, attoseconds) = timeout.components
        let timer = loop.scheduleTask(in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)) { settle(false) }
        let closed = (try? await promise.futureResult.get()) ?? false
        timer.cancel()
        return closed
    }
}

/// True for the first call of ``claim()`` only, from whichever thread makes it.
private final class FirstCall: Sendable {
    private let done = Mutex(false)

    func claim() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}
