import CPseudoTerminal
import TestSupport
import Foundation

/// Runs wsh on a pseudo-terminal, so that it starts its libedit prompt, and types into it.
final class PseudoTerminal {
    private let master: Int32
    private let process = Process()
    /// What the program printed, without the prompt's bracketed-paste mode switches, which show nothing.
    private(set) var screen = ""
    /// What the program printed, mode switches and all.
    private(set) var rawScreen = ""
    /// Bytes read that end in the middle of a UTF-8 sequence.
    private var pending: [UInt8] = []
    /// stdout when it was asked to be a pipe rather than the terminal.
    private let outputPipe: Pipe?

    /// Starts wsh with the slave side of a new pty as stdin, stdout and stderr; with `stdoutIsPipe`,
    /// stdout is a pipe instead (read it with ``pipedOutput()``), as in `wsh ... > file` at a terminal.
    /// With `controlling`, the pty is wsh's controlling terminal, in a session of its own (by
    /// util-linux's `setsid --ctty --wait`), so that a typed ^C sends SIGINT to the foreground
    /// process group, wsh and the pager it runs, as a real terminal does.
    init(arguments: [String] = ["--norc"], environment: [String: String], stdoutIsPipe: Bool = false,
         directory: URL? = nil, controlling: Bool = false) throws {
        var name = [CChar](repeating: 0, count: 128)
        master = wsh_pty_open(&name, Int32(name.count))
        guard master >= 0 else { throw POSIXError(.ENOTTY) }
        let slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slave = FileHandle(forUpdatingAtPath: slavePath) else { throw POSIXError(.ENOTTY) }
        if controlling {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
            process.arguments = ["--ctty", "--wait", WSHProcess.binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: WSHProcess.binary)
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        // A home of its own unless the test gives one: the call history must not land in the user's.
        env["HOME"] = try WSHProcess.temporaryDirectory().path
        env["XDG_STATE_HOME"] = nil
        env["XDG_CONFIG_HOME"] = nil
        env["TERM"] = "xterm"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        outputPipe = stdoutIsPipe ? Pipe() : nil
        process.standardInput = slave
        process.standardOutput = outputPipe ?? slave
        process.standardError = slave
        try process.runSerially()
        try slave.close()
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(master)
    }

    /// Types text as keystrokes.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { _ = write(master, $0.baseAddress, $0.count) }
    }

    /// Sends SIGINT, as the terminal does on Ctrl-C while a statement runs: the pty is not the
    /// child's controlling terminal (Process cannot make it one), so a typed ^C is only a key.
    /// Types `text`, then waits for `expected` in what wsh writes after it.
    func type(_ text: String, expecting expected: String) {
        let start = mark
        type(text)
        expect(expected, after: start)
    }

    func interrupt() {
        kill(process.processIdentifier, SIGINT)
    }

    /// Reads what the program printed until `text` appears after `position` or the time runs out:
    /// a bound only a failure reaches, generous for a loaded machine.
    @discardableResult
    func waitFor(_ text: String, after position: String.Index? = nil, timeout: TimeInterval = 60) -> Bool {
        waitUntil(after: position, timeout: timeout) { $0.contains(text) }
    }

    /// Reads what the program printed until what came after `position` satisfies `condition` or
    /// the time runs out.
    func waitUntil(after position: String.Index? = nil, timeout: TimeInterval = 60, _ condition: (Substring) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            drain()
            let from = position ?? screen.startIndex
            if condition(screen[from...]) { return true }
            usleep(20_000)
        }
        return false
    }

    /// Waits, without reading it, until the program has written at least `count` bytes that the
    /// terminal holds unread (a pty holds 4095; a writer that fills it waits), or the time runs out.
    @discardableResult
    func waitForUnread(_ count: Int, timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var unread: Int32 = 0
            if ioctl(master, UInt(FIONREAD), &unread) == 0, unread >= count { return true }
            usleep(20_000)
        }
        return false
    }

    /// What ``expect(_:after:)`` waited for in vain, in order.
    private(set) var missed: [String] = []

    /// Waits for `text` as ``waitFor(_:after:timeout:)`` does, and notes it in ``missed`` when it does
    /// not come: a session run off the test's task checks its steps this way. The deadline only
    /// matters when the text never comes, so it is generous: a loaded CI machine is slow.
    func expect(_ text: String, after position: String.Index? = nil) {
        if !waitFor(text, after: position, timeout: 60) { missed.append(text) }
    }

    /// The end of what has been read so far, to wait for text that comes after it.
    var mark: String.Index {
        drain()
        return screen.endIndex
    }

    /// The prompt's bracketed-paste mode switches (on while a line is edited, off after).
    private static let pasteModeSwitches: [[UInt8]] = [Array("\u{1B}[?2004h".utf8), Array("\u{1B}[?2004l".utf8)]

    /// How many leading bytes of `bytes` end on a character boundary: a trailing lead byte
    /// still missing continuation bytes is held back.
    static func completeUTF8Prefix(_ bytes: [UInt8]) -> Int {
        var start = bytes.count
        // Back over continuation bytes (10xxxxxx) to the lead byte of the last sequence, at most 3.
        while start > 0, bytes.count - start < 4, bytes[start - 1] & 0xC0 == 0x80 { start -= 1 }
        guard start > 0 else { return bytes.count }
        let lead = bytes[start - 1]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return bytes.count - (start - 1) < length ? start - 1 : bytes.count
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { return }
            pending += buffer[0..<count]
            // A character split between two reads is decoded once all its bytes are in.
            var complete = Self.completeUTF8Prefix(pending)
            // A mode switch split between two reads is taken out once all of it is in.
            if let escape = pending[..<complete].lastIndex(of: 0x1B),
               Self.pasteModeSwitches.contains(where: { $0.starts(with: pending[escape..<complete]) && $0.count > complete - escape }) {
                complete = escape
            }
            let text = String(decoding: pending[..<complete], as: UTF8.self)
            rawScreen += text
            screen += text.replacingOccurrences(of: "\u{1B}[?2004h", with: "").replacingOccurrences(of: "\u{1B}[?2004l", with: "")
            pending.removeSubrange(..<complete)
        }
    }

    /// Everything written to stdout when it is a pipe; waits for the process to close it.
    func pipedOutput() -> String {
        guard let outputPipe else { return "" }
        try? outputPipe.fileHandleForWriting.close()
        return String(decoding: outputPipe.fileHandleForReading.readToEndRetryingInterrupts(), as: UTF8.self)
    }

    /// The exit status, once the process has exited; nil if it is still running after `timeout`.
    /// The bound is generous: it is reached only by a hang, and under CI's load (every end-to-end
    /// suite at once on 2 cores) a clean exit at the prompt once took over 10 s.
    func waitForExit(timeout: TimeInterval = 60) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline {
            drain()
            usleep(20_000)
        }
        return process.isRunning ? nil : process.terminationStatus
    }
}
