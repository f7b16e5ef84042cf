import Foundation
import Synchronization
import Plugins

/// Where the shell writes: stdout for results, stderr for errors and status, with terminal facts.
///
/// stdout is buffered and flushed before input is read and at exit, so a 2000-call script
/// does not make 2000 write calls for its output. A lock keeps writes whole and in order when
/// they come from reactor stores, which echo state from their own executors.
public final class ShellIO: Sendable {
    /// True when stdout is a terminal: pretty, coloured JSON and status lines on stderr.
    public let stdoutIsTerminal: Bool
    /// True when stderr is a terminal: the loading spinner may draw.
    public let stderrIsTerminal: Bool
    /// Buffered stdout; held while writing to stdout or stderr, so writes stay whole and in order.
    private let buffer: Mutex<[UInt8]>
    /// Failures to write elsewhere (a log file on a full disk), reported at the next statement's end.
    /// A lock of their own: a failure is noted from inside a write that may hold ``buffer``'s.
    private let unreportedFailures = Mutex<[String]>([])
    /// Captures output instead of writing it, for tests of the run.
    private let capture: (@Sendable (String, Bool) -> Void)?
    /// Keeps stdout until ``takeHeld()`` instead of writing it: for `| COMMAND` and the pager.
    var holdsOutput: Bool { holding.load(ordering: .relaxed) }
    private let holding: Atomic<Bool>
    /// Whether ``releaseHeld()`` may end the holding: output held for the pager, which goes to the terminal anyway.
    private let releasable: Bool
    /// Set once a new line has begun after the `^C` a terminal echoed (``endInterruptedLine()``).
    private let interruptedLineEnded = Atomic(false)

    public convenience init(stdoutIsTerminal: Bool = isatty(STDOUT_FILENO) == 1, stderrIsTerminal: Bool = isatty(STDERR_FILENO) == 1,
                            capture: (@Sendable (String, Bool) -> Void)? = nil) {
        self.init(stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: stderrIsTerminal, capture: capture, holdsOutput: false)
    }

    /// An output that keeps what is written to stdout until ``takeHeld()``; stderr is written at once.
    /// With `releasable`, ``releaseHeld()`` writes what is held and ends the holding (output meant for the pager).
    static func holding(stdoutIsTerminal: Bool, stderrIsTerminal: Bool, releasable: Bool = false) -> ShellIO {
        ShellIO(stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: stderrIsTerminal, capture: nil, holdsOutput: true,
                releasable: releasable)
    }

    private init(stdoutIsTerminal: Bool, stderrIsTerminal: Bool, capture: (@Sendable (String, Bool) -> Void)?, holdsOutput: Bool,
                 releasable: Bool = false) {
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.capture = capture
        self.holding = Atomic(holdsOutput)
        self.releasable = releasable
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 16)
        self.buffer = Mutex(buffer)
    }

    /// Writes text to stdout (buffered); at a terminal, control characters are shown escaped
    /// (``TerminalText``), since the text may hold a server's.
    public func out(_ text: String) {
        out(styled: stdoutIsTerminal ? TerminalText.escaped(text) : text)
    }

    /// Writes bytes to stdout (buffered): as they are into a pipe or file, escaped at a terminal.
    public func out(bytes: some Collection<UInt8>) {
        if stdoutIsTerminal {
            out(styled: TerminalText.escaped(bytes: bytes))
        } else {
            write(bytes)
        }
    }

    /// Writes text whose control sequences are wsh's own (colours) to stdout as it is.
    public func out(styled text: String) {
        write(text.utf8)
    }

    private func write(_ bytes: some Collection<UInt8>) {
        buffer.withLock { buffer in
            if let capture { capture(String(decoding: bytes, as: UTF8.self), false); return }
            buffer.append(contentsOf: bytes)
            if buffer.count >= 1 << 16, !holdsOutput { flush(&buffer) }
        }
    }

    /// Writes to stderr at once, after flushing stdout so the two keep their order at a terminal;
    /// at a terminal, control characters are shown escaped.
    public func err(_ text: String) {
        err(styled: stderrIsTerminal ? TerminalText.escaped(text) : text)
    }

    /// Writes text whose control sequences are wsh's own (colours) to stderr as it is.
    public func err(styled text: String) {
        buffer.withLock { buffer in
            if let capture { capture(text, true); return }
            if !holdsOutput { flush(&buffer) }
            Self.writeAll(STDERR_FILENO, Array(text.utf8))
        }
    }

    /// At a terminal, ends the line the echoed `^C` is on, once per Ctrl-C: what follows (an
    /// action's clean-up echo, `wsh: interrupted`) starts a line of its own.
    func endInterruptedLine() {
        guard stderrIsTerminal, !interruptedLineEnded.exchange(true, ordering: .relaxed) else { return }
        err(styled: "\n")
    }

    /// `wsh: interrupted`, on a line of its own at a terminal; the next Ctrl-C's line is ended anew.
    func sayInterrupted() {
        let ended = interruptedLineEnded.exchange(false, ordering: .relaxed)
        err((stderrIsTerminal && !ended ? "\n" : "") + "wsh: interrupted\n")
    }

    /// Sends buffered stdout to the file descriptor (held output stays held).
    public func flush() {
        guard !holdsOutput else { return }
        buffer.withLock { flush(&$0) }
    }

    /// Writes what is held and stops holding, for output held only for the pager: an answer printed
    /// as it arrives cannot wait for the end of the statement.
    func releaseHeld() {
        guard releasable else { return }
        buffer.withLock { buffer in
            holding.store(false, ordering: .relaxed)
            flush(&buffer)
        }
    }

    /// What was written to stdout since the last call, for an output that holds it.
    func takeHeld() -> [UInt8] {
        buffer.withLock { buffer in
            defer { buffer.removeAll() }
            return buffer
        }
    }

    /// Called with `buffer`'s lock held. At a terminal a large output (a 5 MB answer takes seconds
    /// to scroll past) is written a piece at a time, and stops when the statement writing it is
    /// cancelled by Ctrl-C: the rest is dropped, as curl stops, and the colour is reset.
    private func flush(_ buffer: inout [UInt8]) {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard stdoutIsTerminal, buffer.count > Self.terminalPiece else {
            Self.writeAll(STDOUT_FILENO, buffer)
            return
        }
        var start = 0
        while start < buffer.count {
            if start > 0, Task.isCancelled {
                Self.writeAll(STDOUT_FILENO, Array("\u{1B}[0m".utf8))
                return
            }
            var end = min(start + Self.terminalPiece, buffer.count)
            // A piece ends on a character boundary: the last one written may be the last shown.
            while end < buffer.count, end > start + 1, buffer[end] & 0xC0 == 0x80 { end -= 1 }
            Self.writeAll(STDOUT_FILENO, Array(buffer[start..<end]))
            start = end
        }
    }

    /// How many bytes go to a terminal between two checks for Ctrl-C.
    private static let terminalPiece = 4096

    /// Keeps a failure to write output that is not stdout, for ``takeFailures()``; any thread.
    public func noteFailure(_ message: String) {
        unreportedFailures.withLock { $0.append(message) }
    }

    /// The failures noted since the last call.
    public func takeFailures() -> [String] {
        unreportedFailures.withLock { failures in
            defer { failures.removeAll() }
            return failures
        }
    }

    /// Writes all of `bytes`. When stdout or stderr is a pipe whose reader has gone
    /// (`wsh script | head`), wsh stops as `cat` would, by SIGPIPE: wsh ignores the signal (so
    /// that no thread dies of a pipe it feeds), which left it running every remaining call unseen. When stdout cannot be written
    /// otherwise (`> /dev/full`), wsh says so once and exits 3: its results would be lost.
    /// Without `diesWhenReaderGoes`, a reader that has gone is returned (true), not died of.
    @discardableResult
    nonisolated static func writeAll(_ fd: Int32, _ bytes: [UInt8], diesWhenReaderGoes: Bool = true) -> Bool {
        let failure = bytes.withUnsafeBytes { Console.writeAll(fd, $0) }
        if failure == EPIPE, fd == STDOUT_FILENO || fd == STDERR_FILENO {
            if !diesWhenReaderGoes { return true }
            SignalDeath.die(of: SIGPIPE)
        }
        if failure != 0, fd == STDOUT_FILENO {
            let reason = String(cString: strerror(failure)).lowercased()
            Console.writeAll(STDERR_FILENO, "wsh: error: cannot write to standard output: \(reason)\n")
            exit(FailureKind.runtime.exitCode)
        }
        return false
    }
}
