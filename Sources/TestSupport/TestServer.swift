import NIOCore
import NIOHTTP1
import NIOPosix

/// A loopback HTTP/1.1 server for tests, like AsyncHTTPClient's HTTPBin, with keep-alive.
///
/// Built-in routes (a static route for the same exact path wins):
/// - `/status/CODE`: that status, body `{"status":CODE,"message":"<reason phrase>"}`;
/// - `/echo`, `/echo/...`: any method; `{"method","path","query","headers":[[name,value],...],"body","bodyHex"}`,
///   query and body exactly as received;
/// - `/slow?ms=N`: 200 JSON after N milliseconds; `/never`: no answer at all;
/// - `/close-mid-body`: Content-Length 1000, 10 bytes, then the connection closes;
/// - `/stall-mid-body`: Content-Length 1000, 10 bytes, then nothing more;
/// - `/large?bytes=N`: a JSON string of N bytes, streamed in chunks;
/// - `/flaky/KEY?fail=N&status=503&retry-after=S`: the first N requests for KEY get that status
///   (with Retry-After when given; an HTML page with `&html=1`), later ones 200 `{"ok":true,"attempts":n}`;
/// - `/redirect?n=K`: K redirects (302), then 200 `{"redirected":true}`;
/// - `/pages/link`, `/pages/body`, `/pages/loop`: paged lists (``PageRoutes``);
/// - `/invalid-json`: Content-Type application/json, body `{not json`;
/// - anything else: 404.
public final class TestServer: Sendable {
    private let channel: any Channel
    private let router: Router
    let connections: ServerConnections

    /// The port the server listens on.
    public let port: Int

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private init(channel: any Channel, router: Router, connections: ServerConnections, port: Int) {
        self.channel = channel
        self.router = router
        self.connections = connections
        self.port = port
    }

    /// Starts a server on 127.0.0.1 on a free port, answering `routes` by exact path before the built-in ones.
    public static func start(routes: [String: StaticRoute] = [:]) async throws -> TestServer {
        let router = Router(routes: routes)
        let connections = ServerConnections()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                connections.accept(channel)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(TestServerHandler(router: router))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = channel.localAddress?.port else {
            try await channel.close()
            throw TestServerError.noPort
        }
        return TestServer(channel: channel, router: router, connections: connections, port: port)
    }

    /// How many requests `path` (without its query) has received so far.
    public func hits(_ path: String) -> Int {
        router.hits(path)
    }

    /// A request as the server received it: the server's own log, for tests that must show what
    /// was sent (or never sent).
    public struct LoggedRequest: Sendable, Equatable {
        public var method: String
        public var path: String
        /// The raw query after `?`; empty when there is none.
        public var query: String
        /// The body as UTF-8 text; empty when there was none.
        public var body: String
    }

    /// Every request received so far, in order.
    public var requests: [LoggedRequest] {
        router.received
    }

    /// How many connections the server has accepted so far: with keep-alive, sequential requests share one.
    public var connectionsAccepted: Int {
        connections.acceptedCount
    }

    /// Stops listening and closes every open connection.
    public func shutdown() async throws {
        try await channel.close()
        for connection in connections.open {
            try? await connection.close()
        }
    }
}

/// Why the test server could not start.
public enum TestServerError: Error, Sendable {
    /// The bound socket has no port.
    case noPort
}

extension TestServer {
    /// Runs `body` with a fresh server and shuts it down afterwards, also when `body` throws.
    public static func with<Result>(
        routes: [String: StaticRoute] = [:], _ body: (TestServer) async throws -> Result
    ) async throws -> Result {
        try await using(start(routes: routes), stoppedBy: { try? await $0.shutdown() }, body)
    }
}
