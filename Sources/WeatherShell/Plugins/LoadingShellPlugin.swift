import Plugins
import Targets

/// `plugin loading on|off`: a spinner on stderr while a call runs.
struct LoadingShellPlugin: ShellPlugin {
    static let name = "loading"
    static let usage = "plugin loading on|off"
    static let keywords: [String] = []

    var enabled = false
    /// One spinner for the whole session, so that calls share the status line.
    let plugin = LoadingPlugin()

    @ShellActor mutating func apply(_ words: inout PluginSettingWords, in run: Run) throws {
        if let word = words.next() { throw words.unknownSetting(word, in: run) }
    }

    var settingsText: String { "" }

    func makePlugin(redaction: Redaction, report: @escaping OutputClosure) -> (any Plugin)? {
        enabled ? plugin : nil
    }
}
