import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import Targets

/// An HTTP server that answers declared targets' samples (`wsh serve`, `serve start`): each target
/// is a route by method and path, requests are checked against its parameters, and each is logged.
/// Its routes are replaced whole by ``update(_:)``, so declarations made while it serves take effect
/// on the next request.
public final class MockServer: Sendable {
    /// How a server listens and behaves, fixed when it starts.
    public struct Configuration: Sendable {
        /// The address to listen on; loopback by default, so a mock is not offered to the network by accident.
        public var host: String
        /// The port; 0 picks a free one (``MockServer/port`` says which).
        public var port: Int
        /// Adds CORS headers and answers preflight requests, for a browser app on another origin.
        public var cors: Bool
        /// The largest request body read; a larger one is answered 413.
        public var bodyLimit: Int
        /// Receives one line per request; nil logs nothing.
        public var log: (@Sendable (String) -> Void)?
        /// How long a connection may send nothing while no answer of its is pending (kept alive
        /// unused, or a request sent in part and stopped) before it is closed; 60 s by default, as
        /// Node's `headersTimeout` behind Prism and json-server.
        public var idleTimeout: Duration

        /// A configuration; by default loopback, port 4010 (Prism's), no CORS, 10 MB bodies, no log.
        public init(host: String = "127.0.0.1", port: Int = 4010, cors: Bool = false, bodyLimit: Int = 10 << 20,
                    log: (@Sendable (String) -> Void)? = nil, idleTimeout: Duration = .seconds(60)) {
            self.host = host
            self.port = port
            self.cors = cors
            self.bodyLimit = bodyLimit
            self.log = log
            self.idleTimeout = idleTimeout
        }
    }

    /// Why a server could not start, in the user's terms.
    public struct StartError: Error, CustomStringConvertible {
        /// `cannot listen on 127.0.0.1:4010: address already in use`.
        public let description: String
        /// The port is taken (or not allowed): another port may do.
        public let portUnavailable: Bool
    }

    /// The configuration it was started with.
    public let configuration: Configuration
    private let channel: any Channel
    private let table: Mutex<MockRoutes>
    /// The connections open now, closed by ``stop()``.
    fileprivate let connections = OpenConnections()

    /// The port it listens on (the one picked, when the configuration said 0), kept once bound:
    /// a closed channel has no address, and `serve stop` still names the port.
    public let port: Int

    /// `http://127.0.0.1:4010`.
    public var url: String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "http://\(host):\(port)"
    }

    /// The routes it answers from now.
    public var routes: MockRoutes { table.withLock { $0 } }

    private init(configuration: Configuration, channel: any Channel, routes: MockRoutes) {
        self.configuration = configuration
        self.channel = channel
        self.port = channel.localAddress?.port ?? configuration.port
        self.table = Mutex(routes)
    }

    /// Starts listening; the server answers from `routes` until ``update(_:)`` replaces them.
    public static func start(_ configuration: Configuration, routes: MockRoutes,
                             group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws(StartError) -> MockServer {
        let holder = ServerHolder()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                guard let server = holder.server else { return channel.close() }
                server.connections.add(channel)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: .nanoseconds(configuration.idleTimeout.nanoseconds)))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(MockHTTPHandler(server: server))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        } catch {
            let errno = (error as? IOError)?.errnoCode
            throw StartError(description: "cannot listen on \(configuration.host):\(configuration.port): \(Self.reason(error))",
                             portUnavailable: errno == EADDRINUSE || errno == EACCES)
        }
        let server = MockServer(configuration: configuration, channel: channel, routes: routes)
        holder.server = server
        return server
    }

    /// Replaces the routes; requests read after this answer from the new ones.
    public func update(_ routes: MockRoutes) {
        table.withLock { $0 = routes }
    }

    /// Stops listening; connections already open are closed.
    public func stop() async {
        try? await channel.close()
        for connection in connections.all {
            try? await connection.close()
        }
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? IOError {
            return String(cString: strerror(error.errnoCode)).lowercased()
        }
        if error is SocketAddressError.UnknownHost { return "no such host or address" }
        if let error = error as? SocketAddressError {
            switch error {
            case .unknown(let host, _): return "no such host or address '\(host)'"
            default: return "not an address this machine has"
            }
        }
        return "the address cannot be used"
    }
}

/// The accepted connections that are still open.
private final class OpenConnections: Sendable {
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

    func add(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        channels.withLock { $0[key] = channel }
        channel.closeFuture.whenComplete { [weak self] _ in
            _ = self?.channels.withLock { $0.removeValue(forKey: key) }
        }
    }

    var all: [any Channel] { channels.withLock { Array($0.values) } }
}

/// Lets connections accepted before `start` returns find their server.
private final class ServerHolder: Sendable {
    private let value = Mutex<MockServer?>(nil)
    var server: MockServer? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}

extension Duration {
    /// The whole nanoseconds of this duration, for NIO's timers.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
