import Foundation
import Plugins

/// Where the shell writes: stdout for results, stderr for errors and status, with terminal facts.
///
/// stdout is buffered and flushed before input is read and at exit, so a 2000-call script
/// does not make 2000 write calls for its output. A lock keeps writes whole and in order when
/// they come from reactor stores, which echo state from their own executors.
public final class ShellIO: @unchecked Sendable {
    /// True when stdout is a terminal: pretty, coloured JSON and status lines on stderr.
    public let stdoutIsTerminal: Bool
    /// True when stderr is a terminal: the loading spinner may draw.
    public let stderrIsTerminal: Bool
    private var buffer: [UInt8] = []
    private let lock = NSLock()
    /// Captures output instead of writing it, for tests of the interpreter.
    private let capture: (@Sendable (String, Bool) -> Void)?

    public init(stdoutIsTerminal: Bool = isatty(STDOUT_FILENO) == 1, stderrIsTerminal: Bool = isatty(STDERR_FILENO) == 1,
                capture: (@Sendable (String, Bool) -> Void)? = nil) {
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.capture = capture
        buffer.reserveCapacity(1 << 16)
    }

    /// Writes to stdout (buffered).
    public func out(_ text: String) {
        out(bytes: text.utf8)
    }

    /// Writes raw bytes to stdout (buffered).
    public func out(bytes: some Collection<UInt8>) {
        lock.lock()
        defer { lock.unlock() }
        if let capture { capture(String(decoding: bytes, as: UTF8.self), false); return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flushLocked() }
    }

    /// Writes to stderr at once, after flushing stdout so the two keep their order at a terminal.
    public func err(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        if let capture { capture(text, true); return }
        flushLocked()
        Self.writeAll(STDERR_FILENO, Array(text.utf8))
    }

    /// Sends buffered stdout to the file descriptor.
    public func flush() {
        lock.lock()
        defer { lock.unlock() }
        flushLocked()
    }

    private func flushLocked() {
        guard !buffer.isEmpty else { return }
        Self.writeAll(STDOUT_FILENO, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes all of `bytes`. When stdout or stderr is a pipe whose reader has gone
    /// (`wsh script | head`), wsh stops as `cat` would, by SIGPIPE: NIO ignores SIGPIPE for its
    /// sockets, which left wsh running every remaining call unseen.
    nonisolated static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        let failure = bytes.withUnsafeBytes { Console.writeAll(fd, $0) }
        if failure == EPIPE, fd == STDOUT_FILENO || fd == STDERR_FILENO {
            TerminationSignals.die(of: SIGPIPE)
        }
    }
}
