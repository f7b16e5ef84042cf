import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Sends requests over the network with AsyncHTTPClient: one client per transport (use ``shared`` for
/// the session) on NIO's singleton event loop group, connections kept alive and pooled per host.
///
/// One request, one answer: a redirect is returned as it came, for the ``Provider`` to follow hop by hop
/// through the plugins. The request's timeout covers the whole exchange, body included. A body longer
/// than the request's ``Request/bodyLimit``, else ``bodyLimit``, is an error. Cancelling the calling
/// Swift task cancels the request. A refused connection fails at once, not after retrying.
public struct NetworkTransport: Transport {
    /// The default limit on a response body: 50 MB.
    public static let defaultBodyLimit = 50 * 1024 * 1024

    /// The transport of the session: created on first use, never shut down, so it is safe at process exit.
    public static let shared = NetworkTransport()

    /// The largest response body accepted, in bytes, for a request that sets no limit of its own.
    public var bodyLimit: Int
    /// The proxy, TLS and HTTP version settings the client was made with.
    public let settings: TransportSettings
    private let owner: HTTPClientOwner

    /// A transport with a client of its own on `eventLoopGroup`, shut down with ``shutdown()`` or when
    /// the last copy goes away. Copies share the client; set ``bodyLimit`` on a copy to change only
    /// that. A caller that runs on an event loop of its own (the shell does) passes that loop, so
    /// that a response resumes it without a change of thread.
    ///
    /// `settings` choose the proxy, TLS trust and client certificate, and HTTP version; the proxy
    /// variables and `SSL_CERT_FILE`/`SSL_CERT_DIR` are read from `environment` here, once. Settings
    /// naming a file that cannot be loaded make https:// requests fail with what is wrong; call
    /// ``TransportSettings/check(environment:)`` first to hear it at once.
    public init(
        settings: TransportSettings = TransportSettings(),
        environment: [String: String] = ProcessInfo.processInfo.environment,
        bodyLimit: Int = defaultBodyLimit, connectTimeout: Duration = .seconds(10),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        var configuration = HTTPClient.Configuration(
            // The provider follows redirects itself (``Redirect``), through the plugins, checking each Location first.
            redirectConfiguration: .disallow,
            timeout: .init(connect: TimeAmount(connectTimeout))
        )
        // A shell should say "connection refused" at once; the retry plugin retries if asked to.
        configuration.connectionPool.retryConnectionEstablishment = false
        // AsyncHTTPClient opens at most 8 connections to a host by default and queues the rest:
        // `wsh load` with 100 users would measure that queue as the server's latency.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1024
        // Spans for a tracer nobody installed cost about a twentieth of a loopback call.
        configuration.tracing.tracer = nil
        self.bodyLimit = bodyLimit
        self.settings = settings
        self.owner = HTTPClientOwner(
            configuration: configuration, settings: settings, environment: environment, eventLoopGroup: eventLoopGroup)
    }

    /// Shuts the client down; requests sent after this fail. Do not call it on ``shared``.
    public func shutdown() async throws {
        try await owner.client.shutdown()
        for client in owner.proxied?.made ?? [] {
            try await client.shutdown()
        }
    }

    /// Sends `request` and reads the whole body, decoding its `Content-Encoding` when the request
    /// asks for that (``Request/decodesContent``); the decoded size counts against the limit. A body
    /// the request's file or sink takes goes there as it arrives instead (``ResponseBodySink``).
    /// Throws at step `.transport`: ``ProviderError/isTimeout`` past the request's timeout,
    /// ``ProviderError/isConnectionFailure`` when no connection could be made,
    /// ``ProviderError/isCancelled`` when the task was cancelled.
    public func send<T: TargetType>(_ request: Request, for target: T) async throws(ProviderError) -> Response {
        let clock = ContinuousClock()
        let start = clock.now
        // Checked here too, for callers of this public API: the client traps on a port past 65535.
        if let problem = URLPort.problem(in: request.url) {
            throw ProviderError(.invalidURL(request.url, reason: problem), step: .transport, targetName: target.name)
        }
        if let problem = RequestHeaderCheck.problem(in: request.headers) {
            throw .other("cannot send \(request.summary): \(problem)", step: .transport, targetName: target.name)
        }
        let limit = request.bodyLimit ?? bodyLimit
        let deadline = request.timeout.map { NIODeadline.now() + TimeAmount($0) }
        let sink = request.responseBodyFile.map { FileBodySink(path: $0, bodyLimit: limit) } ?? request.responseBodySink
        let makeDelegate = {
            ResponseBodyDelegate(sink: sink, decodes: request.decodesContent, followsRedirects: request.followsRedirects, limit: limit,
                                 received: request.receivedBytes, deadline: deadline)
        }
        let answer: ResponseBodyDelegate.Response, received: Data, raw: Data?, sentAgain: Bool
        do {
            (answer, sentAgain) = try await Self.exchange(request, owner: owner, makeDelegate: makeDelegate, deadline: deadline)
            // From the bytes: `Data(readableBytesView)` took the generic sequence path, with a dynamic cast.
            received = answer.body.withUnsafeReadableBytes { Data($0) }
            raw = answer.raw.map { $0.withUnsafeReadableBytes { Data($0) } }
        } catch {
            throw TransportFailure.providerError(for: error, request: request, targetName: target.name, bodyLimit: limit)
        }
        let returned = clock.now
        let head = answer.head
        let headers = head.headers.map { Header(received: $0.name, $0.value) }
        // A streamed body was decoded piece by piece on its way to the sink.
        let body = request.decodesContent && answer.streamed == nil
            ? try ContentDecoding.decode(received, headers: headers, limit: limit, request: request, targetName: target.name)
            : received
        var response = Response(
            status: Int(head.status.code), reason: head.status.reasonPhrase, headers: headers, body: body,
            // To the answer's end and the decoding after it, without any time an early answer
            // was held while its upload went on. The bytes as they came, for `rawbytes`: a body
            // streamed and decoded on its way keeps them only when the delegate did.
            rawBody: raw ?? (answer.streamed != nil && request.decodesContent && !ContentDecoding.codings(in: headers).isEmpty ? Data() : received),
            elapsed: start.duration(to: answer.answeredAt) + returned.duration(to: clock.now), request: request,
            targetName: target.name, httpVersion: head.version.wireName)
        response.streamedBodyBytes = answer.streamed
        response.latency = answer.latency
        response.answeredAt = answer.answeredAt
        response.uploadCut = answer.cut.map { UploadCut(sent: $0.sent, total: request.body?.count ?? 0, timedOut: $0.timedOut) }
        response.sentAgain = sentAgain
        return response
    }

    /// What the delegate makes of the answer.
    ///
    /// Uses AsyncHTTPClient's delegate API rather than its async `execute`, which starts an
    /// unstructured task per request on the global executor: that task cost a thread wake-up
    /// per call, about a tenth of a loopback call's time. The request's timeout is AsyncHTTPClient's
    /// deadline, which covers the body too (a test holds it to that), not a task racing the request.
    ///
    /// A request that meets a connection closed before any answer (``isClosedConnection(_:)``), when the last answer from that
    /// origin had left its connection open (so the request went out on that kept-alive connection,
    /// which the server closed meanwhile), is sent once more on a new connection, whatever its
    /// method, as curl and browsers do. The server's close can arrive after the answer and still be
    /// unread when the next request takes the connection (the shell runs on the event loop, which
    /// reads its sockets only between turns), so nothing can tell a stale connection before it is
    /// used. The body is in memory, so it is sent again whole. A closed connection that is not
    /// retried is a ``ClosedConnection``.
    private static func exchange(
        _ request: Request, owner: HTTPClientOwner, makeDelegate: () -> ResponseBodyDelegate,
        deadline: NIODeadline?, isolation: isolated (any Actor)? = #isolation
    ) async throws -> (answer: ResponseBodyDelegate.Response, sentAgain: Bool) {
        // The names were checked to be tokens (``RequestHeaderCheck``).
        let headers = HTTPHeaders(request.headers.map { ($0.name, $0.value) })
        var outgoing = try HTTPClient.Request(url: request.url, method: NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue))
        outgoing.headers = headers
        let route = try owner.route(for: outgoing)
        // Plain http through an HTTP proxy goes with its whole URL as the target, not through a tunnel.
        let forwarded = try route.proxy.flatMap { proxy in
            proxy.kind == .http && outgoing.scheme == "http" ? try ProxyForwarding.plan(outgoing, body: request.body, via: proxy) : nil
        }
        func send(_ delegate: ResponseBodyDelegate) async throws -> ResponseBodyDelegate.Response {
            guard let forwarded else {
                var attempt = outgoing
                attempt.body = request.body.map { UploadBody.body($0, watch: delegate.upload) }
                do {
                    return try await execute(attempt, on: route, delegate: delegate, deadline: deadline)
                } catch where delegate.answerIsComplete {
                    // AsyncHTTPClient fails an upload the server answered early and closed (the end of
                    // the body still queued on the closed connection, or an early 2xx), and
                    // ``UploadBody`` stops one whose answer came whole: the answer is taken all the same.
                    return try delegate.finish()
                }
            }
            return try await ProxyForwarding.send(
                forwarded, delegate: delegate, deadline: deadline, connectTimeout: owner.connectTimeout,
                group: route.client.eventLoopGroup)
        }
        let delegate = makeDelegate()
        do {
            let answer = try await send(delegate)
            owner.keptAlive.note(answer.head, answering: outgoing)
            return (answer, false)
        } catch where isClosedConnection(error) {
            let keptAlive = forwarded == nil && owner.keptAlive.forget(outgoing)
            let answered = delegate.receivedHead
            guard keptAlive, !answered else {
                throw await closed(error, route: route, outgoing: outgoing, deadline: deadline, answered: answered, sentHead: delegate.sentHead,
                                   forwarded: forwarded != nil)
            }
        } catch {
            throw await route.explained(error, for: outgoing, deadline: deadline)
        }
        let again = makeDelegate()
        do {
            let answer = try await send(again)
            owner.keptAlive.note(answer.head, answering: outgoing)
            return (answer, true)
        } catch where isClosedConnection(error) {
            throw await closed(error, route: route, outgoing: outgoing, deadline: deadline, answered: again.receivedHead, sentHead: again.sentHead,
                               forwarded: forwarded != nil)
        } catch {
            throw await route.explained(error, for: outgoing, deadline: deadline)
        }
    }

    /// A closed connection said as one (``ClosedConnection``), unless the route explains it (a
    /// proxy's failure). Through a proxy, a connection closed before the request went out was the
    /// proxy's (before the tunnel was open), and a plain http request's connection is always the proxy's.
    private static func closed(
        _ error: any Error, route: Route, outgoing: HTTPClient.Request, deadline: NIODeadline?, answered: Bool, sentHead: Bool, forwarded: Bool
    ) async -> any Error {
        let explained = await route.explained(error, for: outgoing, deadline: deadline)
        guard !(explained is RouteFailure) else { return explained }
        if let proxy = route.proxy, proxy.kind == .http, !answered, forwarded || !sentHead {
            let target = ProxyServer(kind: .http, host: outgoing.host, port: outgoing.port)
            return RouteFailure(message: forwarded
                ? "the proxy at \(proxy) closed the connection without answering \(outgoing.method.rawValue) \(outgoing.url.absoluteString)"
                : "the proxy at \(proxy) closed the connection before opening a tunnel (CONNECT) to \(target)")
        }
        return ClosedConnection(answered: answered)
    }

    /// Whether `error` says the connection was gone under the request: closed before an answer,
    /// closed as the request was written to it (a server that closes right after its answer
    /// without `Connection: close`: NIO's "I/O on closed channel"), reset, or a broken pipe.
    static func isClosedConnection(_ error: any Error) -> Bool {
        switch error {
        case let error as HTTPClientError: error == .remoteConnectionClosed
        case let error as ChannelError: error == .ioOnClosedChannel || error == .alreadyClosed || error == .outputClosed || error == .eof
        case let error as IOError: error.errnoCode == ECONNRESET || error.errnoCode == EPIPE
        default: false
        }
    }

    /// Sends `outgoing` once through `route`'s client.
    private static func execute(
        _ outgoing: HTTPClient.Request, on route: Route, delegate: ResponseBodyDelegate, deadline: NIODeadline?,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> ResponseBodyDelegate.Response {
        // An upload that may go over HTTP/2 (only TLS negotiates it) is read on its connection's
        // loop, so that the answer's head can hurry the body (``UploadWatch/hurry()``) before
        // AsyncHTTPClient reads the answer's end. A client of one loop (the session's, `wsh
        // load`'s) has everything on it already; pinning there would only cost a new connection
        // per upload (AsyncHTTPClient closes a pinned request's own connection once idle).
        let hurries = outgoing.body != nil && outgoing.useTLS && !(route.client.eventLoopGroup is any EventLoop)
        let task = route.client.execute(
            request: outgoing, delegate: delegate,
            eventLoop: hurries ? .delegateAndChannel(on: route.client.eventLoopGroup.any()) : .indifferent, deadline: deadline)
        // A caller on another thread resumes one turn of the loop later: by then the connection
        // is back in the pool, so its next request cannot open a second one. A caller on the loop
        // (the shell) resumes after this turn anyway.
        let settled = task.eventLoop.inEventLoop
            ? task.futureResult
            : task.futureResult.flatMap { response in task.eventLoop.submit { response } }
        return try await withTaskCancellationHandler {
            // Capturing `isolation` keeps this closure on the caller's executor; without it the
            // closure, and the resumption below, would run on the global executor. For the same
            // reason this is not `EventLoopFuture.get()`.
            _ = isolation
            return try await withUnsafeThrowingContinuation {
                (continuation: UnsafeContinuation<ResponseBodyDelegate.Response, any Error>) in
                settled.whenComplete { continuation.resume(with: $0) }
            }
        } onCancel: {
            task.cancel()
            // After the cancel, on the same loop: an early answer held for its upload is let go.
            task.eventLoop.execute { delegate.upload.stop() }
        }
    }
}

extension TimeAmount {
    /// The same span, to the nanosecond; one past `Int64` nanoseconds (292 years) saturates.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else {
            self = .nanoseconds(seconds < 0 ? .min : .max)
            return
        }
        let (total, overflowAdding) = nanoseconds.addingReportingOverflow(attoseconds / 1_000_000_000)
        self = .nanoseconds(overflowAdding ? .max : total)
    }
}
