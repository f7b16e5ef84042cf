import NIOCore
import NIOHTTP1

/// Reads one HTTP/1.1 request at a time and writes the router's reply; keeps the connection open
/// between requests unless the client asked to close it.
final class TestServerHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// How much of a streamed body goes in one write.
    private static let chunkSize = 16 * 1024

    private let router: Router
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(router: Router) {
        self.router = router
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
            router.recordHit(Self.split(head.uri).path)
        case .body(var buffer):
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            self.head = nil
            let (path, query) = Self.split(head.uri)
            let request = ReceivedRequest(
                method: head.method.rawValue, path: path, query: query,
                headers: head.headers.map { ($0.name, $0.value) }, body: body)
            perform(router.reply(to: request), keepAlive: head.isKeepAlive, context: context)
        }
    }

    private func perform(_ reply: ServerReply, keepAlive: Bool, context: ChannelHandlerContext) {
        switch reply {
        case .respond(let status, let headers, let body):
            var fields = HTTPHeaders(headers)
            fields.replaceOrAdd(name: "Content-Length", value: String(body.count))
            writeHead(status: status, headers: fields, keepAlive: keepAlive, context: context)
            if !body.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            }
            finish(keepAlive: keepAlive, context: context)
        case .after(let milliseconds, let reply):
            context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(milliseconds))) {
                // The client may have given up and closed the connection meanwhile.
                guard context.channel.isActive else { return }
                self.perform(reply, keepAlive: keepAlive, context: context)
            }
        case .never:
            break
        case .closeMidBody:
            writeHead(status: 200, headers: ["Content-Type": "application/json", "Content-Length": "1000"],
                      keepAlive: keepAlive, context: context)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "{\"partial\""))))).assumeIsolated()
                .whenComplete { _ in context.close(promise: nil) }
        case .stallMidBody:
            writeHead(status: 200, headers: ["Content-Type": "application/json", "Content-Length": "1000"],
                      keepAlive: keepAlive, context: context)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "{\"partial\"")))), promise: nil)
        case .held(let contentType, let first, let rest, let gate, let whole):
            // No Content-Length: NIO sends the body chunked.
            if !whole {
                writeHead(status: 200, headers: ["Content-Type": contentType], keepAlive: keepAlive, context: context)
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: first)))), promise: nil)
            }
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            gate.whenOpen {
                bound.eventLoop.execute {
                    let (handler, context) = bound.value
                    guard context.channel.isActive else { return }
                    if whole {
                        handler.writeHead(status: 200, headers: ["Content-Type": contentType], keepAlive: keepAlive, context: context)
                        context.write(handler.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: first)))), promise: nil)
                    }
                    context.write(handler.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: rest)))), promise: nil)
                    handler.finish(keepAlive: keepAlive, context: context)
                }
            }
        case .stream(let byteCount):
            writeHead(status: 200, headers: ["Content-Type": "application/json", "Content-Length": String(byteCount)],
                      keepAlive: keepAlive, context: context)
            writeChunks(from: 0, of: byteCount, keepAlive: keepAlive, context: context)
        }
    }

    private func writeHead(status: Int, headers: HTTPHeaders, keepAlive: Bool, context: ChannelHandlerContext) {
        var headers = headers
        if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
    }

    private func finish(keepAlive: Bool, context: ChannelHandlerContext) {
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }

    /// The body of a `.stream` reply: one JSON string of `total` bytes, `"aaa...a"`, each chunk written
    /// when the previous one has gone, so a client that stops reading stops the stream.
    private func writeChunks(from start: Int, of total: Int, keepAlive: Bool, context: ChannelHandlerContext) {
        guard start < total else {
            finish(keepAlive: keepAlive, context: context)
            return
        }
        let end = min(total, start + Self.chunkSize)
        var buffer = ByteBuffer(repeating: UInt8(ascii: "a"), count: end - start)
        if total >= 2 {
            if start == 0 { buffer.setInteger(UInt8(ascii: "\""), at: 0) }
            if end == total { buffer.setInteger(UInt8(ascii: "\""), at: end - start - 1) }
        }
        // The next chunk goes from a new turn of the loop: a write that completes at once would
        // otherwise call back into this function, one stack frame a chunk (a 512 MB body overflowed it).
        let loop = context.eventLoop.assumeIsolated()
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer)))).assumeIsolated()
            .whenSuccess { loop.execute { self.writeChunks(from: end, of: total, keepAlive: keepAlive, context: context) } }
    }

    /// `/path?query` as the path and the raw query (empty when there is none).
    private static func split(_ uri: String) -> (path: String, query: String) {
        guard let mark = uri.firstIndex(of: "?") else { return (uri, "") }
        return (String(uri[..<mark]), String(uri[uri.index(after: mark)...]))
    }
}
