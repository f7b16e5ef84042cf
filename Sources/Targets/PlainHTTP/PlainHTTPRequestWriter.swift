import NIOCore
import NIOHTTP1

/// Writes the plain client's requests as NIO's `HTTPRequestEncoder` writes them (`METHOD uri
/// HTTP/1.1`, each field as `name: value`, a blank line). The head and body wait for the end, which
/// takes them down the pipeline with its promise: a request without a body is one write, where the
/// encoder made two (the head, then an empty buffer for the end) and checked the framing fields
/// again. The head comes framed already (``PlainHTTPRequestHead``: a `Content-Length`, or none where
/// the method takes no body), so the encoder's framing rules would change nothing; there are no
/// chunks and no trailers.
final class PlainHTTPRequestWriter: ChannelOutboundHandler {
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = IOData

    /// Parts written without a promise, not yet passed on.
    private var waiting: [IOData] = []

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part: IOData?
        switch unwrapOutboundIn(data) {
        case .head(let request): part = .byteBuffer(Self.bytes(of: request, allocator: context.channel.allocator))
        case .body(let body): part = body
        case .end: part = nil
        }
        guard let promise else {
            if let part { waiting.append(part) }
            return
        }
        // The last part takes the promise, completed when it and all before it are written.
        guard let last = part ?? waiting.popLast() else {
            context.write(wrapOutboundOut(.byteBuffer(context.channel.allocator.buffer(capacity: 0))), promise: promise)
            return
        }
        passWaiting(context: context)
        context.write(wrapOutboundOut(last), promise: promise)
    }

    func flush(context: ChannelHandlerContext) {
        passWaiting(context: context)
        context.flush()
    }

    private func passWaiting(context: ChannelHandlerContext) {
        for part in waiting {
            context.write(wrapOutboundOut(part), promise: nil)
        }
        waiting.removeAll(keepingCapacity: true)
    }

    /// `METHOD uri HTTP/x.y`, the fields and a blank line, each line ended by CRLF.
    static func bytes(of request: HTTPRequestHead, allocator: ByteBufferAllocator) -> ByteBuffer {
        var size = request.method.rawValue.utf8.count + request.uri.utf8.count + 16
        for (name, value) in request.headers {
            size += name.utf8.count + value.utf8.count + 4
        }
        var buffer = allocator.buffer(capacity: size)
        buffer.writeString(request.method.rawValue)
        buffer.writeInteger(UInt8(ascii: " "))
        buffer.writeString(request.uri)
        if request.version == .http1_1 {
            buffer.writeStaticString(" HTTP/1.1\r\n")
        } else {
            buffer.writeString(" HTTP/\(request.version.major).\(request.version.minor)\r\n")
        }
        for (name, value) in request.headers {
            buffer.writeString(name)
            buffer.writeStaticString(": ")
            buffer.writeString(value)
            buffer.writeStaticString("\r\n")
        }
        buffer.writeStaticString("\r\n")
        return buffer
    }
}
