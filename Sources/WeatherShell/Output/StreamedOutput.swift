import Foundation
import Plugins
import Synchronization
import Targets

/// Prints an answer's body on stdout as it arrives, for an answer that comes a piece at a time
/// (`/stream`, `/drip`, server-sent events), and keeps a copy for queries within `set max-body`.
///
/// Into a pipe or a file the bytes go as sent, as curl writes them. At a terminal they are shown
/// as text, control characters escaped: a character or a `\r\n` cut between two pieces waits for
/// the next one, and a body that does not end with a newline gets one, as ``ResponsePrinter`` does.
final class StreamedOutput: ResponseBodySink, @unchecked Sendable {
    // Unchecked: the transport calls a sink one call at a time, on one event loop.
    private let io: ShellIO
    private let takes: @Sendable (Int, [Header]) -> Bool
    private let started: @Sendable () -> Void
    /// At a terminal: bytes of a character (or a `\r`) cut at the end of the last piece.
    private var held: [UInt8] = []
    private var lastByte: UInt8?
    /// Set on the event loop as a piece is written, read by the retry plugin once the attempt ended.
    private let shown = Mutex(false)

    var hasShownBytes: Bool { shown.withLock { $0 } }

    /// Streams the answers `takes` accepts (by status and headers); `started` runs when one does
    /// (the spinner is erased then, before the body is drawn under it).
    init(io: ShellIO, takes: @escaping @Sendable (Int, [Header]) -> Bool, started: @escaping @Sendable () -> Void) {
        self.io = io
        self.takes = takes
        self.started = started
    }

    var keepsCopy: Bool { true }

    /// Whether a media type is one whose bodies are read as they come: server-sent events, NDJSON, JSON lines.
    static func isStreamingType(_ contentType: String?) -> Bool {
        let type = MediaType.essence(of: contentType ?? "")
        return ["text/event-stream", "application/x-ndjson", "application/ndjson", "application/jsonl",
                "application/x-jsonlines", "application/json-seq", "application/stream+json"].contains(type)
    }

    func begin(status: Int, headers: [Header]) throws -> Bool {
        guard takes(status, headers) else { return false }
        started()
        io.releaseHeld()
        return true
    }

    func write(_ piece: Data) throws {
        guard let last = piece.last else { return }
        lastByte = last
        shown.withLock { $0 = true }
        if !io.stdoutIsTerminal {
            io.out(bytes: piece)
        } else {
            held.append(contentsOf: piece)
            let whole = Self.wholeText(held)
            io.out(bytes: held[..<whole])
            held.removeFirst(whole)
        }
        io.flush()
    }

    func end(completed: Bool) {
        if !held.isEmpty { io.out(bytes: held) }
        held = []
        if io.stdoutIsTerminal, let lastByte, lastByte != UInt8(ascii: "\n") { io.out("\n") }
        lastByte = nil
        io.flush()
    }

    /// How many leading bytes of `bytes` can be shown now: all but an unfinished UTF-8 sequence or
    /// a final `\r` (whose `\n` may come next) at the end.
    static func wholeText(_ bytes: [UInt8]) -> Int {
        guard let last = bytes.last else { return 0 }
        if last == UInt8(ascii: "\r") { return bytes.count - 1 }
        // Look back at most 3 bytes for the lead byte of a sequence that needs more than it has.
        for back in 1...min(3, bytes.count) {
            let byte = bytes[bytes.count - back]
            if byte & 0xC0 == 0x80 { continue }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            return length > back ? bytes.count - back : bytes.count
        }
        return bytes.count
    }
}
