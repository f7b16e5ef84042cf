import Plugins
import Targets

/// `plugin loading on|off`: a spinner on stderr while a call runs, once it has gone 300 ms
/// unanswered. On by default at the prompt when stderr is a terminal (``Shell``), off in scripts.
struct LoadingShellPlugin: ShellPlugin {
    static let name = "loading"
    static let usage = "plugin loading on|off"
    static let keywords: [String] = []

    /// Switching on makes the spinner the first time; the session keeps this value from then on.
    var enabled = false {
        didSet { if enabled, plugin == nil { plugin = LoadingPlugin(delay: .milliseconds(300)) } }
    }
    /// One spinner for the whole session, so that calls share the status line. Not made for the
    /// default value, which the settings make afresh each time a plugin never set is read.
    private(set) var plugin: LoadingPlugin?

    @ShellActor mutating func apply(_ words: inout PluginSettingWords, in run: Run) throws {
        if let word = words.next() { throw words.unknownSetting(word, in: run) }
    }

    var settingsText: String { "" }

    func makePlugin(redaction: Redaction, report: @escaping OutputClosure) -> (any Plugin)? {
        enabled ? plugin : nil
    }
}
