import Foundation
import Synchronization

/// File-path text without `NSString.deletingLastPathComponent`, which traps (an illegal
/// instruction) in swift-corelibs-foundation on a name of one character: `> o`, `a/`; and new
/// files' names, claimed where several processes may choose at once.
public enum FilePaths {
    /// The directory part of `path`, as `deletingLastPathComponent` means it: empty for a bare
    /// name (`o`), `/` for a name at the root (`/o`), trailing slashes ignored (`a/b/` is `a`).
    public static func directory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        var head = trimmed[..<slash]
        while head.hasSuffix("/") { head = head.dropLast() }
        return head.isEmpty ? "/" : String(head)
    }

    /// Names ``claimFreeName(_:numbered:)`` created that no answer has filled yet: a signal that
    /// ends wsh removes them (``removeUnwrittenClaims()``), as `defer` and `catch` never run then.
    private static let unwritten = Mutex<Set<String>>([])

    /// The first of `first`, `numbered(1)`, `numbered(2)`... that no file has, created empty at
    /// once (`O_EXCL`), so that two processes choosing at the same time (`wsh test` running
    /// `.http` files side by side, two downloads) never take the same name. When a name cannot be
    /// created for another reason (no such directory), that name, for its writer to report. A NUL
    /// in a name (`/a%00b` decoded) is written `_`: `open` would read the name only up to it.
    /// The name is unwritten until ``keep(_:)`` or ``removeIfEmpty(_:)``.
    public static func claimFreeName(_ first: String, numbered: (Int) -> String) -> String {
        var number = 0
        while true {
            // Else every candidate is the same name cut at its NUL, taken, and the next is tried for ever.
            let candidate = (number == 0 ? first : numbered(number)).replacingOccurrences(of: "\0", with: "_")
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor >= 0 {
                close(descriptor)
                unwritten.withLock { _ = $0.insert(candidate) }
                return candidate
            }
            guard errno == EEXIST else { return candidate }
            number += 1
        }
    }

    /// `path`, a name ``claimFreeName(_:numbered:)`` took, now holds its answer (an empty body too).
    public static func keep(_ path: String) {
        unwritten.withLock { _ = $0.remove(path) }
    }

    /// Removes `path` when it is an empty file: a name ``claimFreeName(_:numbered:)`` took for an
    /// answer that never came.
    public static func removeIfEmpty(_ path: String) {
        unwritten.withLock { _ = $0.remove(path) }
        var status = stat()
        if stat(path, &status) == 0, status.st_size == 0, (status.st_mode & S_IFMT) == S_IFREG { unlink(path) }
    }

    /// Removes every claimed name that is still an empty file: wsh is ending by a signal (SIGHUP,
    /// SIGTERM) in the middle of a request whose answer was to go there.
    public static func removeUnwrittenClaims() {
        for path in unwritten.withLock({ $0 }) { removeIfEmpty(path) }
    }
}
