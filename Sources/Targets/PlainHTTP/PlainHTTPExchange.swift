import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// One request and its answer on a plain connection. Used only on its event loop: the handler
/// drives it there, and a deadline or a cancel from elsewhere hops there first.
final class PlainHTTPExchange: @unchecked Sendable {
    let loop: any EventLoop
    let delegate: ResponseBodyDelegate
    let promise: EventLoopPromise<ResponseBodyDelegate.Response>
    /// The request asked the server to close the connection after the answer.
    let closesConnection: Bool
    /// When the exchange fails as timed out, if ever (``PlainHTTPConnections`` watches it).
    let deadline: NIODeadline?
    /// The connection, once there is one.
    var connection: PlainHTTPConnection?
    /// The client that tracks it until it settles.
    weak var pool: PlainHTTPConnections?
    /// The whole request has been written to the socket.
    var isWritten = false
    /// Settled: answered, failed, timed out or cancelled.
    private(set) var isDone = false

    init(loop: any EventLoop, delegate: ResponseBodyDelegate, closesConnection: Bool, deadline: NIODeadline?) {
        self.loop = loop
        self.delegate = delegate
        self.closesConnection = closesConnection
        self.deadline = deadline
        promise = loop.makePromise()
    }

    /// Fails the exchange and closes its connection, which cannot carry another request.
    func fail(_ error: any Error) {
        guard !isDone else { return }
        isDone = true
        pool?.untrack(self)
        delegate.receiveError()
        connection?.channel.close(promise: nil)
        promise.fail(error)
    }

    /// The answer is complete: the connection goes back to `pool` when both sides keep it open.
    func finish(pool: PlainHTTPConnections) {
        guard !isDone else { return }
        let response: ResponseBodyDelegate.Response
        do {
            response = try delegate.finish()
        } catch {
            fail(error)
            return
        }
        isDone = true
        pool.untrack(self)
        let head = response.head
        if let connection {
            // Not after a 101 (the decoder stops reading for good), nor while the request's body
            // is still going out (an early 401 or 413): the next request would queue behind it.
            if head.isKeepAlive, !closesConnection, head.status.code >= 200, isWritten, connection.channel.isActive {
                pool.park(connection)
            } else {
                connection.channel.close(promise: nil)
            }
        }
        promise.succeed(response)
    }
}
