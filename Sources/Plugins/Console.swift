import Foundation
import Synchronization

/// Where a plugin's lines go: a log line, a retry notice. The text has no trailing newline.
public typealias OutputClosure = @Sendable (String) -> Void

/// One stream that plugins share for what they report: whole lines, and, at a terminal, one status
/// line (the loading spinner) that is redrawn in place. Writing a line first erases the status line,
/// then redraws it below, so a log line and the spinner never run into each other.
///
/// Thread-safe: every write holds a lock, so lines from concurrent calls are never interleaved.
public final class Console: Sendable {
    /// The process's stderr (file descriptor 2); a terminal when `isatty(2)` says so.
    public static let standardError = Console(fileDescriptor: STDERR_FILENO)

    /// The erase sequence: back to the start of the line, then clear to its end.
    public static let eraseLine = "\r\u{1B}[K"

    /// Whether a status line may be drawn: only a terminal shows one.
    public let isTerminal: Bool
    private let writeText: OutputClosure
    private let columns: @Sendable () -> Int
    /// The status line shown now, if any; held while writing, so that writes never interleave.
    private let status = Mutex<String?>(nil)

    /// A console writing to `fileDescriptor`, a terminal when `isatty` says so.
    public convenience init(fileDescriptor: Int32) {
        self.init(isTerminal: isatty(fileDescriptor) == 1, columns: { Self.terminalColumns(fileDescriptor) }) { text in
            Self.writeAll(fileDescriptor, text)
        }
    }

    /// A console that hands its raw output, escape sequences included, to `write`; for tests.
    public init(isTerminal: Bool, columns: @escaping @Sendable () -> Int = { 80 }, write: @escaping OutputClosure) {
        self.isTerminal = isTerminal
        self.columns = columns
        self.writeText = write
    }

    /// Writes `line` and a newline, keeping the status line (if one is shown) below it.
    /// At a terminal, control characters in the line (a server's, in a verbose log) are shown escaped.
    public func write(line: String) {
        let line = isTerminal ? TerminalText.escaped(line) : line
        status.withLock { status in
            let erase = status == nil ? "" : Self.eraseLine
            writeText(erase + line + "\n" + (status ?? ""))
        }
    }

    /// Draws `text` as the status line, replacing the one shown; nothing when not at a terminal.
    /// The text is cut to the terminal's width so that `\r` can always return to its start.
    public func showStatus(_ text: String) {
        guard isTerminal else { return }
        let fitted = String(text.prefix(max(1, columns() - 1)))
        status.withLock { status in
            status = fitted
            writeText("\r" + fitted + "\u{1B}[K")
        }
    }

    /// Erases the status line, if one is shown.
    public func clearStatus() {
        status.withLock { status in
            guard status != nil else { return }
            status = nil
            writeText(Self.eraseLine)
        }
    }

    /// The width of the terminal at `fileDescriptor`, or 80 when it cannot be told.
    static func terminalColumns(_ fileDescriptor: Int32) -> Int {
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Writes all of `text` to `fileDescriptor`.
    public static func writeAll(_ fileDescriptor: Int32, _ text: String) {
        var text = text
        text.withUTF8 { _ = writeAll(fileDescriptor, UnsafeRawBufferPointer($0)) }
    }

    /// Writes all of `bytes` to `fileDescriptor`, again after an interrupted or partial write;
    /// gives up on any other error and returns its `errno` (0 when everything was written).
    @discardableResult
    public static func writeAll(_ fileDescriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        writeFully(fileDescriptor, bytes)
    }
}

/// Outside ``Console``, whose `write(line:)` would shadow the system's `write`.
private func writeFully(_ fileDescriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    var rest = bytes[...]
    while !rest.isEmpty {
        let written = write(fileDescriptor, UnsafeRawBufferPointer(rebasing: rest).baseAddress, rest.count)
        if written < 0 {
            if errno == EINTR { continue }
            // A descriptor a parent left non-blocking: wait until it takes more, as a blocking one would.
            if errno == EAGAIN || errno == EWOULDBLOCK {
                var ready = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
                continue
            }
            return errno
        }
        rest = rest.dropFirst(written)
    }
    return 0
}
