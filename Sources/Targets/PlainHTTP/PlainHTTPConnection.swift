import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// A connection of the plain client: its channel and the handler at the end of its pipeline.
/// The handler is used only on the channel's event loop.
struct PlainHTTPConnection: @unchecked Sendable {
    let channel: any Channel
    let handler: PlainHTTPExchangeHandler
    /// Host and port, where the pool keeps it.
    let key: String
}

/// Sends each exchange's request and hands its answer, part by part, to the exchange's delegate.
/// One exchange at a time; the connection's end fails the one in flight.
final class PlainHTTPExchangeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private var context: ChannelHandlerContext?
    private var current: PlainHTTPExchange?
    /// Told when the connection closes, so that the pool forgets it.
    var closed: (() -> Void)?
    weak var pool: PlainHTTPConnections?

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Writes the request of `exchange` and waits for its answer.
    func start(_ exchange: PlainHTTPExchange, head requestHead: HTTPRequestHead, body: ByteBuffer?) {
        guard let context, context.channel.isActive else {
            exchange.fail(HTTPClientError.remoteConnectionClosed)
            return
        }
        current = exchange
        context.write(wrapOutboundOut(.head(requestHead)), promise: nil)
        if let body, body.readableBytes > 0 { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.assumeIsolated().whenComplete { [weak self, weak exchange] result in
            guard let exchange else { return }
            switch result {
            case .success:
                exchange.isWritten = true
            case .failure(let error):
                guard let self, self.current === exchange else { return }
                // Before any answer, a reset on a kept-alive connection is the server having closed it:
                // said as such, so that the request is sent again on a new one.
                self.fail(exchange.delegate.receivedHead ? error : HTTPClientError.remoteConnectionClosed)
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let exchange = current else {
            // Bytes no request asked for: the connection cannot be trusted with another one.
            context.close(promise: nil)
            return
        }
        switch unwrapInboundIn(data) {
        case .head(let head):
            do { try exchange.delegate.receive(head) } catch { fail(error) }
        case .body(let buffer):
            do { try exchange.delegate.receive(buffer) } catch { fail(error) }
        case .end:
            current = nil
            // Without a head, the delegate's `finish` fails it as a closed connection.
            guard let pool else {
                exchange.fail(HTTPClientError.remoteConnectionClosed)
                return
            }
            exchange.finish(pool: pool)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(HTTPClientError.remoteConnectionClosed)
        closed?()
        closed = nil
        context.fireChannelInactive()
    }

    private func fail(_ error: any Error) {
        guard let exchange = current else { return }
        current = nil
        exchange.fail(error)
    }
}
