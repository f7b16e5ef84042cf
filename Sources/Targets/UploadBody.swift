import AsyncHTTPClient
import Foundation
import NIOCore

/// A request body written in pieces as the connection takes them, which stops when the answer
/// comes whole before it was sent (``UploadWatch``), and whose end is written only after the last
/// piece left: AsyncHTTPClient's own `.bytes` body waited for ever on an early answer with an
/// empty body (a 401 or 413, then a close) to an upload past 4 MB, and an end still queued when
/// the server closed failed the request before its answer was taken. A 2xx that begins over
/// HTTP/2 before the body was all written gets the rest at once (``UploadWatch/hurry()``).
enum UploadBody {
    /// The size of each piece: small enough that a slow reader completes one well within
    /// ``UploadWatch/stallWindow`` (32 KB/s does), since a piece counts as written only once the
    /// connection took all of it.
    static let pieceSize = 64 * 1024

    static func body(_ data: Data, watch: UploadWatch) -> HTTPClient.Body {
        .stream(contentLength: Int64(data.count)) { writer in
            // Written as AsyncHTTPClient's `.bytes` does: an empty write first learns the loop.
            writer.write(.byteBuffer(ByteBuffer())).flatMapWithEventLoop { _, loop in
                UploadPieces(data, writer: writer, watch: watch, loop: loop).write()
            }
        }
    }
}
