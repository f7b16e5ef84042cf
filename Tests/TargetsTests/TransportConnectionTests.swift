import Foundation
import NIOCore
import NIOPosix
import Synchronization
@testable import Targets
import TestSupport
import Testing

/// What the transport keeps of a connection, its deadlines and its shutdown.
@Suite struct TransportConnectionTests {
    /// After a 101 the decoder reads nothing more: the connection must not serve the next request,
    /// which would wait for an answer that never comes.
    @Test func aConnectionThatAnsweredSwitchingProtocolsIsNotKept() async throws {
        let server = try await UpgradeAnsweringServer.start()
        defer { server.stop() }
        let provider = Provider<Target>(transport: NetworkTransport())
        let target = Target(name: "ws", baseURL: server.baseURL, path: "/socket", headers: [Header(name: "Upgrade", value: "websocket"), Header(name: "Connection", value: "Upgrade")],
                            timeout: .seconds(5))
        #expect(try await provider.request(target).status == 101)
        #expect(try await provider.request(target).status == 101, "the second request went out on a new connection")
        #expect(server.connections == 2)
    }

    /// Each request times out at its own deadline, neither long before nor never, whatever the
    /// deadlines of the requests before it on the same connection.
    @Test func eachRequestTimesOutAtItsOwnDeadline() async throws {
        try await withTestServer { (server: TestServer) async throws in
            let provider = Provider<Target>(transport: NetworkTransport())
            func timesOut(after timeout: Duration) async -> Duration {
                let started = ContinuousClock.now
                let stuck = Target(name: "stuck", baseURL: server.baseURL, path: "/never", timeout: timeout)
                let failure = await providerError { _ = try await provider.request(stuck) }
                #expect(failure?.step == .transport, "\(String(describing: failure))")
                return .now - started
            }
            // Answered at once: the watch is left set for its deadline, 30 s on.
            let quick = Target(name: "quick", baseURL: server.baseURL, path: "/status/200", timeout: .seconds(30))
            #expect(try await provider.request(quick).status == 200)
            let early = await timesOut(after: .milliseconds(300))
            #expect(early >= .milliseconds(290) && early < .seconds(10), "\(early)")
            // Answered with a deadline 5 s on (room for a loaded machine); the next one, started
            // after it with a deadline 6 s on, is due after that watch fires.
            let short = Target(name: "short", baseURL: server.baseURL, path: "/status/200", timeout: .seconds(5))
            #expect(try await provider.request(short).status == 200)
            let later = await timesOut(after: .seconds(6))
            #expect(later >= .milliseconds(5990) && later < .seconds(14), "\(later)")
        }
    }

    /// A request under way when its transport shuts down fails at once, as AsyncHTTPClient's did.
    @Test func shutdownFailsARequestUnderWay() async throws {
        try await withTestServer { server in
            let transport = NetworkTransport()
            let started = AsyncStream<Void>.makeStream()
            let sink = SignallingSink(started.continuation)
            let target = Target(name: "held", baseURL: server.baseURL, path: "/held")
            let request = Task {
                try await Provider<Target>(transport: transport).request(target, streamingBodyTo: sink)
            }
            // The answer's head and first part have come: the request is under way.
            for await _ in started.stream { break }
            try await transport.shutdown()
            let failure = await providerError { _ = try await request.value }
            #expect(failure?.step == .transport, "\(String(describing: failure))")
        }
    }
}

/// Tells when an answer's body begins, and takes it.
private final class SignallingSink: ResponseBodySink {
    let continuation: AsyncStream<Void>.Continuation
    init(_ continuation: AsyncStream<Void>.Continuation) { self.continuation = continuation }
    func begin(status: Int, headers: [Header]) throws -> Bool { true }
    func write(_ piece: Data) throws { continuation.yield() }
    func end() { continuation.finish() }
    var keepsCopy: Bool { false }
}

/// Answers every request with `101 Switching Protocols` and keeps the connection open, as a
/// WebSocket server does; counts connections.
private final class UpgradeAnsweringServer: Sendable {
    private let channel: any Channel
    private let accepted: ConnectionCount
    let port: Int
    var baseURL: String { "http://127.0.0.1:\(port)" }
    var connections: Int { accepted.value.withLock { $0 } }

    private init(channel: any Channel, port: Int, accepted: ConnectionCount) {
        self.channel = channel
        self.port = port
        self.accepted = accepted
    }

    static func start() async throws -> UpgradeAnsweringServer {
        let accepted = ConnectionCount()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                accepted.value.withLock { $0 += 1 }
                return channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(UpgradeAnswer()) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return UpgradeAnsweringServer(channel: channel, port: channel.localAddress?.port ?? 0, accepted: accepted)
    }

    func stop() {
        channel.close(promise: nil)
    }
}

private final class ConnectionCount: Sendable {
    let value = Mutex(0)
}

private final class UpgradeAnswer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private var received: [UInt8] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        received += buffer.readBytes(length: buffer.readableBytes) ?? []
        guard received.firstRange(of: Array("\r\n\r\n".utf8)) != nil else { return }
        received = []
        let answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer)), promise: nil)
    }
}
