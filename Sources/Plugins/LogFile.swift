import Foundation
import Synchronization

/// A file the logger appends to (`plugin logger on verbose file log.txt`), opened once with
/// `O_APPEND`, so two sessions logging to the same file do not overwrite each other.
///
/// Each line is written as it comes, in one write: a line is in the file as soon as the logger
/// has it, so `tail -f` shows each call as it happens and nothing is lost however wsh ends
/// (SIGKILL, SIGTERM, a crash).
public struct LogFile: Sendable {
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
    private let sink: LogSink

    /// Opens `path` for appending, creating the file (mode 0600) when missing.
    public init(path: String) throws(OpenError) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw OpenError(path: path, reason: String(cString: strerror(errno)).lowercased()) }
        self.path = path
        self.sink = LogSink(fd, path: path)
    }

    /// Called once per file, from whichever thread wrote, when writing it fails (a full disk):
    /// `cannot write log file 'PATH': no space left on device`. Lines for that file are dropped from then on.
    public static func onWriteFailure(_ report: @escaping @Sendable (String) -> Void) {
        LogSink.failureReport.withLock { $0 = report }
    }

    /// Appends `text` and a newline; a failure to write is reported once (``onWriteFailure(_:)``), as a log must not stop a call.
    public func append(_ text: String) {
        sink.append(text)
    }

    /// A closure for ``LoggerPlugin/output`` that appends to this file.
    public var output: OutputClosure {
        { text in append(text) }
    }
}

/// The open file shared by copies of a ``LogFile``, closed when the last copy goes.
private final class LogSink: Sendable {
    static let failureReport = Mutex<(@Sendable (String) -> Void)?>(nil)

    private let fd: Int32
    private let path: String
    /// Whether a write has failed; held while writing, so lines from different threads never interleave.
    private let failed = Mutex(false)

    init(_ fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit {
        close(fd)
    }

    func append(_ text: String) {
        var line = Array(text.utf8)
        line.append(UInt8(ascii: "\n"))
        let failure: Int32 = failed.withLock { failed in
            guard !failed else { return 0 }
            let failure = line.withUnsafeBytes { Console.writeAll(fd, $0) }
            failed = failure != 0
            return failure
        }
        guard failure != 0 else { return }
        // Said outside the lock: the report may write to another log.
        let report = Self.failureReport.withLock { $0 }
        report?("cannot write log file '\(path)': \(String(cString: strerror(failure)).lowercased())")
    }
}
