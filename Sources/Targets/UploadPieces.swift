import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// The pieces of one ``UploadBody``, handed to the writer one at a time as the connection takes
/// them, or all that are left at once when the watch hurries (``UploadWatch/hurry()``). Both run
/// on the request's event loop; the lock only satisfies `Sendable`.
final class UploadPieces: Sendable {
    private struct State {
        /// Where the next piece starts.
        var offset = 0
        /// The body's end was decided: written after the last piece, hurried, or failed.
        var ended = false
    }
    private let state = Mutex(State())
    private let data: Data
    private let writer: HTTPClient.Body.StreamWriter
    private let watch: UploadWatch
    private let loop: any EventLoop
    private let end: EventLoopPromise<Void>

    init(_ data: Data, writer: HTTPClient.Body.StreamWriter, watch: UploadWatch, loop: any EventLoop) {
        self.data = data
        self.writer = writer
        self.watch = watch
        self.loop = loop
        end = loop.makePromise()
    }

    /// Writes the body; the future ends it (AsyncHTTPClient then writes the end), or fails the request.
    func write() -> EventLoopFuture<Void> {
        watch.onHurry { self.writeRest() }
        writeNext()
        return end.futureResult
    }

    /// The next piece, written once the connection took the one before.
    private func writeNext() {
        guard let piece = nextPiece() else {
            watch.allWritten(data.count, on: loop).whenComplete(finish)
            return
        }
        watch.unlessAnswered(writer.write(.byteBuffer(piece.bytes))).hop(to: loop).whenComplete { result in
            guard case .success = result else { return self.finish(result) }
            // Pieces the connection takes at once complete at once: every eighth goes through the
            // loop, so that a large body does not recurse deep.
            guard piece.end / UploadBody.pieceSize % 8 == 0 else { return self.writeNext() }
            self.loop.execute { self.writeNext() }
        }
    }

    /// Every piece not yet written, at once, then the end: the connection keeps what it cannot
    /// send yet.
    private func writeRest() {
        while let piece = nextPiece() {
            _ = writer.write(.byteBuffer(piece.bytes))
        }
        finish(.success(()))
    }

    /// The piece from the offset on, which then moves past it; nil when the body was all handed
    /// over, or ended.
    private func nextPiece() -> (bytes: ByteBuffer, end: Int)? {
        state.withLock { state in
            guard !state.ended, state.offset < data.count else { return nil }
            let end = min(state.offset + UploadBody.pieceSize, data.count)
            defer { state.offset = end }
            return (ByteBuffer(bytes: data[data.startIndex + state.offset ..< data.startIndex + end]), end)
        }
    }

    /// Ends the body the first time, with `result`; later calls (a wait that settles after a hurry) do nothing.
    private func finish(_ result: Result<Void, any Error>) {
        let first = state.withLock { state in
            defer { state.ended = true }
            return !state.ended
        }
        if first { end.completeWith(result) }
    }
}
