import Foundation
import NIOCore
import NIOPosix
import Synchronization
@testable import Targets
import TestSupport
import Testing

/// Failures and limits of the real network transport, against the loopback server.
@Suite struct NetworkTransportTests {
    @Test func refusedConnectionSaysSoAtOnce() async throws {
        // Port 9 (discard), which nothing here listens on: the port of a server just shut down can be
        // taken at once by a server another test starts, and answer.
        let port = 9

        let target = Target(name: "gone", baseURL: "http://127.0.0.1:\(port)", path: "/echo")
        // The wrong behaviour, retrying until the connect timeout, would end after a minute in a
        // timeout, not a refusal: what the failure says tells the two apart, whatever the load.
        let transport = NetworkTransport(connectTimeout: .seconds(60))
        let failure = try #require(await providerError { _ = try await Provider<Target>(transport: transport).request(target) })
        #expect(failure.isConnectionFailure)
        #expect(!failure.isTimeout)
        #expect(failure.step == .transport)
        #expect(failure.description == "could not connect to 127.0.0.1:\(port): connection refused")
        #expect(failure.request?.url == "http://127.0.0.1:\(port)/echo")
    }

    /// A request's byte counter counts the body as it arrives, for the loading spinner.
    @Test func aRequestsCounterCountsTheBodyBytesReceived() async throws {
        try await withTestServer { server in
            let counter = ReceivedBytes()
            var request = Request(method: .get, url: server.baseURL + "/large?bytes=70000")
            request.receivedBytes = counter
            let response = try await NetworkTransport.shared.send(request, for: Target(name: "large", baseURL: server.baseURL, path: "/large"))
            #expect(response.body.count == 70000)
            #expect(counter.value == 70000)
            counter.reset()
            #expect(counter.value == 0)
        }
    }

    @Test(.timeLimit(.minutes(2))) func targetTimeoutEndsARequestThatNeverAnswers() async throws {
        try await withTestServer { server in
            let target = Target(name: "stuck", baseURL: server.baseURL, path: "/never", timeout: .milliseconds(300))
            let clock = ContinuousClock()
            let start = clock.now
            let failure = try #require(await providerError { _ = try await Provider<Target>().request(target) })
            let elapsed = start.duration(to: clock.now)
            #expect(failure.isTimeout)
            #expect(!failure.isConnectionFailure)
            #expect(failure.description == "GET \(server.baseURL)/never timed out after 300 ms")
            // A request the timeout did not end would never end: the test's time limit says so.
            #expect(elapsed >= .milliseconds(250))
        }
    }

    @Test(.timeLimit(.minutes(2))) func timeoutCoversABodyThatStopsComing() async throws {
        try await withTestServer { server in
            let target = Target(name: "stalled", baseURL: server.baseURL, path: "/stall-mid-body", timeout: .milliseconds(300))
            let clock = ContinuousClock()
            let start = clock.now
            let failure = try #require(await providerError { _ = try await Provider<Target>().request(target) })
            let elapsed = start.duration(to: clock.now)
            #expect(failure.isTimeout)
            #expect(failure.description == "GET \(server.baseURL)/stall-mid-body timed out after 300 ms")
            // A request the timeout did not end would never end: the test's time limit says so.
            #expect(elapsed >= .milliseconds(250))
        }
    }

    @Test func sessionTimeoutAppliesWhenTheTargetHasNone() async throws {
        try await withTestServer { server in
            let slow = Target(name: "slow", baseURL: server.baseURL, path: "/slow?ms=3000")
            let failure = await providerError {
                _ = try await Provider<Target>(sessionTimeout: .milliseconds(300)).request(slow)
            }
            #expect(failure?.isTimeout == true)
            let quick = Target(name: "quick", baseURL: server.baseURL, path: "/slow?ms=50")
            let response = try await Provider<Target>(sessionTimeout: .seconds(10)).request(quick)
            #expect(try response.json()["slept_ms"]?.double == 50)
            #expect(response.elapsed >= .milliseconds(40))
        }
    }

    /// A load test's latency: from the request written to the answer's end, within the call's
    /// elapsed time; after redirects, the hops' together.
    @Test func latencyRunsFromTheRequestWrittenToTheAnswersEnd() async throws {
        try await withTestServer { server in
            let slow = try await Provider<Target>().request(Target(name: "slow", baseURL: server.baseURL, path: "/slow?ms=50"))
            let latency = try #require(slow.latency)
            #expect(latency >= .milliseconds(50) && latency <= slow.elapsed, "\(latency) of \(slow.elapsed)")
            let redirected = try await Provider<Target>().request(Target(name: "hops", baseURL: server.baseURL, path: "/redirect?n=2"))
            let hops = try #require(redirected.latency)
            #expect(redirected.hops.count == 2 && hops > .zero && hops <= redirected.elapsed, "\(hops) of \(redirected.elapsed)")
        }
    }

    @Test func cancellingTheTaskCancelsTheRequest() async throws {
        try await withTestServer { server in
            let target = Target(name: "stuck", baseURL: server.baseURL, path: "/never")
            let call = Task { () async -> ProviderError? in
                await providerError { _ = try await Provider<Target>().request(target) }
            }
            // Cancelled once the request is at the server, not after a guess at how long that takes
            // (60 s: a bound only a failure reaches).
            let deadline = ContinuousClock.now + .seconds(60)
            while server.hits("/never") == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
            #expect(server.hits("/never") == 1, "the request reached the server")
            call.cancel()
            let failure = await call.value
            #expect(failure?.isCancelled == true)
            #expect(failure?.isTimeout == false)
        }
    }

    @Test func bodyOverTheLimitIsAClearError() async throws {
        try await withTestServer { server in
            var transport = NetworkTransport.shared
            transport.bodyLimit = 1024
            let provider = Provider<Target>(transport: transport)
            let large = Target(name: "large", baseURL: server.baseURL, path: "/large?bytes=100000")
            let failure = try #require(await providerError { _ = try await provider.request(large) })
            #expect(failure.step == .transport)
            #expect(failure.description == "response to GET \(server.baseURL)/large?bytes=100000 is larger than the limit of 1.0 KB")

            let fits = Target(name: "fits", baseURL: server.baseURL, path: "/large?bytes=1000")
            let response = try await provider.request(fits)
            #expect(response.body.count == 1000)
            #expect(try response.json().string?.count == 998)
        }
    }

    @Test func largeBodiesStreamInWhole() async throws {
        try await withTestServer { server in
            let target = Target(name: "large", baseURL: server.baseURL, path: "/large?bytes=300000")
            let response = try await Provider<Target>().request(target)
            #expect(response.body.count == 300_000)
            #expect(response.header("content-length") == "300000")
        }
    }

    @Test func invalidJSONBodyFailsToDecodeWithAPosition() async throws {
        try await withTestServer { server in
            let target = Target(name: "broken", baseURL: server.baseURL, path: "/invalid-json")
            let response = try await Provider<Target>().request(target)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.text == "{not json")
            let failure = try #require(await providerError { _ = try response.json() })
            #expect(failure.step == .decoding)
            #expect(failure.targetName == "broken")
            #expect(failure.description.contains("line 1, column 2"))
        }
    }

    @Test func redirectsAreFollowedUpToTen() async throws {
        try await withTestServer { server in
            let three = Target(name: "moved", baseURL: server.baseURL, path: "/redirect", task: .query([Parameter(name: "n", defaultValue: .text("3"))]))
            let response = try await Provider<Target>().request(three)
            #expect(response.status == 200)
            #expect(response.text == #"{"redirected":true}"#)
            #expect(server.hits("/redirect") == 4)

            let eleven = Target(name: "loop", baseURL: server.baseURL, path: "/redirect?n=11")
            let failure = await providerError { _ = try await Provider<Target>().request(eleven) }
            #expect(failure?.step == .transport)
            #expect(failure?.description.contains("too many redirects") == true)
        }
    }

    @Test func connectionClosedMidBodyIsATransportError() async throws {
        try await withTestServer { server in
            let target = Target(name: "cut", baseURL: server.baseURL, path: "/close-mid-body", timeout: .seconds(10))
            let failure = try #require(await providerError { _ = try await Provider<Target>().request(target) })
            #expect(failure.step == .transport)
            #expect(!failure.isTimeout)
            #expect(!failure.isConnectionFailure)
            #expect(failure.isConnectionClosed)
            #expect(failure.description.contains("/close-mid-body"))
        }
    }

    @Test func responseCarriesStatusReasonHeadersAndRequest() async throws {
        try await withTestServer(routes: ["/weather": StaticRoute(body: #"{"name":"Suwon"}"#)]) { server in
            let target = Target(name: "weather", baseURL: server.baseURL, path: "/weather")
            let response = try await Provider<Target>().request(target)
            #expect(response.status == 200)
            #expect(response.reason == "OK")
            #expect(response.header("CONTENT-TYPE") == "application/json")
            #expect(response.request.url == server.baseURL + "/weather")
            #expect(response.targetName == "weather")
            #expect(try response.json()["name"] == .string("Suwon"))
        }
    }

    /// Blanks around a field's value are no part of it (RFC 9110 5.5), as curl and Hurl read it:
    /// the parser kept those after it, so `expect header X-Sp == "padded"` failed on `padded  `.
    @Test func aHeaderValueIsReadWithoutTheBlanksAroundIt() async throws {
        let route = StaticRoute(status: 200, headers: [("X-Sp", "  padded \t "), ("Content-Type", "text/plain")], body: Array("x".utf8))
        try await withTestServer(routes: ["/sp": route]) { server in
            let response = try await Provider<Target>().request(Target(name: "sp", baseURL: server.baseURL, path: "/sp"))
            #expect(response.header("X-Sp") == "padded")
        }
    }

    @Test func aHeaderValueThatChangedSinceTheLastRequestIsSentAsGivenAndCheckedAgain() async throws {
        try await withTestServer { server in
            let provider = Provider<Target>(transport: NetworkTransport())
            let target = Target(name: "echo", baseURL: server.baseURL, path: "/echo", headers: [Header(name: "X-Value", value: "one")])
            #expect(try Echo(await provider.request(target)).header("X-Value") == "one")
            // The same URL, method and header names as the last request, another value.
            let changed = CallArguments(headers: [Header(name: "X-Value", value: "two")])
            #expect(try Echo(await provider.request(target, arguments: changed)).header("X-Value") == "two")
            let injected = CallArguments(headers: [Header(name: "X-Value", value: "two\r\nX-Injected: 1")])
            let failure = try #require(await providerError { _ = try await provider.request(target, arguments: injected) })
            #expect(failure.description.contains("the value of header X-Value holds a line break"), "\(failure.description)")
            #expect(try Echo(await provider.request(target)).header("X-Value") == "one")
            #expect(server.hits("/echo") == 3)
        }
    }

    @Test func ownTransportCanBeShutDown() async throws {
        try await withTestServer { server in
            let transport = NetworkTransport()
            let target = Target(name: "own", baseURL: server.baseURL, path: "/status/204")
            #expect(try await Provider<Target>(transport: transport).request(target).status == 204)
            try await transport.shutdown()
            let failure = await providerError { _ = try await Provider<Target>(transport: transport).request(target) }
            #expect(failure?.step == .transport)
        }
    }
}

/// The lifetime of a transport's client and its pooled connections.
@Suite struct NetworkTransportLifetimeTests {
    @Test func aStaleKeptAliveConnectionIsRetriedOnceOnANewOneWhateverTheMethod() async throws {
        try await StaleConnectionServer.with { server in
            let provider = Provider<Target>(transport: NetworkTransport())
            let get = Target(name: "item", baseURL: server.baseURL, path: "/item")
            #expect(try await provider.request(get).body == Data(#"{"connection":1}"#.utf8))
            // The pooled connection is closed, unanswered, as this request goes out: sent again on a new one.
            let again = try await provider.request(get)
            #expect(again.status == 200)
            #expect(again.body == Data(#"{"connection":2}"#.utf8))
            #expect(server.requests == 3)
            #expect(server.connections == 2)
            // A POST too, body and all, as curl and browsers send it again: no answer had begun.
            let post = Target(name: "create", baseURL: server.baseURL, path: "/item", method: .post,
                              task: .data(Data(#"{"a":1}"#.utf8), contentType: "application/json"))
            let created = try await provider.request(post)
            #expect(created.body == Data(#"{"connection":3}"#.utf8))
            #expect(server.requests == 5)
            #expect(server.connections == 3)
        }
    }

    /// A server that closes each connection right after its answer, without `Connection: close`
    /// (as a server may, RFC 9112 9.6): the next GET goes out on the pooled connection as it closes,
    /// fails before any answer ("I/O on closed channel", a reset) and is sent once more on a new
    /// one, as curl does; a redirect's next hop too.
    @Test func aGETAfterAnAnswerWhoseConnectionClosedIsSentOnceMore() async throws {
        let answer = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}".utf8)
        let moved = Array("HTTP/1.1 301 Moved\r\nLocation: /p\r\nContent-Length: 0\r\n\r\n".utf8)
        try await RawReplyServer.with(replies: ["/p": answer, "/moved": moved]) { server in
            let provider = Provider<Target>(transport: NetworkTransport())
            for round in 1...10 {
                let response = try await provider.request(Target(name: "p", baseURL: server.baseURL, path: round.isMultiple(of: 2) ? "/moved" : "/p"))
                #expect(response.status == 200 && response.body == Data("{}".utf8), "round \(round)")
            }
        }
    }

    @Test func aNewConnectionClosedUnansweredIsNotRetried() async throws {
        try await StaleConnectionServer.with(answering: false) { server in
            let provider = Provider<Target>(transport: NetworkTransport())
            let get = Target(name: "item", baseURL: server.baseURL, path: "/item")
            let failure = try #require(await providerError { _ = try await provider.request(get) })
            #expect(failure.isConnectionClosed, "\(failure.description)")
            // No answer from this origin had left a connection open: the closed one was new, not stale.
            #expect(server.requests == 1)
            #expect(server.connections == 1)
        }
    }

    @Test func sequentialRequestsReuseOneKeptAliveConnection() async throws {
        try await withTestServer { server in
            let provider = Provider<Target>(transport: NetworkTransport())
            let target = Target(name: "echo", baseURL: server.baseURL, path: "/echo")
            for _ in 0..<5 {
                _ = try await provider.request(target)
            }
            #expect(server.hits("/echo") == 5)
            #expect(server.connectionsAccepted == 1)
        }
    }

    @Test func droppedTransportShutsItsClientDownByItself() async throws {
        try await withTestServer { server in
            do {
                let transport = NetworkTransport()
                let response = try await Provider<Target>(transport: transport)
                    .request(Target(name: "echo", baseURL: server.baseURL, path: "/echo"))
                #expect(response.status == 200)
                #expect(server.openConnections == 1, "the transport's pool keeps its connection open")
            }
            // Shutting the client down closes its pooled connection; a client left running would keep it
            // for its idle timeout (60 s), far past this wait.
            #expect(await server.openConnectionsClose(within: .seconds(10)))
        }
    }
}

/// Calls to a URL already sent to reuse its parsed form; nothing else carries over.
@Suite struct RepeatedURLTests {
    private struct Echo: Decodable {
        var method: String
        var headers: [[String]]
        var body: String
    }

    private func echo(_ response: Response) throws -> Echo {
        try JSONDecoder().decode(Echo.self, from: response.body)
    }

    @Test func methodHeadersAndBodyAreEachCallsOwn() async throws {
        try await withTestServer { server in
            let provider = Provider<Target>(transport: NetworkTransport())
            let get = Target(name: "get", baseURL: server.baseURL, path: "/echo", headers: [Header(name: "X-Call", value: "one")])
            let post = Target(name: "post", baseURL: server.baseURL, path: "/echo", method: .post,
                              task: .data(Data("hello".utf8), contentType: "text/plain"), headers: [Header(name: "X-Call", value: "two")])
            let first = try echo(try await provider.request(get))
            let second = try echo(try await provider.request(post))
            let third = try echo(try await provider.request(get))
            #expect([first.method, second.method, third.method] == ["GET", "POST", "GET"])
            #expect(first.headers.contains(["X-Call", "one"]) && !first.headers.contains(["X-Call", "two"]))
            #expect(second.headers.contains(["X-Call", "two"]) && !second.headers.contains(["X-Call", "one"]))
            #expect(third.headers.contains(["X-Call", "one"]) && !third.headers.contains(["X-Call", "two"]))
            #expect([first.body, second.body, third.body] == ["", "hello", ""])
        }
    }

    @Test func manyDifferentURLsAllArrive() async throws {
        try await withTestServer { server in
            let provider = Provider<Target>(transport: NetworkTransport())
            for index in 0..<150 {
                let target = Target(name: "n", baseURL: server.baseURL, path: "/echo/\(index % 75)")
                let response = try await provider.request(target)
                #expect(response.request.url == "\(server.baseURL)/echo/\(index % 75)")
            }
            #expect(server.hits("/echo/0") == 2)
            #expect(server.hits("/echo/74") == 2)
        }
    }
}

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
    func end(completed: Bool) { continuation.finish() }
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

/// A library error said in words: a case name spaced, its capitals' runs kept (a newcomer read `invalid u r l`).
@Suite struct ErrorWordingTests {
    enum Sample: Error {
        case invalidURL
        case invalidHeaderFieldNames([String])
        case remoteConnectionClosed
    }

    @Test func caseNamesBecomeWords() {
        #expect(ErrorWording.words(Sample.invalidURL) == "invalid URL")
        #expect(ErrorWording.words(Sample.invalidHeaderFieldNames(["a b"])) == #"invalid header field names: "a b""#)
        #expect(ErrorWording.words(Sample.remoteConnectionClosed) == "remote connection closed")
    }
}
