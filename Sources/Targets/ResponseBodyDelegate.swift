import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// Reads one answer: its head, then its body either kept whole in memory (failing once it passes
/// the limit) or, when the request has a ``ResponseBodySink`` that takes it, handed to the sink a
/// piece at a time as it arrives, decoded from its Content-Encoding when asked, with no limit.
/// A redirect that will be followed is always kept in memory: its body is never the answer.
///
/// AsyncHTTPClient calls a delegate on the request's event loop, one callback at a time, and waits
/// for the future each returns before reading on; the lock only satisfies `Sendable`.
final class ResponseBodyDelegate: HTTPClientResponseDelegate {
    /// The head; the body as received, or the sink's copy of it decoded (empty when none was kept);
    /// the bytes as received of a body decoded on its way to a sink that keeps a copy, up to the
    /// limit, for `rawbytes` (nil when none were kept); how many decoded bytes went to the sink,
    /// `nil` when none did; from the request's head written to the answer's end
    /// (``Targets/Response/latency``); when its end was read (``Targets/Response/answeredAt``);
    /// the bytes of the body sent, when an early answer was taken with the rest unsent (``UploadWatch/whenOver(on:deadline:stalled:)``).
    typealias Response = (head: HTTPResponseHead, body: ByteBuffer, raw: ByteBuffer?, streamed: Int?, latency: Duration?,
                          answeredAt: ContinuousClock.Instant, cut: (sent: Int, timedOut: Bool)?)

    private struct State {
        var head: HTTPResponseHead?
        var body: ByteBuffer?
        /// The sink took this answer's body.
        var streaming = false
        var streamed = 0
        /// The sink's copy passed the limit and was let go.
        var copyDropped = false
        /// The coded bytes of a body the pipeline decodes for a sink that keeps a copy, while
        /// within the limit: `rawbytes` reads them.
        var raw: ByteBuffer?
        var pipeline: DecoderPipeline?
        /// When the request's head was written.
        var sent: ContinuousClock.Instant?
        /// When the answer came whole by its framing (an early answer may be held after that).
        var ended: ContinuousClock.Instant?
        /// Body bytes as received, before any decoding.
        var receivedBytes = 0
        /// A step failed, or ``finish()`` was called: the answer is not to be taken again.
        var spent = false
        /// The whole request, body and all, was written.
        var requestSent = false
        /// The bytes of the body written when a held early answer was let go with the rest
        /// unsent, and whether the deadline let it go.
        var cut: (sent: Int, timedOut: Bool)?

        /// Whether the answer is whole by its framing: a head with a Content-Length (and no
        /// Transfer-Encoding) and that many body bytes.
        var isComplete: Bool {
            guard !spent, let head, !head.headers.contains(name: "Transfer-Encoding"),
                  let length = head.headers.first(name: "Content-Length").flatMap(Int.init) else { return false }
            return receivedBytes == length
        }
    }
    private let state = Mutex(State())
    private let sink: (any ResponseBodySink)?
    private let decodes: Bool
    private let followsRedirects: Bool
    private let limit: Int
    private let received: ReceivedBytes?
    /// When the request times out, if it does.
    private let deadline: NIODeadline?
    /// The request body's writer, told what was written and when the answer is whole.
    let upload: UploadWatch

    init(sink: (any ResponseBodySink)?, decodes: Bool, followsRedirects: Bool, limit: Int, received: ReceivedBytes? = nil,
         deadline: NIODeadline? = nil, upload: UploadWatch = UploadWatch()) {
        self.sink = sink
        self.deadline = deadline
        self.upload = upload
        self.received = received
        self.decodes = decodes
        self.followsRedirects = followsRedirects
        self.limit = limit
    }

    /// Whether any answer came: a head, even one the request failed on.
    var receivedHead: Bool { state.withLock { $0.head != nil } }

    /// The status of the answer's head, once it came.
    var status: HTTPResponseStatus? { state.withLock { $0.head?.status } }

    /// Whether the request's head was handed to a connection to be written.
    var sentHead: Bool { state.withLock { $0.sent != nil } }

    /// Whether the whole answer came (by its Content-Length), though the request may yet fail:
    /// AsyncHTTPClient fails an upload the server answered early and then closed.
    var answerIsComplete: Bool { state.withLock { $0.isComplete } }

    func didSendRequestPart(task: HTTPClient.Task<Response>, _ part: IOData) {
        upload.wrote(part.readableBytes)
    }

    /// Tells the upload when the answer is whole and says the body is not wanted: an error (a 401
    /// or 413 before the body was read) or a connection the server closes. A server that answers a
    /// 2xx early on a connection it keeps may still read the body, which is sent whole, as curl does
    /// (RFC 9112 section 9.5).
    private func noteCompletion() {
        let unwanted = state.withLock { state in
            guard state.isComplete else { return false }
            if state.ended == nil { state.ended = .now }
            return state.head.map { $0.status.code >= 400 || !$0.isKeepAlive } ?? false
        }
        if unwanted { upload.stop() }
    }

    func didSendRequestHead(task: HTTPClient.Task<Response>, _ head: HTTPRequestHead) {
        noteSent()
    }

    func didSendRequest(task: HTTPClient.Task<Response>) {
        state.withLock { $0.requestSent = true }
        upload.stop()
    }

    /// Whether the answer came whole early, a 2xx on an HTTP/1 connection the server keeps, while
    /// the body is still being written: the server may read the rest, and the body is sent whole,
    /// as curl does. AsyncHTTPClient ends the exchange when it has handed on the answer's last
    /// piece and refuses the rest of the body after that, so the last piece is held until the
    /// request was sent (``UploadWatch/whenOver(on:deadline:stalled:)``).
    private var holdsEarlyAnswer: Bool {
        state.withLock { state in
            guard state.isComplete, !state.requestSent, let head = state.head else { return false }
            return (200..<300).contains(head.status.code) && head.isKeepAlive && head.version.major == 1
        }
    }

    /// The request's head is written: the answer's latency counts from now.
    func noteSent() {
        state.withLock { $0.sent = .now }
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        Self.future(on: task.eventLoop) {
            try receive(head)
            noteCompletion()
            // AsyncHTTPClient pauses the body itself for any other status, and then ends the
            // stream safely.
            if head.version.major == 2, (200..<300).contains(head.status.code) { upload.hurry() }
        }
    }

    /// What AsyncHTTPClient waits for before it reads on: `step` done, or its error.
    private static func future(on loop: any EventLoop, _ step: () throws -> Void) -> EventLoopFuture<Void> {
        do {
            try step()
            return loop.makeSucceededVoidFuture()
        } catch {
            return loop.makeFailedFuture(error)
        }
    }

    /// Takes the answer's head: whether the sink takes the body, and a Content-Length past the limit.
    func receive(_ head: HTTPResponseHead) throws {
        let failure = state.withLock { state -> (any Error)? in
            state.head = head
            do {
                state.streaming = try streams(head)
            } catch {
                return error
            }
            if state.streaming {
                guard decodes else { return nil }
                let codings = ContentDecoding.codings(in: head.headers.map { Header(received: $0.name, $0.value) })
                guard !codings.isEmpty else { return nil }
                do {
                    state.pipeline = try DecoderPipeline(codings: codings, limit: .max)
                } catch {
                    return error
                }
                return nil
            }
            if let length = head.headers.first(name: "Content-Length").flatMap(Int.init), length > limit {
                return TransportFailure.bodyTooLarge
            }
            return nil
        }
        if let failure {
            state.withLock { $0.spent = true }
            throw failure
        }
    }

    /// Whether the sink takes this answer: never a redirect that will be followed.
    private func streams(_ head: HTTPResponseHead) throws -> Bool {
        guard let sink else { return false }
        let status = Int(head.status.code)
        if followsRedirects, Redirect.isRedirect(status), head.headers.contains(name: "Location") { return false }
        return try sink.begin(status: status, headers: head.headers.map { Header(received: $0.name, $0.value) })
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let taken = Self.future(on: task.eventLoop) {
            try receive(buffer)
            noteCompletion()
        }
        guard holdsEarlyAnswer else { return taken }
        return taken.flatMap {
            self.upload.whenOver(on: task.eventLoop, deadline: self.deadline) { written, pastDeadline in
                self.state.withLock { $0.cut = (written, pastDeadline) }
                task.fail(reason: UploadStopped())
            }
        }
    }

    /// Takes a piece of the body: kept, or decoded and handed to the sink.
    func receive(_ buffer: ByteBuffer) throws {
        received?.add(buffer.readableBytes)
        let failure = state.withLock { state -> (any Error)? in
            state.receivedBytes += buffer.readableBytes
            guard state.streaming else {
                var buffer = buffer
                if state.body == nil { state.body = buffer } else { state.body?.writeBuffer(&buffer) }
                return (state.body?.readableBytes ?? 0) > limit ? TransportFailure.bodyTooLarge : nil
            }
            do {
                let piece = buffer.withUnsafeReadableBytes { Data($0) }
                func write(_ bytes: Data) throws {
                    try sink?.write(bytes)
                    state.streamed += bytes.count
                    keepCopy(of: bytes, in: &state)
                }
                if let pipeline = state.pipeline {
                    keepRaw(buffer, in: &state)
                    try pipeline.decode(piece, emit: write)
                } else {
                    try write(piece)
                }
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            state.withLock { $0.spent = true }
            throw failure
        }
    }

    private func keepRaw(_ buffer: ByteBuffer, in state: inout State) {
        guard sink?.keepsCopy == true else { return }
        if state.receivedBytes > limit {
            state.raw = nil
        } else if state.raw == nil {
            state.raw = buffer
        } else {
            var buffer = buffer
            state.raw?.writeBuffer(&buffer)
        }
    }

    private func keepCopy(of bytes: Data, in state: inout State) {
        guard sink?.keepsCopy == true, !state.copyDropped else { return }
        if state.streamed > limit {
            state.copyDropped = true
            state.body = nil
        } else if state.body == nil {
            state.body = ByteBuffer(bytes: bytes)
        } else {
            state.body?.writeBytes(bytes)
        }
    }

    func didReceiveError(task: HTTPClient.Task<Response>, _ error: any Error) {
        receiveError()
        upload.stop()
    }

    /// The exchange failed: a sink that took the body is ended, unless the whole answer came
    /// (``finish()`` then ends it, as the answer is taken all the same).
    func receiveError() {
        state.withLock { state in
            guard !state.isComplete else { return }
            if state.streaming { try? sink?.end(completed: false) }
            state.streaming = false
        }
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        defer { upload.stop() }
        return try finish()
    }

    /// The whole answer, once its end came.
    func finish() throws -> Response {
        try state.withLock { state in
            state.spent = true
            guard let head = state.head else { throw HTTPClientError.remoteConnectionClosed }
            // An early answer held while its upload went on ended when it came whole.
            let end = state.ended ?? .now
            let latency = state.sent.map { $0.duration(to: end) }
            guard state.streaming else { return (head, state.body ?? ByteBuffer(), nil, nil, latency, end, state.cut) }
            state.streaming = false
            do {
                try state.pipeline?.finish()
            } catch {
                try? sink?.end(completed: false)
                throw error
            }
            try sink?.end(completed: true)
            return (head, state.body ?? ByteBuffer(), state.raw, state.streamed, latency, end, state.cut)
        }
    }
}
