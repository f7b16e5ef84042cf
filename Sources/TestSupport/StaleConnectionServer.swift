import NIOCore
import NIOPosix
import Synchronization

/// A loopback server whose kept-alive connections go stale: on each connection it answers the
/// first request (200, JSON `{"connection":N}`, kept alive), then closes the connection, unanswered,
/// when a second request arrives on it. So a client's second request on a pooled connection meets a
/// connection the server has just closed, as it does when a server's keep-alive timeout runs out at
/// the moment the request goes out. With `answering: false` it answers nothing: every connection
/// is closed on its first request, as by a server that crashes on it.
public final class StaleConnectionServer: Sendable {
    private let channel: any Channel
    private let counts: Counts

    /// The port the server listens on.
    public let port: Int

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Request heads received, answered or not.
    public var requests: Int { counts.requests.load(ordering: .relaxed) }

    /// Connections accepted.
    public var connections: Int { counts.connections.load(ordering: .relaxed) }

    private init(channel: any Channel, counts: Counts, port: Int) {
        self.channel = channel
        self.counts = counts
        self.port = port
    }

    /// Runs `body` with a fresh server and stops it afterwards, also when `body` throws.
    public static func with<Result>(
        answering: Bool = true, _ body: (StaleConnectionServer) async throws -> Result
    ) async throws -> Result {
        let counts = Counts()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let number = counts.connections.add(1, ordering: .relaxed).newValue
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        StaleConnectionHandler(connection: number, counts: counts, answered: !answering))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = channel.localAddress?.port else {
            try await channel.close()
            throw TestServerError.noPort
        }
        return try await using(StaleConnectionServer(channel: channel, counts: counts, port: port),
                               stoppedBy: { try? await $0.channel.close() }, body)
    }

    fileprivate final class Counts: Sendable {
        let requests = Atomic(0)
        let connections = Atomic(0)
    }
}

private final class StaleConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let connection: Int
    private let counts: StaleConnectionServer.Counts
    private var received: [UInt8] = []
    private var answered: Bool

    init(connection: Int, counts: StaleConnectionServer.Counts, answered: Bool) {
        self.connection = connection
        self.counts = counts
        self.answered = answered
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        received += buffer.readBytes(length: buffer.readableBytes) ?? []
        // One request at a time: the head is enough (the second is never read past it).
        guard let headEnd = received.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
        let length = received[..<headEnd.lowerBound].split(separator: UInt8(ascii: "\n")).lazy
            .map { String(decoding: $0, as: UTF8.self).lowercased() }
            .first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).filter { $0 != " " && $0 != "\r" }) } ?? 0
        // The whole request is read first, so that the client is not still writing when it closes.
        guard received.count >= headEnd.upperBound + length else { return }
        received.removeFirst(headEnd.upperBound + length)
        counts.requests.add(1, ordering: .relaxed)
        guard !answered else {
            context.close(promise: nil)
            return
        }
        answered = true
        let body = Array(#"{"connection":\#(connection)}"#.utf8)
        let reply = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: reply)), promise: nil)
    }
}
