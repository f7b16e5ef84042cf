import Foundation
import NIOCore
import NIOHTTP1
import Targets

/// Reads one request at a time from a connection and writes the mock server's answer, after the
/// configured delay; a body over the limit is answered 413 and the connection closed, and a
/// connection idle past ``MockServer/Configuration/idleTimeout`` with no answer pending is closed.
final class MockHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let server: MockServer
    private var head: HTTPRequestHead?
    private var body: ByteBuffer?
    private var started: NIODeadline = .now()
    /// Set once a request went over the body limit: the rest of it is ignored and the connection closes.
    private var refused = false
    /// Requests read whose answers wait for the delay: the connection is not idle while one does.
    private var pending = 0

    init(server: MockServer) {
        self.server = server
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            body = nil
            started = .now()
            if let length = requestHead.headers.first(name: "Content-Length").flatMap(Int.init), length > server.configuration.bodyLimit {
                refuse(context: context, requestHead)
            } else if requestHead.headers[canonicalForm: "Expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                // curl asks before sending a body over 1 MB and, unanswered, waits a second first.
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: requestHead.version, status: .continue))), promise: nil)
            }
        case .body(var chunk):
            guard !refused, let requestHead = head else { return }
            if (body?.readableBytes ?? 0) + chunk.readableBytes > server.configuration.bodyLimit {
                refuse(context: context, requestHead)
                return
            }
            if body == nil { body = chunk } else { body?.writeBuffer(&chunk) }
        case .end:
            guard !refused, let requestHead = head else { return }
            head = nil
            let routes = server.routes
            let answer = MockResponder(routes: routes, cors: server.configuration.cors).answer(requestHead, body: body)
            body = nil
            if let delay = routes.delay, delay > .zero {
                pending += 1
                let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: .nanoseconds(delay.nanoseconds)) {
                    let (handler, context) = loopBound.value
                    handler.pending -= 1
                    handler.write(answer, for: requestHead, context: context, redaction: routes.redaction)
                }
            } else {
                write(answer, for: requestHead, context: context, redaction: routes.redaction)
            }
        }
    }

    /// Answers 413 at once and closes: reading on would let one request hold any amount of memory.
    private func refuse(context: ChannelHandlerContext, _ requestHead: HTTPRequestHead) {
        refused = true
        body = nil
        var answer = MockResponder.problemAnswer(Problem(
            status: 413, title: "Content Too Large",
            detail: "the request body is over the limit of \(ByteText.text(server.configuration.bodyLimit))"))
        answer.headers.add(name: "Connection", value: "close")
        write(answer, for: requestHead, context: context, redaction: server.routes.redaction, close: true)
    }

    private func write(_ answer: MockResponder.Answer, for request: HTTPRequestHead, context: ChannelHandlerContext,
                       redaction: Redaction, close: Bool = false) {
        guard context.channel.isActive else { return }
        var headers = answer.headers
        // A 204 or 304 carries no Content-Length (RFC 9110 8.6); MockResponder.final left it no body.
        if answer.status != 204, answer.status != 304 { headers.add(name: "Content-Length", value: String(answer.body.readableBytes)) }
        let keepAlive = request.isKeepAlive && !close
        if !keepAlive, !headers.contains(name: "Connection") { headers.add(name: "Connection", value: "close") }
        let status = HTTPResponseStatus(statusCode: answer.status)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))), promise: nil)
        if request.method != .HEAD, answer.body.readableBytes > 0 {
            context.write(wrapOutboundOut(.body(.byteBuffer(answer.body))), promise: nil)
        }
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            written.whenComplete { _ in channel.close(promise: nil) }
        }
        if let log = server.configuration.log {
            let elapsed = Double((NIODeadline.now() - started).nanoseconds) / 1_000_000
            log(RequestLogLine.text(method: request.method.rawValue, uri: request.uri, status: answer.status,
                                    target: answer.targetName, milliseconds: elapsed, redaction: redaction))
        }
    }

    /// Nothing read for the idle timeout: a kept-alive connection nobody uses, or a request head
    /// or body sent in part (slowloris) is closed; one whose answer waits for the delay is not.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if pending == 0 { context.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// `GET /v1/forecast?latitude=1 -> 200 current 0.2 ms`, secrets masked as the logger masks them.
enum RequestLogLine {
    static func text(method: String, uri: String, status: Int, target: String?, milliseconds: Double, redaction: Redaction) -> String {
        let shown = redaction.maskedURL(uri).logSafe
        // Tenths by integers: String(format:) went through Foundation, a fifth of a logged request's time.
        let tenths = Int((milliseconds * 10).rounded())
        let time = milliseconds < 10 ? "\(tenths / 10).\(tenths % 10)" : String(Int(milliseconds.rounded()))
        return "\(method.logSafe) \(shown) -> \(status) \(target.map { $0 + " " } ?? "")\(time) ms"
    }
}
