import AsyncHTTPClient
import Foundation
import NIOCore

/// A request body written in pieces as the connection takes them, which stops when the answer
/// comes whole before it was sent (``UploadWatch``), and whose end is written only after the last
/// piece left: AsyncHTTPClient's own `.bytes` body waited for ever on an early answer with an
/// empty body (a 401 or 413, then a close) to an upload past 4 MB, and an end still queued when
/// the server closed failed the request before its answer was taken.
enum UploadBody {
    /// The size of each piece: small enough that a slow reader completes one well within
    /// ``UploadWatch/stallWindow`` (32 KB/s does), since a piece counts as written only once the
    /// connection took all of it.
    static let pieceSize = 64 * 1024

    static func body(_ data: Data, watch: UploadWatch) -> HTTPClient.Body {
        .stream(contentLength: Int64(data.count)) { writer in
            // Written as AsyncHTTPClient's `.bytes` does: an empty write first learns the loop.
            writer.write(.byteBuffer(ByteBuffer())).flatMapWithEventLoop { _, loop in
                write(data, from: 0, to: writer, watch: watch, on: loop)
            }
        }
    }

    private static func write(
        _ data: Data, from offset: Int, to writer: HTTPClient.Body.StreamWriter, watch: UploadWatch, on loop: any EventLoop
    ) -> EventLoopFuture<Void> {
        guard offset < data.count else { return watch.allWritten(data.count, on: loop) }
        let end = min(offset + pieceSize, data.count)
        let piece = ByteBuffer(bytes: data[data.startIndex + offset ..< data.startIndex + end])
        return watch.unlessAnswered(writer.write(.byteBuffer(piece))).hop(to: loop).flatMap {
            // Pieces the connection takes at once complete at once: every eighth goes through the
            // loop, so that a large body does not recurse deep.
            guard (end / pieceSize) % 8 == 0 else { return write(data, from: end, to: writer, watch: watch, on: loop) }
            return loop.flatSubmit { write(data, from: end, to: writer, watch: watch, on: loop) }
        }
    }
}
