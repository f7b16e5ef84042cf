import Foundation
import Targets
import Plugins

/// The persistent history: one entry a line, appended as each statement is entered so that a
/// killed shell loses none, kept to the last `limit` entries when the shell starts.
///
/// A statement typed over several lines (a `target x { ... }` block, a line continued with `\`)
/// is one entry: its line breaks are written as the byte 0x01, as psql writes them in its
/// history, and read back as line breaks (``encoded(_:)``, ``decoded(_:)``). A file written
/// before, one line an entry, reads as it did: it holds no 0x01.
///
/// Only the file's tail is read (``tailBytes``): a history grown to 100 MB by another program
/// must not hold the prompt back. A history that cannot be read or written is said once on
/// stderr, and the shell goes on without it.
final class HistoryFile {
    static let limit = 5000
    /// How much of the file's end is read at start: 5000 lines of up to 400 bytes.
    static let tailBytes = 2 * 1024 * 1024
    let path: String
    private let report: (String) -> Void
    private var reported = false

    init(path: String, report: @escaping (String) -> Void) {
        self.path = path
        self.report = report
    }

    /// `$WSH_HISTORY`, else `$XDG_STATE_HOME/wsh/history`, else `~/.local/state/wsh/history`.
    static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["WSH_HISTORY"], !path.isEmpty { return path }
        if let state = Environment.baseDirectory("XDG_STATE_HOME", in: environment) { return state + "/wsh/history" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/state/wsh/history" }
        return NSHomeDirectory() + "/.local/state/wsh/history"
    }

    /// The stored entries, oldest first; rewrites the file when it holds more than the limit.
    func load() -> [String] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno != ENOENT { fail("cannot read", errno) }
            return []
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return [] }
        let size = Int(status.st_size)
        let start = max(0, size - Self.tailBytes)
        guard let tail = Self.readBytes(fd, from: start, count: size - start) else {
            fail("cannot read", errno)
            return []
        }
        var lines = tail.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        // Reading from the middle of a line, the first line read is only the end of one.
        if start > 0, !lines.isEmpty, Self.readBytes(fd, from: start - 1, count: 1) != [UInt8(ascii: "\n")] {
            lines.removeFirst()
        }
        let kept = lines.suffix(Self.limit)
        if start > 0 || lines.count > Self.limit {
            rewrite(kept.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n") + "\n")
        }
        return kept.map { Self.decoded(String(decoding: $0, as: UTF8.self)) }
    }

    /// Stands for a line break inside an entry in the file (psql's choice): a control character
    /// that typing at the prompt does not insert.
    static let lineBreak: UInt8 = 0x01

    /// An entry as one line of the file.
    static func encoded(_ entry: String) -> String {
        guard entry.utf8.contains(UInt8(ascii: "\n")) else { return entry }
        return String(decoding: entry.utf8.map { $0 == UInt8(ascii: "\n") ? lineBreak : $0 }, as: UTF8.self)
    }

    /// An entry from one line of the file.
    static func decoded(_ line: String) -> String {
        guard line.utf8.contains(lineBreak) else { return line }
        return String(decoding: line.utf8.map { $0 == lineBreak ? UInt8(ascii: "\n") : $0 }, as: UTF8.self)
    }

    /// Appends one entry at once (opened, written and closed, so nothing waits in a buffer).
    func append(_ entry: String) {
        let line = Self.encoded(entry)
        let directory = FilePaths.directory(of: path)
        // 0700, as the call history makes it (whichever comes first): the file holds what was typed.
        if !directory.isEmpty {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return fail("cannot write", errno) }
        let failure = Array((line + "\n").utf8).withUnsafeBytes { Console.writeAll(fd, $0) }
        close(fd)
        if failure != 0 { fail("cannot write", failure) }
    }

    /// Replaces the file's contents with `text`, through a file beside it renamed over it.
    private func rewrite(_ text: String) {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return fail("cannot rewrite", errno) }
        let failure = Array(text.utf8).withUnsafeBytes { Console.writeAll(fd, $0) }
        close(fd)
        guard failure == 0 else {
            unlink(temporary)
            return fail("cannot rewrite", failure)
        }
        if rename(temporary, path) != 0 { fail("cannot rewrite", errno) }
    }

    private func fail(_ what: String, _ code: Int32) {
        guard !reported else { return }
        reported = true
        report("wsh: \(what) the history file \(path): \(String(cString: strerror(code)).lowercased()); history is not saved\n")
    }

    private static func readBytes(_ fd: Int32, from offset: Int, count: Int) -> [UInt8]? {
        guard lseek(fd, off_t(offset), SEEK_SET) >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return read(fd, base + filled, count - filled)
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        return Array(bytes[..<filled])
    }
}
