import Foundation

/// A file written whole or not at all (`call ... > FILE`, `save`, a report): the bytes go to a
/// temporary file beside it, which takes its name only at ``commit()``, so a call that times out
/// or is interrupted neither leaves part of an answer under the name nor loses what was there.
///
/// What cannot be replaced so is written in place, as before: `/dev/null`, a pipe, a terminal,
/// the shell's own standard output or error (`> /dev/stdout` follows what was printed instead of
/// truncating a redirected output), and a file in a directory wsh may not write.
public final class ReplacingFile {
    /// The file named, through a symbolic link to the file it names, so that the link stays.
    private let destination: String
    /// The temporary file renamed to `destination` at the end, nil when written in place.
    private let temporary: String?
    private let descriptor: Int32
    private let ownsDescriptor: Bool

    /// Opens the file for writing; throws the system's `errno` when it cannot.
    public init(path: String) throws(ReplacingFileError) {
        if let stream = Self.standardStream(at: path) {
            (destination, temporary, descriptor, ownsDescriptor) = (path, nil, stream, false)
            return
        }
        ownsDescriptor = true
        var status = stat()
        let exists = stat(path, &status) == 0
        // A file that may not be written is not replaced either, as opening it would fail.
        if exists, access(path, W_OK) != 0 { throw ReplacingFileError(code: errno) }
        if exists, status.st_mode & S_IFMT != S_IFREG {
            (destination, temporary, descriptor) = (path, nil, open(path, O_WRONLY | O_CLOEXEC))
        } else {
            let target = exists ? (realpath(path, nil).map { resolved in defer { free(resolved) }; return String(cString: resolved) } ?? path) : path
            destination = target
            let directory = (target as NSString).deletingLastPathComponent
            let name = ".\((target as NSString).lastPathComponent).wsh-\(UInt32.random(in: 0...UInt32.max))"
            let candidate = directory.isEmpty ? name : directory + "/" + name
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 {
                if exists { _ = fchmod(fd, status.st_mode & 0o7777) }
                (temporary, descriptor) = (candidate, fd)
            } else {
                (temporary, descriptor) = (nil, open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644))
            }
        }
        if descriptor < 0 { throw ReplacingFileError(code: errno) }
    }

    /// Writes every byte, going on after a short write or an interrupted call.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(ReplacingFileError) {
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let count = Glibc.write(descriptor, base + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                throw ReplacingFileError(code: errno)
            }
            offset += count
        }
    }

    /// The whole was written: the file takes its name.
    public func commit() throws(ReplacingFileError) {
        if ownsDescriptor { _ = close(descriptor) }
        guard let temporary else { return }
        if rename(temporary, destination) != 0 {
            let code = errno
            unlink(temporary)
            throw ReplacingFileError(code: code)
        }
    }

    /// The write failed or was cut short: what was there stays, and the part written goes.
    public func discard() {
        if ownsDescriptor { _ = close(descriptor) }
        if let temporary { unlink(temporary) }
    }

    /// Standard output or error when `path` names the same file (`/dev/stdout`, `/proc/self/fd/2`).
    public static func standardStream(at path: String) -> Int32? {
        var file = stat()
        guard stat(path, &file) == 0 else { return nil }
        return [STDOUT_FILENO, STDERR_FILENO].first { stream in
            var open = stat()
            return fstat(stream, &open) == 0 && open.st_dev == file.st_dev && open.st_ino == file.st_ino
        }
    }
}

/// Why a file could not be written, as the system says it (`permission denied`, `no space left on device`).
public struct ReplacingFileError: Error, Sendable {
    public var code: Int32
    public var reason: String { String(cString: strerror(code)).lowercased() }
}
