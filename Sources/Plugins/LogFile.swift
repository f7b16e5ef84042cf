import Foundation

/// A file the logger appends to (`plugin logger on verbose file log.txt`). It is opened once and
/// each block is one `O_APPEND` write, so the log is whole even if wsh is killed, and two
/// sessions logging to the same file do not overwrite each other.
public struct LogFile: Sendable {
    /// The open file, shared by copies and closed when the last one goes.
    private final class Descriptor: Sendable {
        let fd: Int32
        init(_ fd: Int32) { self.fd = fd }
        deinit { close(fd) }
    }

    /// Why a log file cannot be used.
    public struct OpenError: Error, CustomStringConvertible {
        /// The path as given.
        public var path: String
        /// What the system said, in lowercase, as in "permission denied".
        public var reason: String
        /// `cannot open log file 'PATH': REASON`.
        public var description: String { "cannot open log file '\(path)': \(reason)" }
    }

    /// The file's path.
    public let path: String
    private let descriptor: Descriptor

    /// Opens `path` for appending, creating the file (mode 0600) when missing.
    public init(path: String) throws(OpenError) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw OpenError(path: path, reason: String(cString: strerror(errno)).lowercased()) }
        self.path = path
        self.descriptor = Descriptor(fd)
    }

    /// Appends `text` and a newline; a failure to write is ignored, as a log must not stop a call.
    public func append(_ text: String) {
        Console.writeAll(descriptor.fd, text + "\n")
    }

    /// A closure for ``LoggerPlugin/output`` that appends to this file.
    public var output: OutputClosure {
        { text in append(text) }
    }
}
