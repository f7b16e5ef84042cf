import Foundation
import Synchronization

/// A file the logger appends to (`plugin logger on verbose file log.txt`), opened once with
/// `O_APPEND`, so two sessions logging to the same file do not overwrite each other.
///
/// Lines to a regular file are written in blocks, as nginx's buffered `access_log` does: a block
/// goes out when it reaches ``blockSize``, ``flushDelay`` after its first line, before the prompt
/// waits for input (``flushAll()``), on SIGTERM and SIGHUP, and at exit. A write per line was a
/// fifth of the cost of a loopback call; a shell killed otherwise (SIGKILL, SIGPIPE) loses at most
/// the last ``flushDelay`` of lines. Lines to anything else (`/dev/stderr`, a pipe) are written
/// at once, so that they stay in order with what else goes there.
public struct LogFile: Sendable {
    /// Bytes held before they are written at once.
    public static let blockSize = 16 * 1024
    /// The longest a line waits to be written.
    public static let flushDelay = DispatchTimeInterval.milliseconds(100)

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
        var status = stat()
        let isRegularFile = fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        self.sink = LogSink(fd, path: path, holdsLines: isRegularFile)
    }

    /// Called once per file, from whichever thread wrote, when writing it fails (a full disk):
    /// `cannot write log file 'PATH': no space left on device`. Lines for that file are dropped from then on.
    public static func onWriteFailure(_ report: @escaping @Sendable (String) -> Void) {
        LogSink.setFailureReport(report)
    }

    /// Appends `text` and a newline; a failure to write is reported once (``onWriteFailure(_:)``), as a log must not stop a call.
    public func append(_ text: String) {
        sink.append(text)
    }

    /// Writes the lines held so far.
    public func flush() {
        sink.flush()
    }

    /// Writes the lines held by every open log file: before the shell waits, and at exit.
    public static func flushAll() {
        LogSink.flushAll()
    }

    /// A closure for ``LoggerPlugin/output`` that appends to this file.
    public var output: OutputClosure {
        { text in append(text) }
    }
}

/// The open file and the lines not yet written to it, shared by copies of a ``LogFile``;
/// written and closed when the last copy goes.
private final class LogSink: Sendable {
    /// Every open sink, for ``flushAll()``, and what the process does for all of them.
    private struct Registry {
        var open: [ObjectIdentifier: Weak] = [:]
        var flushesAtExit = false
        var failureReport: (@Sendable (String) -> Void)?
    }

    private struct Weak {
        weak var sink: LogSink?
    }

    /// The lines not yet written. Held while writing, so blocks from different threads never interleave.
    private struct Pending {
        var bytes: [UInt8] = []
        var flushScheduled = false
        var failed = false

        /// Writes the held bytes to `fd`. Returns the `errno` of the first failure (0 otherwise),
        /// reported by the caller once the lock is released; lines are dropped from then on.
        mutating func write(to fd: Int32) -> Int32 {
            guard !bytes.isEmpty else { return 0 }
            let failure = failed ? 0 : bytes.withUnsafeBytes { Console.writeAll(fd, $0) }
            bytes.removeAll(keepingCapacity: true)
            if failure != 0 { failed = true }
            return failure
        }
    }

    private static let registry = Mutex(Registry())

    private let fd: Int32
    private let path: String
    private let holdsLines: Bool
    private let pending = Mutex(Pending())

    init(_ fd: Int32, path: String, holdsLines: Bool) {
        self.fd = fd
        self.path = path
        self.holdsLines = holdsLines
        Self.registry.withLock { registry in
            registry.open[ObjectIdentifier(self)] = Weak(sink: self)
            if !registry.flushesAtExit {
                registry.flushesAtExit = true
                atexit { LogSink.flushAll() }
            }
        }
    }

    deinit {
        Self.registry.withLock { _ = $0.open.removeValue(forKey: ObjectIdentifier(self)) }
        flush()
        close(fd)
    }

    static func setFailureReport(_ report: @escaping @Sendable (String) -> Void) {
        registry.withLock { $0.failureReport = report }
    }

    static func flushAll() {
        let sinks = registry.withLock { $0.open.values.compactMap(\.sink) }
        for sink in sinks { sink.flush() }
    }

    func append(_ text: String) {
        let failure: Int32 = pending.withLock { pending in
            pending.bytes.append(contentsOf: text.utf8)
            pending.bytes.append(UInt8(ascii: "\n"))
            if !holdsLines || pending.bytes.count >= LogFile.blockSize {
                return pending.write(to: fd)
            } else if !pending.flushScheduled {
                pending.flushScheduled = true
                // Not on the session's loop: a long statement or a blocked stdout would hold it.
                DispatchQueue.global().asyncAfter(deadline: .now() + LogFile.flushDelay) { [weak self] in self?.flush() }
            }
            return 0
        }
        reportFailure(failure)
    }

    func flush() {
        let failure: Int32 = pending.withLock { pending in
            pending.flushScheduled = false
            return pending.write(to: fd)
        }
        reportFailure(failure)
    }

    /// Says once, outside every lock, that the file could not be written.
    private func reportFailure(_ failure: Int32) {
        guard failure != 0 else { return }
        let report = Self.registry.withLock { $0.failureReport }
        report?("cannot write log file '\(path)': \(String(cString: strerror(failure)).lowercased())")
    }
}
