import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Sends a plain `http://` request through an HTTP proxy with the whole URL as its target
/// (`GET http://host:port/path HTTP/1.1`, RFC 9112 section 3.2.2), as curl, HTTPie and Hurl do.
///
/// This is the one request wsh does not give to AsyncHTTPClient: it tunnels every proxied request
/// through CONNECT and has no way to send an absolute-form target, and proxies commonly refuse
/// CONNECT to ports other than 443 (squid's shipped configuration: `http_access deny CONNECT
/// !SSL_ports`). The rest is kept small: one connection per request, closed after its answer,
/// NIO's HTTP/1 codec, and the same ``ResponseBodyDelegate`` AsyncHTTPClient's requests read into.
enum ProxyForwarding {
    /// Where the request goes: the proxy, and the request target and Host header of `request`.
    struct Plan {
        var proxy: ProxyServer
        var head: HTTPRequestHead
        var body: ByteBuffer?
    }

    /// The plan for `request` through `proxy`: its framing as AsyncHTTPClient frames a request (a
    /// `Host` when missing, `Content-Length` from the body), and the proxy's credentials, if any,
    /// as `Proxy-Authorization` on the wire only.
    static func plan(_ request: HTTPClient.Request, body: Data?, via proxy: ProxyServer) throws -> Plan {
        let method = request.method
        let bodyLength = body?.count ?? 0
        if method == .TRACE, bodyLength > 0 { throw HTTPClientError.traceRequestWithBody }
        let host = request.host.contains(":") ? "[\(request.host)]" : request.host
        let authority = request.port == 80 ? host : "\(host):\(request.port)"
        let url = request.url
        let path = url.path.isEmpty ? "/" : URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        let target = "http://\(authority)" + (url.query.map { path + "?" + $0 } ?? path)
        var headers = request.headers
        if !headers.contains(name: "host") { headers.add(name: "host", value: authority) }
        headers.remove(name: "Content-Length")
        headers.remove(name: "Transfer-Encoding")
        switch (bodyLength, method) {
        case (0, .GET), (0, .HEAD), (0, .DELETE), (0, .CONNECT), (0, .TRACE): break
        default: headers.add(name: "Content-Length", value: String(bodyLength))
        }
        if let authorization = proxy.authorization { headers.add(name: "Proxy-Authorization", value: authorization.headerValue) }
        let head = HTTPRequestHead(version: .http1_1, method: method, uri: target, headers: headers)
        return Plan(proxy: proxy, head: head, body: body.map { ByteBuffer(bytes: $0) })
    }

    /// Sends `plan` and reads the answer into `delegate`. The deadline covers connecting, sending
    /// and the whole body; cancelling the calling task fails it with `.cancelled`. A 407 is the
    /// proxy asking for credentials, failed as AsyncHTTPClient fails a tunnel that meets one.
    static func send(
        _ plan: Plan, delegate: ResponseBodyDelegate, deadline: NIODeadline?, connectTimeout: TimeAmount,
        group: any EventLoopGroup, isolation: isolated (any Actor)? = #isolation
    ) async throws -> ResponseBodyDelegate.Response {
        let loop = group.any()
        let exchange = ForwardedExchange(delegate: delegate, promise: loop.makePromise())
        if let deadline {
            let timer = loop.scheduleTask(deadline: deadline) { exchange.fail(HTTPClientError.deadlineExceeded) }
            exchange.promise.futureResult.whenComplete { _ in timer.cancel() }
        }
        ClientBootstrap(group: loop)
            .connectTimeout(connectTimeout)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHTTPClientHandlers() }
            }
            .connect(host: plan.proxy.host, port: plan.proxy.port)
            .whenComplete { result in
                switch result {
                case .success(let channel):
                    exchange.channel = channel
                    guard !exchange.isDone else {
                        channel.close(promise: nil)
                        return
                    }
                    // Only the connection that won: with a proxy of both address families, the one
                    // that lost the race is closed, and its end must not fail the exchange.
                    do {
                        try channel.pipeline.syncOperations.addHandler(ForwardedExchangeHandler(exchange))
                    } catch {
                        exchange.fail(error)
                        return
                    }
                    channel.write(HTTPClientRequestPart.head(plan.head), promise: nil)
                    if let body = plan.body, body.readableBytes > 0 {
                        channel.write(HTTPClientRequestPart.body(.byteBuffer(body)), promise: nil)
                    }
                    channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
                    delegate.noteSent()
                case .failure(ChannelError.connectTimeout):
                    exchange.fail(HTTPClientError.connectTimeout)
                case .failure(let error):
                    exchange.fail(error)
                }
            }
        return try await withTaskCancellationHandler {
            // Keeps the resumption on the caller's executor, as ``NetworkTransport`` does.
            _ = isolation
            return try await withUnsafeThrowingContinuation {
                (continuation: UnsafeContinuation<ResponseBodyDelegate.Response, any Error>) in
                exchange.promise.futureResult.whenComplete { continuation.resume(with: $0) }
            }
        } onCancel: {
            loop.execute { exchange.fail(HTTPClientError.cancelled) }
        }
    }
}

/// One forwarded request and its answer, settled once, on its event loop.
private final class ForwardedExchange: @unchecked Sendable {
    let delegate: ResponseBodyDelegate
    let promise: EventLoopPromise<ResponseBodyDelegate.Response>
    var channel: (any Channel)?
    private(set) var isDone = false

    init(delegate: ResponseBodyDelegate, promise: EventLoopPromise<ResponseBodyDelegate.Response>) {
        self.delegate = delegate
        self.promise = promise
    }

    func fail(_ error: any Error) {
        guard !isDone else { return }
        isDone = true
        delegate.receiveError()
        channel?.close(promise: nil)
        promise.fail(error)
    }

    func finish() {
        guard !isDone else { return }
        do {
            let response = try delegate.finish()
            isDone = true
            channel?.close(promise: nil)
            promise.succeed(response)
        } catch {
            fail(error)
        }
    }
}

/// Hands the answer, part by part, to the exchange's delegate.
private final class ForwardedExchangeHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    private let exchange: ForwardedExchange

    init(_ exchange: ForwardedExchange) {
        self.exchange = exchange
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        do {
            switch unwrapInboundIn(data) {
            case .head(let head) where head.status == .proxyAuthenticationRequired:
                exchange.fail(HTTPClientError.proxyAuthenticationRequired)
            case .head(let head):
                try exchange.delegate.receive(head)
            case .body(let buffer):
                try exchange.delegate.receive(buffer)
            case .end:
                exchange.finish()
            }
        } catch {
            exchange.fail(error)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        exchange.fail(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        exchange.fail(HTTPClientError.remoteConnectionClosed)
        context.fireChannelInactive()
    }
}
