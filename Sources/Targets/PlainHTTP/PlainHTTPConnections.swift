import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// wsh's own HTTP/1.1 client for plain `http://` requests that go straight to the server: the
/// calls a shell makes most, one at a time. It keeps connections alive, one pool per host and port,
/// and takes only what a request needs: NIO's HTTP/1 codec and one handler, without AsyncHTTPClient's
/// request state machines (docs/dev/performance.md says what that was measured to save). HTTPS, proxies and
/// IPv6 literals stay with AsyncHTTPClient. The request is framed as AsyncHTTPClient frames it:
/// the same header checks, `host`, and `Content-Length` rules, so that both send the same bytes.
final class PlainHTTPConnections: Sendable {
    private struct Idle {
        var connection: PlainHTTPConnection
        /// When it is closed: ``PlainHTTPConnections/idleTimeout`` after it was parked.
        var closesAt: NIODeadline
    }

    private struct Pool {
        var idle: [String: [Idle]] = [:]
        /// Exchanges under way, failed as cancelled by ``PlainHTTPConnections/shutdown()`` and
        /// at their deadlines by the watch.
        var live: [ObjectIdentifier: PlainHTTPExchange] = [:]
        var isShutDown = false
        /// A sweep of the idle connections is scheduled.
        var sweeping = false
        /// When the scheduled watch over deadlines fires, if one is scheduled.
        var watchingUntil: NIODeadline?
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
        let exchange = PlainHTTPExchange(loop: loop, delegate: delegate, closesConnection: closes, deadline: deadline)
        guard !isShutDown, track(exchange) else {
            connection?.channel.close(promise: nil)
            exchange.fail(HTTPClientError.alreadyShutdown)
            return exchange
        }
        if loop.inEventLoop {
            start(exchange, on: connection, head: head, body: body, origin: origin)
        } else {
            loop.execute { self.start(exchange, on: connection, head: head, body: body, origin: origin) }
        }
        return exchange
    }

    /// Keeps `exchange` among those under way until it settles (``untrack(_:)``), and has the
    /// watch fire by its deadline; false after a shutdown.
    private func track(_ exchange: PlainHTTPExchange) -> Bool {
        exchange.pool = self
        let (tracked, watch) = pool.withLock { pool -> (Bool, NIODeadline?) in
            guard !pool.isShutDown else { return (false, nil) }
            pool.live[ObjectIdentifier(exchange)] = exchange
            guard let deadline = exchange.deadline, pool.watchingUntil.map({ deadline < $0 }) ?? true else { return (true, nil) }
            pool.watchingUntil = deadline
            return (true, deadline)
        }
        if let watch { scheduleWatch(at: watch, on: exchange.loop) }
        return tracked
    }

    /// Forgets a settled exchange.
    func untrack(_ exchange: PlainHTTPExchange) {
        _ = pool.withLock { $0.live.removeValue(forKey: ObjectIdentifier(exchange)) }
    }

    // One watch for the deadlines of all the exchanges, rather than a timer for each scheduled
    // and cancelled on every call:
    // the exchanges of a session share one timeout, so a later one's deadline is later, and
    // the watch is moved only when it fires, to the next deadline still under way.

    private func scheduleWatch(at deadline: NIODeadline, on loop: any EventLoop) {
        loop.scheduleTask(deadline: deadline) { [weak self] in self?.watchDeadlines(on: loop) }
    }

    /// Fails the exchanges whose deadline has come, and schedules the watch for the next one.
    private func watchDeadlines(on loop: any EventLoop) {
        let now = NIODeadline.now()
        let (due, next) = pool.withLock { pool -> ([PlainHTTPExchange], NIODeadline?) in
            // A watch for an earlier deadline replaced this one's.
            guard let until = pool.watchingUntil, until <= now else { return ([], nil) }
            var due: [PlainHTTPExchange] = []
            var next: NIODeadline?
            for exchange in pool.live.values {
                guard let deadline = exchange.deadline else { continue }
                if deadline <= now {
                    due.append(exchange)
                } else if next.map({ deadline < $0 }) ?? true {
                    next = deadline
                }
            }
            pool.watchingUntil = next
            return (due, next)
        }
        for exchange in due { exchange.loop.execute { exchange.fail(HTTPClientError.deadlineExceeded) } }
        if let next { scheduleWatch(at: next, on: loop) }
    }

    /// Fails `exchange` as cancelled, on its loop.
    func cancel(_ exchange: PlainHTTPExchange) {
        exchange.loop.execute { exchange.fail(HTTPClientError.cancelled) }
    }

    private func start(
        _ exchange: PlainHTTPExchange, on connection: PlainHTTPConnection?, head: HTTPRequestHead, body: ByteBuffer?,
        origin: PlainHTTPOrigin
    ) {
        // Failed before it started (its deadline had passed, or a cancel): the connection it
        // took carries nothing and is closed, and no request goes out for it.
        guard !exchange.isDone else {
            connection?.channel.close(promise: nil)
            return
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
                    // NIO's client handlers with wsh's writer for NIO's encoder; the request's fields are
                    // checked before (``PlainHTTPRequestHead``), as AsyncHTTPClient checks them.
                    try channel.pipeline.syncOperations.addHandlers([
                        PlainHTTPRequestWriter(), ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes)),
                        PlainHTTPExchangeHandler(),
                    ])
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
                if idle.connection.channel.isActive { return (idle.connection, false) }
            }
            return (nil, false)
        }
    }

    /// Keeps `connection` for the next request to its host and port, for ``idleTimeout``; the
    /// oldest kept one goes when there are ``idlePerOrigin``. Closes it after a shutdown. Called
    /// on the connection's loop.
    func park(_ connection: PlainHTTPConnection) {
        let now = NIODeadline.now()
        let (dropped, sweep): ([PlainHTTPConnection], Bool) = pool.withLock { pool in
            guard !pool.isShutDown else { return ([connection], false) }
            var kept = pool.idle[connection.key, default: []]
            kept.append(Idle(connection: connection, closesAt: now + Self.idleTimeout))
            let surplus = kept.prefix(max(0, kept.count - Self.idlePerOrigin)).map(\.connection)
            kept.removeFirst(surplus.count)
            pool.idle[connection.key] = kept
            defer { pool.sweeping = true }
            return (surplus, !pool.sweeping)
        }
        for connection in dropped { connection.channel.close(promise: nil) }
        if sweep { scheduleSweep(at: now + Self.idleTimeout, on: connection.channel.eventLoop) }
    }

    // One sweep closes the connections that have waited long enough, rather than a timer for each
    // parked connection, scheduled on every call and cancelled on the next.

    private func scheduleSweep(at deadline: NIODeadline, on loop: any EventLoop) {
        loop.scheduleTask(deadline: deadline) { [weak self] in self?.sweepIdle(on: loop) }
    }

    /// Closes the kept connections that have waited ``idleTimeout``, and schedules the sweep for
    /// the next one to come due.
    private func sweepIdle(on loop: any EventLoop) {
        let now = NIODeadline.now()
        let (expired, next) = pool.withLock { pool -> ([PlainHTTPConnection], NIODeadline?) in
            var expired: [PlainHTTPConnection] = []
            var next: NIODeadline?
            for (key, kept) in pool.idle {
                var waiting: [Idle] = []
                for idle in kept {
                    if idle.closesAt <= now {
                        expired.append(idle.connection)
                    } else {
                        waiting.append(idle)
                        if next.map({ idle.closesAt < $0 }) ?? true { next = idle.closesAt }
                    }
                }
                pool.idle[key] = waiting.isEmpty ? nil : waiting
            }
            pool.sweeping = next != nil
            return (expired, next)
        }
        for connection in expired { connection.channel.close(promise: nil) }
        if let next { scheduleSweep(at: next, on: loop) }
    }

    private func forget(_ connection: PlainHTTPConnection) {
        pool.withLock { pool in
            pool.idle[connection.key]?.removeAll { $0.connection.channel === connection.channel }
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
            kept.connection.channel.close(promise: nil)
        }
        for exchange in live { cancel(exchange) }
    }
}
