import Foundation

/// The persistent history: one entry a line, appended as each line is entered so that a
/// killed shell loses none, kept to the last `limit` lines when the shell starts.
struct HistoryFile {
    static let limit = 5000
    let path: String

    /// `$WSH_HISTORY`, else `$XDG_STATE_HOME/wsh/history`, else `~/.local/state/wsh/history`.
    static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["WSH_HISTORY"], !path.isEmpty { return path }
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/wsh/history" }
        return NSHomeDirectory() + "/.local/state/wsh/history"
    }

    /// The stored entries, oldest first; rewrites the file when it holds more than the limit.
    func load() -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        if lines.count > Self.limit {
            lines = Array(lines.suffix(Self.limit))
            let text = lines.joined(separator: "\n") + "\n"
            try? text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        return lines
    }

    /// Appends one entry at once (opened, written and closed, so nothing waits in a buffer).
    func append(_ line: String) {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        guard fd >= 0 else { return }
        ShellIO.writeAll(fd, Array((line + "\n").utf8))
        close(fd)
    }
}
