import Foundation

/// Writes an answer's body to a file (`call ... > FILE`), created or emptied when the answer's head
/// arrives; a redirect that is followed never reaches it. Keeps no copy of a body written to a
/// regular file, which the shell reads back for queries when it is small; a body written anywhere
/// else (`> /dev/null`, a pipe, a terminal) cannot be read back, so a copy is kept within the body
/// limit, and none when there is no limit (`set max-body off`: a download to /dev/null stays out of memory).
final class FileBodySink: ResponseBodySink, @unchecked Sendable {
    // Unchecked: the transport calls a sink one call at a time, on one event loop.
    private let path: String
    private var descriptor: Int32 = -1
    let keepsCopy: Bool

    init(path: String, bodyLimit: Int) {
        self.path = path
        var status = stat()
        keepsCopy = bodyLimit < Int.max && stat(path, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG
    }

    func begin(status: Int, headers: [Header]) throws -> Bool {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if descriptor < 0 { throw failure(errno) }
        return true
    }

    /// Writes every byte, going on after a short write or an interrupted call.
    func write(_ piece: Data) throws {
        var error: Int32 = 0
        piece.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let count = Glibc.write(descriptor, base + offset, raw.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    error = errno
                    return
                }
                offset += count
            }
        }
        if error != 0 { throw failure(error) }
    }

    func end() {
        if descriptor >= 0 { _ = close(descriptor) }
        descriptor = -1
    }

    private func failure(_ code: Int32) -> ResponseBodySinkFailure {
        ResponseBodySinkFailure(destination: "'\(path)'", reason: String(cString: strerror(code)))
    }
}
