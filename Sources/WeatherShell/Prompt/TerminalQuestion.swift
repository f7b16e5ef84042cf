import Foundation
import Synchronization

/// A yes-or-no question answered on the terminal (`edit again? [Y/n]`), read from stdin while no
/// prompt is reading: libedit's `el_gets` has returned, and the terminal is as the user had it
/// (a line, echoed). Read off the session's event loop; Ctrl-C (cancelling the task) stops it.
enum TerminalQuestion {
    /// Whether stdin is a terminal a question can be asked on.
    static var canAsk: Bool { isatty(STDIN_FILENO) == 1 }

    /// Reads answers until one says yes or no: Enter, `y` or `yes` is yes (the default), `n` or
    /// `no` is no; anything else asks again. Nil at the end of input; throws when cancelled.
    static func ask(_ question: String, write: @escaping @Sendable (String) -> Void) async throws -> Bool? {
        while true {
            write(question)
            guard let answer = try await readLine() else {
                // Ctrl-D leaves the cursor after the question: what follows takes a line of its own.
                write("\n")
                return nil
            }
            switch answer.trimmingCharacters(in: .whitespaces).lowercased() {
            case "", "y", "yes": return true
            case "n", "no": return false
            default: continue
            }
        }
    }

    /// One line of stdin, byte by byte so nothing after it is taken from the next reader; nil at
    /// the end of input.
    private static func readLine() async throws -> String? {
        let stopped = StopFlag()
        let line: [UInt8]? = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(returning: readLine(until: { stopped.isSet }))
                }
            }
        } onCancel: {
            stopped.set()
        }
        try Task.checkCancellation()
        return line.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Waits for input in slices of 100 ms, so that `stopped` is seen soon after it is set.
    private static func readLine(until stopped: () -> Bool) -> [UInt8]? {
        var bytes: [UInt8] = []
        while !stopped() {
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 100)
            if ready < 0, errno == EINTR { continue }
            guard ready != 0 else { continue }
            var byte: UInt8 = 0
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count == 1 else { return bytes.isEmpty ? nil : bytes }
            if byte == UInt8(ascii: "\n") { return bytes }
            if byte != UInt8(ascii: "\r") { bytes.append(byte) }
        }
        return nil
    }
}

/// Set once, from the thread that cancels; read by the thread that waits.
private final class StopFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
