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
        // Through a symbolic link, dangling too: the file it names is the one written.
        let target = ReplacingFile.linkTarget(path)
        let fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd >= 0 {
            // Made only to see that it can be: a call that then fails leaves no empty file behind.
            close(fd)
            unlink(target)
            return nil
        }
        guard errno == EEXIST else { return reason(errno) }
        if status.st_mode & S_IFMT == S_IFDIR { return reason(EISDIR) }
        return access(target, W_OK) == 0 ? nil : reason(errno)
    }

    /// Whether `path` is a regular file (not /dev/null, a pipe, a terminal or a directory).
    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether a report at `path` can be written once its folders are made, making none now: the
    /// nearest folder that exists must be one wsh may write in. The reason when it cannot.
    static func checkCreatable(_ path: String) -> String? {
        var folder = FilePaths.directory(of: path)
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return checkWritable(path) }
        while !FileManager.default.fileExists(atPath: folder) {
            let parent = FilePaths.directory(of: folder)
            folder = parent.isEmpty ? "." : parent
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else { return reason(ENOTDIR) }
        return access(folder, W_OK | X_OK) == 0 ? nil : reason(errno)
    }

    /// Writes a report to `path`, making its folders first, as ``write(_:to:)`` does a body.
    static func writeReport(_ text: String, to path: String) -> String? {
        if let reason = checkCreatable(path) { return reason }
        let folder = FilePaths.directory(of: path)
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        return write(Data(text.utf8), to: path)
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
