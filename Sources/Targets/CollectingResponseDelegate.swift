import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// Collects a response head and its whole body, failing once the body passes a limit.
///
/// AsyncHTTPClient calls a delegate on the request's event loop, one callback at a time; the
/// lock only satisfies `Sendable`.
final class CollectingResponseDelegate: HTTPClientResponseDelegate {
    typealias Response = (head: HTTPResponseHead, body: ByteBuffer)

    private struct Collected {
        var head: HTTPResponseHead?
        var body: ByteBuffer?
    }
    private let collected = Mutex(Collected())
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        if let length = head.headers.first(name: "Content-Length").flatMap(Int.init), length > limit {
            return task.eventLoop.makeFailedFuture(TransportFailure.bodyTooLarge)
        }
        collected.withLock { $0.head = head }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        var buffer = buffer
        let tooLarge = collected.withLock { collected -> Bool in
            if collected.body == nil {
                collected.body = buffer
            } else {
                collected.body?.writeBuffer(&buffer)
            }
            return (collected.body?.readableBytes ?? 0) > limit
        }
        return tooLarge ? task.eventLoop.makeFailedFuture(TransportFailure.bodyTooLarge) : task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        try collected.withLock { collected in
            guard let head = collected.head else { throw HTTPClientError.remoteConnectionClosed }
            return (head, collected.body ?? ByteBuffer())
        }
    }
}
