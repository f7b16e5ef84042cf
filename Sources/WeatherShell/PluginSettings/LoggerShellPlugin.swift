import Foundation
import Plugins
import Targets

/// `plugin logger on [summary|verbose|curl] [body CHARS|all] [file PATH | stderr]`.
struct LoggerShellPlugin: ShellPlugin {
    static let name = "logger"
    static let usage = "plugin logger on [summary|verbose|curl] [body CHARS|all] [file PATH | stderr]"
    static let keywords = ["summary", "verbose", "curl", "body", "file", "stderr"]
    static let valueCompletions: [String: PluginValueCompletion] = ["body": .words(["1024", "4096", "all"]), "file": .words(["wsh.log"])]

    var enabled = false
    var mode: LoggerPlugin.Mode = .summary
    /// Characters of a body shown in verbose mode; `nil` for all.
    var bodyLimit: Int? = LoggerPlugin.defaultBodyLimit
    /// The file the log goes to instead of stderr.
    var file: LogFile?

    @ShellActor mutating func apply(_ words: inout PluginSettingWords, in run: Run) throws {
        while let word = words.next() {
            if let mode = LoggerPlugin.Mode(rawValue: word.text) {
                self.mode = mode
                continue
            }
            switch word.text {
            case "body":
                let value = try words.value(for: word, "body CHARS or body all", in: run)
                if value.text == "all" {
                    bodyLimit = nil
                } else if let limit = Int(value.text), limit >= 0 {
                    bodyLimit = limit
                } else {
                    throw run.failure("invalid body limit '\(value.text.shortened())'", at: value.word.span,
                                      notes: ["a number of characters such as 4096, 0 to leave bodies out, or all"])
                }
            case "file":
                let path = try words.value(for: word, "file PATH", in: run)
                if !words.isCheckOnly { file = try Self.logFile(path, in: run) }
            case "stderr":
                file = nil
            default:
                throw words.unknownSetting(word, in: run)
            }
        }
    }

    var settingsText: String {
        var words = [mode.rawValue]
        if mode == .verbose { words += ["body", bodyLimit.map(String.init) ?? "all"] }
        if let file { words += ["file", Run.quoted(file.path)] }
        return words.joined(separator: " ")
    }

    func makePlugin(redaction: Redaction, report: @escaping OutputClosure) -> (any Plugin)? {
        guard enabled else { return nil }
        return LoggerPlugin(mode: mode, bodyLimit: bodyLimit, redaction: redaction, output: file?.output ?? report)
    }

    @ShellActor private static func logFile(_ value: PluginSettingWords.Item, in run: Run) throws -> LogFile {
        var path = Environment.expandingHome(value.text)
        if !path.hasPrefix("/") { path = (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path) }
        do {
            return try LogFile(path: path)
        } catch {
            throw run.failure(error.description, at: value.word.span)
        }
    }
}
