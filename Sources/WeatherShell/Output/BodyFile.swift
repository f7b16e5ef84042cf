import Foundation
import Plugins

/// `call ... > FILE`: the body written to a file, relative to the current directory as a shell does.
enum BodyFile {
    /// Writes `body` to `path`, replacing the file; the reason in the system's words
    /// (`is a directory`, `permission denied`) when it cannot.
    static func write(_ body: Data, to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return reason(errno) }
        defer { close(fd) }
        let failure = body.withUnsafeBytes { Console.writeAll(fd, $0) }
        return failure == 0 ? nil : reason(failure)
    }

    /// Whether `path` can be written, creating it empty when missing but leaving what it holds;
    /// the reason when it cannot. A call checks this before it sends, then writes the body as it arrives.
    /// A FIFO, a terminal or /dev/null is only checked, never opened: opening a FIFO and closing
    /// it again would hand its reader an end of file before the body.
    static func checkWritable(_ path: String) -> String? {
        var status = stat()
        if stat(path, &status) == 0, ![S_IFREG, S_IFDIR].contains(status.st_mode & S_IFMT) {
            return access(path, W_OK) == 0 ? nil : reason(errno)
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return reason(errno) }
        close(fd)
        return nil
    }

    /// Whether `path` is a regular file (not /dev/null, a pipe, a terminal or a directory).
    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
