import Plugins
import Targets

/// The session's plugins: which are on, how each is tuned, and their order. Turning a plugin off
/// keeps its settings, so `plugin NAME on` brings it back as it was.
///
/// A plugin's settings are made when first read or set, not with the session: a script that
/// makes no call (`wsh -c 'exit'`) instantiates none of the plugin types.
struct PluginSettings {
    private var customOrder: [String]?
    private var changed: [String: any ShellPlugin] = [:]
    /// Plugins this session has on before any `plugin` statement, unlike a new session elsewhere
    /// (the loading spinner at a terminal's prompt); `save` writes them only once changed.
    private var switchedOnByDefault: [String: any ShellPlugin] = [:]

    /// Plugin names in the order calls go through them.
    var order: [String] {
        get { customOrder ?? BuiltInPlugins.names }
        set { customOrder = newValue }
    }

    /// The settings of the plugin `name`: as set, or as a new session has them.
    subscript(name: String) -> (any ShellPlugin)? {
        get { changed[name] ?? switchedOnByDefault[name] ?? BuiltInPlugins.named(name)?.init() }
        set { changed[name] = newValue }
    }

    /// Makes the plugin `name` on in this session until a `plugin` statement says otherwise.
    mutating func switchOnByDefault(_ name: String) {
        guard changed[name] == nil, var plugin = BuiltInPlugins.named(name)?.init() else { return }
        plugin.enabled = true
        switchedOnByDefault[name] = plugin
    }

    /// Whether `plugin order` has changed the order.
    var isReordered: Bool { customOrder != nil }

    /// The plugins whose settings a `plugin` statement has set, in ``order``: what `save` writes.
    var changedNames: [String] { order.filter { changed[$0] != nil } }

    func isOn(_ name: String) -> Bool {
        self[name]?.enabled ?? false
    }

    func settingsText(_ name: String) -> String {
        self[name]?.settingsText ?? ""
    }

    /// The plugins in effect, in order; secrets in what they print are masked by `redaction`.
    func plugins(redaction: Redaction) -> [any Plugin] {
        let report: OutputClosure = { Console.standardError.write(line: $0) }
        return order.compactMap { self[$0]?.makePlugin(redaction: redaction, report: report) }
    }
}
