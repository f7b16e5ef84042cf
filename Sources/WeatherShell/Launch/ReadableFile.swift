import Foundation

/// A file named on the command line (a script, a file to serve), read whole, or why it cannot be:
/// the system's words (`no such file or directory`, `permission denied`, `is a directory`).
enum ReadableFile {
    static func read(_ path: String) -> Result<Data, Problem> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Problem(code: errno)) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var status = stat()
        if fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return .failure(Problem(code: EISDIR)) }
        do {
            return .success(try handle.readToEnd() ?? Data())
        } catch {
            return .failure(Problem(code: EIO))
        }
    }

    /// Why a file could not be read, as an errno.
    struct Problem: Error, Equatable, CustomStringConvertible {
        var code: Int32
        var isMissing: Bool { code == ENOENT }
        var description: String { String(cString: strerror(code)).lowercased() }
    }
}
