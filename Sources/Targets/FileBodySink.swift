import Foundation

/// Writes an answer's body to a file (`call ... > FILE`) as it arrives, which takes the file's name
/// only when the whole answer came (``ReplacingFile``); a redirect that is followed never reaches it. Keeps no copy of a body written to a
/// regular file, which the shell reads back for queries when it is small; a body written anywhere
/// else (`> /dev/null`, a pipe, a terminal) cannot be read back, so a copy is kept within the body
/// limit, and none when there is no limit (`set max-body off`: a download to /dev/null stays out of memory).
final class FileBodySink: ResponseBodySink, @unchecked Sendable {
    // Unchecked: the transport calls a sink one call at a time, on one event loop.
    private let path: String
    private var file: ReplacingFile?
    let keepsCopy: Bool

    init(path: String, bodyLimit: Int) {
        self.path = path
        var status = stat()
        keepsCopy = bodyLimit < Int.max && stat(path, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG
    }

    func begin(status: Int, headers: [Header]) throws -> Bool {
        do {
            file = try ReplacingFile(path: path)
        } catch {
            throw failure(error)
        }
        return true
    }

    func write(_ piece: Data) throws {
        do {
            try piece.withUnsafeBytes { try file?.write($0) }
        } catch let error as ReplacingFileError {
            throw failure(error)
        }
    }

    /// A whole answer takes the file's name; a cut one leaves what was there.
    func end(completed: Bool) throws {
        defer { file = nil }
        guard completed else { file?.discard(); return }
        do {
            try file?.commit()
        } catch {
            throw failure(error)
        }
    }

    private func failure(_ error: ReplacingFileError) -> ResponseBodySinkFailure {
        ResponseBodySinkFailure(destination: "'\(path)'", reason: error.reason)
    }
}
