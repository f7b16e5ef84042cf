import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// wsh's own HTTP/1.1 client for plain `http://` requests that go straight to the server: the
/// calls a shell makes most, one at a time. It keeps connections alive, one pool per host and port,
/// and takes only what a request needs: NIO's HTTP/1 codec and one handler, without AsyncHTTPClient's
/// request state machines, which cost a third of each loopback call (callgrind). HTTPS, proxies and
/// IPv6 literals stay with AsyncHTTPClient. The request is framed as AsyncHTTPClient frames it:
/// the same header checks, `host`, and `Content-Length` rules, so that both send the same bytes.
final class PlainHTTPConnections: Sendable {
    private struct Idle {
        var connection: PlainHTTPConnection
        /// Closes it when it has waited ``PlainHTTPConnections/idleTimeout``.
        var timer: Scheduled<Void>
    }

    private struct Pool {
        var idle: [String: [Idle]] = [:]
        /// Exchanges under way, failed as cancelled by ``PlainHTTPConnections/shutdown()``.
        var live: [ObjectIdentifier: PlainHTTPExchange] = [:]
        var isShutDown = false
    }

    /// How long a kept connection waits for the next request, as AsyncHTTPClient's pool does: a
    /// NAT or load balancer may drop a quiet connection without a word, and a request written
    /// into it would wait for TCP to give up.
    static let idleTimeout = TimeAmount.seconds(60)
    /// How many connections are kept per host and port; more are closed.
    static let idlePerOrigin = 8
    private let pool = Mutex(Pool())
    let connectTimeout: TimeAmount
    let group: any EventLoopGroup

    init(connectTimeout: TimeAmount, group: any EventLoopGroup) {
        self.connectTimeout = connectTimeout
        self.group = group
    }

    /// Sends `head` and `body` to `origin` and reads the answer into `delegate`: on a kept
    /// connection to it (one on the caller's event loop first), else on a new one on the caller's
    /// loop, or any loop of the group. The deadline covers connecting, sending and the whole body;
    /// ``cancel(_:)`` fails it with `.cancelled`. After ``shutdown()`` it fails at once.
    func execute(
        _ head: HTTPRequestHead, body: ByteBuffer?, origin: PlainHTTPOrigin, delegate: ResponseBodyDelegate, deadline: NIODeadline?
    ) -> PlainHTTPExchange {
        let closes = head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "close" }
        // The caller's loop when it is one of the group's.
        let preferred = group.any()
        let (connection, isShutDown) = take(origin.connectionKey, preferring: preferred)
        let loop = connection?.channel.eventLoop ?? preferred
        let exchange = PlainHTTPExchange(loop: loop, delegate: delegate, closesConnection: closes)
        guard !isShutDown, track(exchange) else {
            connection?.channel.close(promise: nil)
            exchange.fail(HTTPClientError.alreadyShutdown)
            return exchange
        }
        if loop.inEventLoop {
            start(exchange, on: connection, head: head, body: body, origin: origin, deadline: deadline)
        } else {
            loop.execute { self.start(exchange, on: connection, head: head, body: body, origin: origin, deadline: deadline) }
        }
        return exchange
    }

    /// Keeps `exchange` among those under way until it settles; false after a shutdown.
    private func track(_ exchange: PlainHTTPExchange) -> Bool {
        let key = ObjectIdentifier(exchange)
        let tracked = pool.withLock { pool in
            guard !pool.isShutDown else { return false }
            pool.live[key] = exchange
            return true
        }
        if tracked {
            exchange.promise.futureResult.whenComplete { [weak self] _ in
                _ = self?.pool.withLock { $0.live.removeValue(forKey: key) }
            }
        }
        return tracked
    }

    /// Fails `exchange` as cancelled, on its loop.
    func cancel(_ exchange: PlainHTTPExchange) {
        exchange.loop.execute { exchange.fail(HTTPClientError.cancelled) }
    }

    private func start(
        _ exchange: PlainHTTPExchange, on connection: PlainHTTPConnection?, head: HTTPRequestHead, body: ByteBuffer?,
        origin: PlainHTTPOrigin, deadline: NIODeadline?
    ) {
        if let deadline {
            exchange.timer = exchange.loop.scheduleTask(deadline: deadline) { exchange.fail(HTTPClientError.deadlineExceeded) }
        }
        if let connection {
            exchange.connection = connection
            connection.handler.start(exchange, head: head, body: body)
            return
        }
        connect(origin, on: exchange.loop).whenComplete { result in
            switch result {
            case .success(let connection):
                guard !exchange.isDone else {
                    connection.channel.close(promise: nil)
                    return
                }
                exchange.connection = connection
                connection.handler.start(exchange, head: head, body: body)
            case .failure(ChannelError.connectTimeout):
                exchange.fail(HTTPClientError.connectTimeout)
            case .failure(let error):
                exchange.fail(error)
            }
        }
    }

    private func connect(_ origin: PlainHTTPOrigin, on loop: any EventLoop) -> EventLoopFuture<PlainHTTPConnection> {
        let key = origin.connectionKey
        return ClientBootstrap(group: loop)
            .connectTimeout(connectTimeout)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // The request's fields are checked before (``PlainHTTPRequestHead``), as AsyncHTTPClient checks them.
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(enableOutboundHeaderValidation: false)
                    try channel.pipeline.syncOperations.addHandler(PlainHTTPExchangeHandler())
                }
            }
            .connect(host: origin.host, port: origin.port)
            .flatMapThrowing { channel in
                let handler = try channel.pipeline.syncOperations.handler(type: PlainHTTPExchangeHandler.self)
                let connection = PlainHTTPConnection(channel: channel, handler: handler, key: key)
                handler.pool = self
                handler.closed = { [weak self] in self?.forget(connection) }
                return connection
            }
    }

    /// An open connection to `key`, one on `loop` first, taken out of the pool; and whether the
    /// client is shut down.
    private func take(_ key: String, preferring loop: any EventLoop) -> (PlainHTTPConnection?, isShutDown: Bool) {
        pool.withLock { pool in
            guard !pool.isShutDown else { return (nil, true) }
            guard var kept = pool.idle[key] else { return (nil, false) }
            defer { pool.idle[key] = kept.isEmpty ? nil : kept }
            while let index = kept.lastIndex(where: { $0.connection.channel.eventLoop === loop }) ?? kept.indices.last {
                let idle = kept.remove(at: index)
                idle.timer.cancel()
                if idle.connection.channel.isActive { return (idle.connection, false) }
            }
            return (nil, false)
        }
    }

    /// Keeps `connection` for the next request to its host and port, for ``idleTimeout``; the
    /// oldest kept one goes when there are ``idlePerOrigin``. Closes it after a shutdown. Called
    /// on the connection's loop.
    func park(_ connection: PlainHTTPConnection) {
        let channel = connection.channel
        let timer = channel.eventLoop.scheduleTask(in: Self.idleTimeout) { channel.close(promise: nil) }
        let dropped: [PlainHTTPConnection] = pool.withLock { pool in
            guard !pool.isShutDown else { return [connection] }
            var kept = pool.idle[connection.key, default: []]
            kept.append(Idle(connection: connection, timer: timer))
            let surplus = Array(kept.prefix(max(0, kept.count - Self.idlePerOrigin)))
            kept.removeFirst(surplus.count)
            pool.idle[connection.key] = kept
            return surplus.map { idle in
                idle.timer.cancel()
                return idle.connection
            }
        }
        for connection in dropped { connection.channel.close(promise: nil) }
    }

    private func forget(_ connection: PlainHTTPConnection) {
        pool.withLock { pool in
            pool.idle[connection.key]?.removeAll { idle in
                guard idle.connection.channel === connection.channel else { return false }
                idle.timer.cancel()
                return true
            }
            if pool.idle[connection.key]?.isEmpty == true { pool.idle[connection.key] = nil }
        }
    }

    /// Closes every kept connection and fails the exchanges under way as cancelled; requests sent
    /// after this fail.
    func shutdown() {
        let (idle, live) = pool.withLock { pool in
            defer {
                pool.idle.removeAll()
                pool.live.removeAll()
                pool.isShutDown = true
            }
            return (pool.idle.values.flatMap { $0 }, Array(pool.live.values))
        }
        for kept in idle {
            kept.timer.cancel()
            kept.connection.channel.close(promise: nil)
        }
        for exchange in live { cancel(exchange) }
    }
}
