import Foundation
import Targets
import Plugins

/// `call ... > FILE`: the body written to a file, relative to the current directory as a shell does.
enum BodyFile {
    /// Writes `body` to `path`, replacing the file only once the whole was written
    /// (``ReplacingFile``); the reason in the system's words (`is a directory`, `permission denied`) when it cannot.
    static func write(_ body: Data, to path: String) -> String? {
        do {
            let file = try ReplacingFile(path: path)
            do {
                try body.withUnsafeBytes { try file.write($0) }
            } catch {
                file.discard()
                throw error
            }
            try file.commit()
            return nil
        } catch let error as ReplacingFileError {
            return error.reason
        } catch {
            return "\(error)"
        }
    }

    /// Whether `path` can be written, leaving what it holds, and no file when there was none;
    /// the reason when it cannot. A call checks this before it sends, then writes the body as it arrives.
    /// A FIFO, a terminal or /dev/null is only checked, never opened: opening a FIFO and closing
    /// it again would hand its reader an end of file before the body.
    static func checkWritable(_ path: String) -> String? {
        var status = stat()
        if stat(path, &status) == 0, ![S_IFREG, S_IFDIR].contains(status.st_mode & S_IFMT) {
            return access(path, W_OK) == 0 ? nil : reason(errno)
        }
        let missing = access(path, F_OK) != 0
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return reason(errno) }
        close(fd)
        // A call that then fails leaves no empty file behind.
        if missing { unlink(path) }
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
