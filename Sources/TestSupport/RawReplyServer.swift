import NIOCore
import NIOPosix

/// A loopback TCP server that answers each request with exact bytes chosen by its path, then
/// closes: for answers no HTTP library would write (garbage, HTTP/0.9, a redirect to port 99999,
/// control characters). Any request's head is read up to its blank line; an unknown path gets a 404.
public final class RawReplyServer: Sendable {
    private let channel: any Channel

    /// The port the server listens on.
    public let port: Int

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private init(channel: any Channel, port: Int) {
        self.channel = channel
        self.port = port
    }

    /// Starts a server on 127.0.0.1 on a free port answering `replies` by path (without the query).
    /// With a `greeting`, each connection is sent it as soon as it opens, then closed, before any
    /// request: a server that speaks first (as one that is not HTTP, or a plain HTTP error page).
    public static func start(replies: [String: [UInt8]], greeting: [UInt8]? = nil) async throws -> RawReplyServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RawReplyHandler(replies: replies, greeting: greeting))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = channel.localAddress?.port else {
            try await channel.close()
            throw TestServerError.noPort
        }
        return RawReplyServer(channel: channel, port: port)
    }

    /// An HTTP/1.1 answer with these header lines and body, Content-Length added: `headers` are
    /// written as given, so they may be anything a test needs.
    public static func response(status: String = "200 OK", headers: [String] = [], body: [UInt8] = []) -> [UInt8] {
        let head = (["HTTP/1.1 \(status)"] + headers + ["Content-Length: \(body.count)", "Connection: close"])
            .joined(separator: "\r\n") + "\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// Runs `body` with a fresh server and stops it afterwards, also when `body` throws.
    public static func with<Result>(
        replies: [String: [UInt8]], greeting: [UInt8]? = nil, _ body: (RawReplyServer) async throws -> Result
    ) async throws -> Result {
        try await using(start(replies: replies, greeting: greeting), stoppedBy: { try? await $0.channel.close() }, body)
    }
}

private final class RawReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let replies: [String: [UInt8]]
    private let greeting: [UInt8]?
    private var received: [UInt8] = []

    init(replies: [String: [UInt8]], greeting: [UInt8]?) {
        self.replies = replies
        self.greeting = greeting
    }

    func channelActive(context: ChannelHandlerContext) {
        guard let greeting else { return }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: greeting)))
            .whenComplete { _ in bound.value.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        received += buffer.readBytes(length: buffer.readableBytes) ?? []
        guard let headEnd = received.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
        let requestLine = received[..<headEnd.lowerBound].split(separator: UInt8(ascii: "\r")).first ?? []
        let target = requestLine.split(separator: UInt8(ascii: " ")).dropFirst().first ?? []
        let path = String(decoding: target.prefix { $0 != UInt8(ascii: "?") }, as: UTF8.self)
        let reply = replies[path] ?? RawReplyServer.response(status: "404 Not Found")
        received.removeAll()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: reply)))
            .whenComplete { _ in bound.value.close(promise: nil) }
    }
}
