import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// Writes a response's body to a file as it arrives, decoded from its Content-Encoding when asked,
/// with no size limit: each piece is written before the next is read (AsyncHTTPClient waits for
/// the future each callback returns), so memory stays bounded whatever the size. A redirect that
/// will be followed is kept in memory instead, within the limit, as ``CollectingResponseDelegate`` does.
///
/// AsyncHTTPClient calls a delegate on the request's event loop, one callback at a time; the
/// lock only satisfies `Sendable`.
final class FileWritingResponseDelegate: HTTPClientResponseDelegate {
    /// The head; the body of a followed redirect; how many bytes went to the file.
    typealias Response = (head: HTTPResponseHead, body: ByteBuffer, written: Int?)

    /// Why the file could not be written.
    struct WriteFailure: Error {
        var path: String
        var reason: String
    }

    private struct State {
        var head: HTTPResponseHead?
        var kept: ByteBuffer?
        var descriptor: Int32 = -1
        var written = 0
        var pipeline: DecoderPipeline?
        var failure: (any Error)?
    }
    private let state = Mutex(State())
    private let path: String
    private let decodes: Bool
    private let followsRedirects: Bool
    private let limit: Int

    init(path: String, decodes: Bool, followsRedirects: Bool, limit: Int) {
        self.path = path
        self.decodes = decodes
        self.followsRedirects = followsRedirects
        self.limit = limit
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let failure = state.withLock { state -> (any Error)? in
            state.head = head
            if followsRedirects, Redirect.isRedirect(Int(head.status.code)), head.headers.contains(name: "Location") {
                state.kept = ByteBuffer()
                return nil
            }
            if decodes {
                let codings = ContentDecoding.codings(in: head.headers.map { Header(name: $0.name, value: $0.value) })
                if !codings.isEmpty {
                    do {
                        state.pipeline = try DecoderPipeline(codings: codings, limit: .max)
                    } catch {
                        return error
                    }
                }
            }
            state.descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            return state.descriptor < 0 ? WriteFailure(path: path, reason: String(cString: strerror(errno))) : nil
        }
        return failure.map(task.eventLoop.makeFailedFuture) ?? task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let failure = state.withLock { state -> (any Error)? in
            if state.kept != nil {
                var buffer = buffer
                state.kept?.writeBuffer(&buffer)
                return (state.kept?.readableBytes ?? 0) > limit ? TransportFailure.bodyTooLarge : nil
            }
            do {
                let piece = Data(buffer.readableBytesView)
                let bytes = try state.pipeline.map { pipeline throws(ContentDecoding.Failure) in try pipeline.decode(piece) } ?? piece
                try Self.write(bytes, to: state.descriptor, path: path)
                state.written += bytes.count
                return nil
            } catch {
                return error
            }
        }
        return failure.map(task.eventLoop.makeFailedFuture) ?? task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveError(task: HTTPClient.Task<Response>, _ error: any Error) {
        state.withLock { state in Self.close(&state) }
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        try state.withLock { state in
            defer { Self.close(&state) }
            guard let head = state.head else { throw HTTPClientError.remoteConnectionClosed }
            if let kept = state.kept { return (head, kept, nil) }
            try state.pipeline?.finish()
            return (head, ByteBuffer(), state.written)
        }
    }

    private static func close(_ state: inout State) {
        if state.descriptor >= 0 { _ = Glibc.close(state.descriptor) }
        state.descriptor = -1
    }

    /// Writes every byte, going on after a short write or an interrupted call.
    private static func write(_ bytes: Data, to descriptor: Int32, path: String) throws(WriteFailure) {
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let count = Glibc.write(descriptor, base + offset, raw.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += count
            }
        }
        if failure != 0 { throw WriteFailure(path: path, reason: String(cString: strerror(failure))) }
    }
}
