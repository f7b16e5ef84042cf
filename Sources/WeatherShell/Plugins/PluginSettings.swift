import Plugins
import Targets

/// The session's plugins: which are on, how each is tuned, and their order. Turning a plugin off
/// keeps its settings, so `plugin NAME on` brings it back as it was.
struct PluginSettings {
    /// Plugin names in the order calls go through them.
    var order: [String] = BuiltInPlugins.names
    private var plugins: [String: any ShellPlugin] = Dictionary(uniqueKeysWithValues: BuiltInPlugins.all.map { ($0.name, $0.init()) })

    /// The settings of the plugin `name`.
    subscript(name: String) -> (any ShellPlugin)? {
        get { plugins[name] }
        set { plugins[name] = newValue }
    }

    func isOn(_ name: String) -> Bool {
        plugins[name]?.enabled ?? false
    }

    func settingsText(_ name: String) -> String {
        plugins[name]?.settingsText ?? ""
    }

    /// The plugins in effect, in order; secrets in what they print are masked by `redaction`.
    func plugins(redaction: Redaction) -> [any Plugin] {
        let report: OutputClosure = { Console.standardError.write(line: $0) }
        return order.compactMap { plugins[$0]?.makePlugin(redaction: redaction, report: report) }
    }
}
