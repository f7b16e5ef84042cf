import Plugins
import Targets

/// `plugin retry on [count N] [backoff DURATION] [max DURATION] [jitter FRACTION|PERCENT%] [unsafe|safe]`;
/// the defaults are ``RetryPlugin/default``'s.
struct RetryShellPlugin: ShellPlugin {
    static let name = "retry"
    static let usage = "plugin retry on [count N] [backoff DURATION] [max DURATION] [jitter FRACTION|PERCENT%] [unsafe|safe]"
    static let keywords = ["count", "backoff", "max", "jitter", "unsafe", "safe"]
    static let valueCompletions: [String: PluginValueCompletion] = [
        "count": .words(["1", "2", "3", "5"]), "backoff": .words(["100ms", "200ms", "500ms", "1s"]),
        "max": .words(["2s", "5s", "10s", "30s"]), "jitter": .words(["0", "20%", "50%"]),
    ]

    var enabled = false
    var count = RetryPlugin.default.count
    var backoff = RetryPlugin.default.backoff
    var maxDelay = RetryPlugin.default.maxDelay
    var jitter = RetryPlugin.default.jitter
    var unsafe = false

    @ShellActor mutating func apply(_ words: inout PluginSettingWords, in run: Run) throws {
        while let word = words.next() {
            switch word.text {
            case "count":
                let value = try words.value(for: word, "count N", in: run)
                guard let count = Int(value.text), (0...100).contains(count) else {
                    throw run.failure("invalid retry count '\(value.text.shortened())'", at: value.word.span,
                                      notes: ["a whole number from 0 to 100"])
                }
                self.count = count
            case "backoff", "max":
                let value = try words.value(for: word, "\(word.text) DURATION", in: run)
                guard let duration = DurationText.parse(value.text) else {
                    throw run.failure("invalid \(word.text) '\(value.text.shortened())'", at: value.word.span,
                                      notes: ["a duration such as 200ms, 2s or 1m"])
                }
                if word.text == "backoff" { backoff = duration } else { maxDelay = duration }
            case "jitter":
                let value = try words.value(for: word, "jitter FRACTION, as in jitter 0.2 or jitter 20%", in: run)
                let text = value.text
                let number = text.hasSuffix("%") ? Double(text.dropLast()).map { $0 / 100 } : Double(text)
                guard let jitter = number, (0...1).contains(jitter) else {
                    throw run.failure("invalid jitter '\(text.shortened())'", at: value.word.span,
                                      notes: ["a fraction from 0 to 1 such as 0.2, or a percentage such as 20%"])
                }
                self.jitter = jitter
            case "unsafe":
                unsafe = true
            case "safe":
                unsafe = false
            default:
                throw words.unknownSetting(word, in: run)
            }
        }
    }

    var settingsText: String {
        var words = ["count", "\(count)", "backoff", backoff.settingText, "max", maxDelay.settingText,
                     "jitter", "\(Int((jitter * 100).rounded()))%"]
        if unsafe { words.append("unsafe") }
        return words.joined(separator: " ")
    }

    /// There even when off, with no retries of its own, so that a target's `retry N` still
    /// retries N times with the default backoff.
    func makePlugin(redaction: Redaction, report: @escaping OutputClosure) -> (any Plugin)? {
        guard enabled else { return RetryPlugin(count: 0, redaction: redaction, report: report) }
        return RetryPlugin(count: count, backoff: backoff, maxDelay: maxDelay, jitter: jitter,
                           retriesUnsafeMethods: unsafe, redaction: redaction, report: report)
    }
}
