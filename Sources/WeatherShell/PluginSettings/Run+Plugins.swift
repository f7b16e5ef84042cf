import Foundation
import Plugins
import Targets

/// `plugins`, `plugin NAME on|off [SETTINGS...]`, `plugin order NAME...`, and the plugins of each call.
extension Run {
    /// `plugin NAME [on|off] [SETTINGS...]`: settings without `on` or `off` also switch the plugin on;
    /// `plugin NAME` alone shows its line. Nothing changes unless every word is valid.
    func runPlugin(name nameWord: Word, settings settingWords: [Word]) throws {
        let text = try expand(nameWord).text
        if text == "order" { return try orderPlugins(settingWords, command: nameWord) }
        guard let type = BuiltInPlugins.named(text), var plugin = session.pluginSettings[text] else {
            throw unknownPlugin(text, at: nameWord.span)
        }
        var items = try settingWords.map { PluginSettingWords.Item(text: try expand($0).text, word: $0) }
        guard let first = items.first else {
            io.out(pluginLine(text, width: BuiltInPlugins.names.map(\.count).max() ?? 0) + "\n")
            return
        }
        var on = true
        if let switched = Self.onOff(first.text) {
            on = switched
            items.removeFirst()
            if !on, let extra = items.first {
                throw failure("'plugin \(text) off' takes no settings", at: extra.word.span, notes: ["usage: \(type.usage)"])
            }
        }
        var words = PluginSettingWords(plugin: type, items: items)
        try plugin.apply(&words, in: self)
        if on { try plugin.checkComplete(at: nameWord.span, in: self) }
        plugin.enabled = on
        for secret in plugin.secrets { session.mask.add(secret) }
        session.pluginSettings[text] = plugin
    }

    /// The `plugin` statements among `statements` and the blocks they hold (`if`, loops) whose words
    /// hold no variable, read as they will be, before anything runs: an unknown plugin or a wrong
    /// setting word (`plugin logger on very_verbose`) is said as a parse error would be, with its
    /// did-you-mean, and the file runs nothing.
    func checkPluginSettings(_ statements: [Statement]) -> Diagnostic? {
        for statement in statements {
            switch statement.kind {
            case .conditional(let conditional):
                if let problem = checkPluginSettings(conditional.then + (conditional.otherwise ?? [])) { return problem }
                continue
            case .loop(let loop):
                if let problem = checkPluginSettings(loop.body) { return problem }
                continue
            default: break
            }
            guard case .plugin(let nameWord, let settingWords) = statement.kind, let name = nameWord.literal, name != "order" else { continue }
            guard let type = BuiltInPlugins.named(name) else {
                let unknown = unknownPlugin(name, at: nameWord.span)
                return Diagnostic(.parse, unknown.message, file: unknown.file, span: unknown.span, notes: unknown.notes)
            }
            var items = settingWords.compactMap { word in word.literal.map { PluginSettingWords.Item(text: $0, word: word) } }
            guard items.count == settingWords.count, !items.isEmpty else { continue }
            if let switched = Self.onOff(items[0].text) {
                items.removeFirst()
                if !switched { continue }
            }
            var words = PluginSettingWords(plugin: type, items: items, isCheckOnly: true)
            var plugin = type.init()
            do {
                try plugin.apply(&words, in: self)
            } catch let diagnostic as Diagnostic {
                return Diagnostic(.parse, diagnostic.message, file: diagnostic.file, span: diagnostic.span, notes: diagnostic.notes)
            } catch {
                continue
            }
        }
        return nil
    }

    /// `plugins`: each plugin in order, on or off, with its settings.
    func listPlugins(_ arguments: [Word], command: Word) throws {
        if let extra = arguments.first { throw failure("usage: plugins (to change one: plugin NAME on|off ...)", at: extra.span) }
        let width = BuiltInPlugins.names.map(\.count).max() ?? 0
        for name in session.pluginSettings.order {
            io.out(pluginLine(name, width: width) + "\n")
        }
    }

    /// `plugin order NAME...`: the named plugins first, in that order; the others after them, as they were.
    private func orderPlugins(_ words: [Word], command: Word) throws {
        guard !words.isEmpty else {
            throw failure("usage: plugin order NAME...", at: command.span,
                          notes: ["now: \(session.pluginSettings.order.joined(separator: " "))"])
        }
        var named: [String] = []
        for word in words {
            let name = try expand(word).text
            guard BuiltInPlugins.named(name) != nil else { throw unknownPlugin(name, at: word.span) }
            guard !named.contains(name) else { throw failure("'\(name)' is named twice", at: word.span) }
            named.append(name)
        }
        session.pluginSettings.order = named + session.pluginSettings.order.filter { !named.contains($0) }
    }

    /// `retry    on   count 3 backoff 200ms max 5s jitter 20%`.
    private func pluginLine(_ name: String, width: Int) -> String {
        let state = session.pluginSettings.isOn(name) ? "on " : "off"
        let settings = session.pluginSettings.settingsText(name)
        return mask("\(name.padding(width))  \(state)  \(settings)").trimmingCharacters(in: .whitespaces)
    }

    private func unknownPlugin(_ text: String, at span: SourceSpan) -> Diagnostic {
        var notes: [String] = []
        if let guess = Suggestion.closest(to: text, in: BuiltInPlugins.names) { notes.append("did you mean '\(guess)'?") }
        notes.append("plugins: \(BuiltInPlugins.names.joined(separator: ", ")); usage: plugin NAME on|off [SETTINGS...] or plugin order NAME...")
        return failure("unknown plugin '\(text.shortened())'", at: span, notes: notes)
    }

    /// The plugins for the next call. Buffered stdout is written first, so that what plugins print
    /// on stderr during the call comes after it, as it happened.
    func currentPlugins() -> [any Plugin] {
        io.flush()
        if let built = session.builtPlugins { return built }
        let plugins = session.pluginSettings.plugins(redaction: redaction).filter { session.retries || !($0 is RetryPlugin) }
        session.builtPlugins = plugins
        return plugins
    }

}

/// `plugins`: list plugins in order
struct PluginsCommand: ShellCommand {
    static let entry = CommandCatalog.Entry(name: "plugins", usage: "plugins", summary: "list plugins in order")

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        try run.listPlugins(arguments, command: command)
    }
}
