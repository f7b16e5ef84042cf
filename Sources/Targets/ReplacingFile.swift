import Foundation

/// A file written whole or not at all (`call ... > FILE`, `save`, a report): the bytes go to a
/// temporary file beside it, which takes its name only at ``commit()``, so a call that times out
/// or is interrupted neither leaves part of an answer under the name nor loses what was there.
/// Through a symbolic link (dangling too) the file it names is written, and the link stays.
///
/// A file with other names (hard links) or another owner, which a new file would not keep, and
/// one the rename cannot replace (bind-mounted), get the whole copied in at ``commit()``. What
/// cannot be replaced so is written in place, as before: `/dev/null`, a pipe, a terminal, the
/// shell's own standard output or error (`> /dev/stdout` follows what was printed instead of
/// truncating a redirected output), and a file in a directory wsh may not write.
public final class ReplacingFile {
    /// The file written: the one a symbolic link names, so that the link stays.
    private let destination: String
    /// The temporary file renamed (or copied) to `destination` at the end, nil when written in place.
    private let temporary: String?
    /// The whole is copied into `destination` rather than renamed over it: a file with other
    /// names (hard links) or another owner, which a new file would not keep.
    private let copiesIn: Bool
    private let descriptor: Int32
    private let ownsDescriptor: Bool

    /// Opens the file for writing; throws the system's `errno` when it cannot.
    public init(path: String) throws(ReplacingFileError) {
        if let stream = Self.standardStream(at: path) {
            (destination, temporary, descriptor, ownsDescriptor, copiesIn) = (path, nil, stream, false, false)
            return
        }
        ownsDescriptor = true
        destination = Self.linkTarget(path)
        var status = stat()
        let exists = stat(destination, &status) == 0
        // A file that may not be written is not replaced either, as opening it would fail.
        if exists, access(destination, W_OK) != 0 { throw ReplacingFileError(code: errno) }
        let regular = !exists || status.st_mode & S_IFMT == S_IFREG
        let keepsFile = exists && (status.st_nlink > 1 || status.st_uid != geteuid())
        if regular, let (candidate, fd) = Self.temporaryFile(beside: destination, mode: exists ? status.st_mode & 0o7777 : nil) {
            (temporary, descriptor, copiesIn) = (candidate, fd, keepsFile)
        } else {
            (temporary, descriptor, copiesIn) = (nil, open(destination, O_WRONLY | O_CLOEXEC | (regular ? O_CREAT | O_TRUNC : 0), 0o644), false)
        }
        if descriptor < 0 { throw ReplacingFileError(code: errno) }
    }

    /// `.NAME.wsh-NUMBER` beside `path`, created, with `mode` when given; nil when the directory
    /// may not be written.
    private static func temporaryFile(beside path: String, mode: mode_t?) -> (String, Int32)? {
        let directory = FilePaths.directory(of: path)
        let name = ".\((path as NSString).lastPathComponent).wsh-\(UInt32.random(in: 0...UInt32.max))"
        let candidate = directory.isEmpty ? name : directory + "/" + name
        let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        if let mode { _ = fchmod(fd, mode) }
        return (candidate, fd)
    }

    /// The file `path` names through symbolic links, whether it exists or not; `path` when it is none.
    public static func linkTarget(_ path: String) -> String {
        var current = path
        // As many links as the kernel follows (ELOOP past that).
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK,
                  let link = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            let directory = FilePaths.directory(of: current)
            current = link.hasPrefix("/") || directory.isEmpty ? link : directory + "/" + link
        }
        return current
    }

    /// Writes every byte, going on after a short write or an interrupted call.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(ReplacingFileError) {
        let code = Self.writeAll(descriptor, bytes)
        if code != 0 { throw ReplacingFileError(code: code) }
    }

    /// Writes every byte to `fd`; the `errno` of a failure, 0 when all went.
    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let count = Glibc.write(fd, base + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += count
        }
        return 0
    }

    /// The whole was written: the file takes its name.
    public func commit() throws(ReplacingFileError) {
        if ownsDescriptor { _ = close(descriptor) }
        guard let temporary else { return }
        guard copiesIn || rename(temporary, destination) != 0 else { return }
        let code = copiesIn ? 0 : errno
        defer { unlink(temporary) }
        // A file the rename cannot replace (bind-mounted, in another user's sticky directory) gets the whole copied in.
        guard copiesIn || [EPERM, EACCES, EBUSY, EXDEV].contains(code) else { throw ReplacingFileError(code: code) }
        let failure = Self.copy(temporary, over: destination)
        if failure != 0 { throw ReplacingFileError(code: failure) }
    }

    /// Copies `source` over `destination` in place; the `errno` of a failure, 0 when whole.
    private static func copy(_ source: String, over destination: String) -> Int32 {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return errno }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard output >= 0 else { return errno }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count == 0 { return 0 }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            let failure = buffer.withUnsafeBytes { writeAll(output, UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            if failure != 0 { return failure }
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
