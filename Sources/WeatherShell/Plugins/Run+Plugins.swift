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
        guard let name = PluginName(rawValue: text) else { throw unknownPlugin(text, at: nameWord.span) }
        var items = try settingWords.map { PluginSettingWords.Item(text: try expand($0).text, word: $0) }
        guard let first = items.first else {
            io.out(pluginLine(name, width: PluginName.names.map(\.count).max() ?? 0) + "\n")
            return
        }
        var on = true
        if let switched = Self.onOff(first.text) {
            on = switched
            items.removeFirst()
            if !on, let extra = items.first {
                throw failure("'plugin \(name.rawValue) off' takes no settings", at: extra.word.span,
                              notes: ["usage: \(PluginSettingWords.usage(name))"])
            }
        }
        var words = PluginSettingWords(plugin: name, items: items)
        var settings = session.pluginSettings
        switch name {
        case .logger:
            try applyLoggerSettings(&words, to: &settings.logger)
            settings.logger.enabled = on
        case .loading:
            if let word = words.next() { throw unknownSetting(word, plugin: .loading) }
            settings.loading = on
        case .retry:
            try applyRetrySettings(&words, to: &settings.retry)
            settings.retry.enabled = on
        case .auth:
            try applyAuthSettings(&words, to: &settings.auth)
            if on { try checkAuthIsComplete(settings.auth, at: nameWord.span) }
            settings.auth.enabled = on
            maskCredential(settings.auth.credential)
        }
        session.pluginSettings = settings
    }

    /// `plugins`: each plugin in order, on or off, with its settings.
    func listPlugins(_ arguments: [Word], command: Word) throws {
        if let extra = arguments.first { throw failure("usage: plugins (to change one: plugin NAME on|off ...)", at: extra.span) }
        let width = PluginName.names.map(\.count).max() ?? 0
        for name in session.pluginSettings.order {
            io.out(pluginLine(name, width: width) + "\n")
        }
    }

    /// `plugin order NAME...`: the named plugins first, in that order; the others after them, as they were.
    private func orderPlugins(_ words: [Word], command: Word) throws {
        guard !words.isEmpty else {
            throw failure("usage: plugin order NAME...", at: command.span,
                          notes: ["now: \(session.pluginSettings.order.map(\.rawValue).joined(separator: " "))"])
        }
        var named: [PluginName] = []
        for word in words {
            let text = try expand(word).text
            guard let name = PluginName(rawValue: text) else { throw unknownPlugin(text, at: word.span) }
            guard !named.contains(name) else { throw failure("'\(text)' is named twice", at: word.span) }
            named.append(name)
        }
        session.pluginSettings.order = named + session.pluginSettings.order.filter { !named.contains($0) }
    }

    /// `retry    on   count 3 backoff 200ms max 5s jitter 20%`.
    private func pluginLine(_ name: PluginName, width: Int) -> String {
        let state = session.pluginSettings.isOn(name) ? "on " : "off"
        let settings = session.pluginSettings.settingsText(name)
        return mask("\(name.rawValue.padding(width))  \(state)  \(settings)").trimmingCharacters(in: .whitespaces)
    }

    private func unknownPlugin(_ text: String, at span: SourceSpan) -> Diagnostic {
        var notes: [String] = []
        if let guess = Suggestion.closest(to: text, in: PluginName.names) { notes.append("did you mean '\(guess)'?") }
        notes.append("plugins: \(PluginName.names.joined(separator: ", ")); usage: plugin NAME on|off [SETTINGS...] or plugin order NAME...")
        return failure("unknown plugin '\(text.shortened())'", at: span, notes: notes)
    }

    /// The plugins for the next call. Buffered stdout is written first, so that what plugins print
    /// on stderr during the call comes after it, as it happened.
    func currentPlugins() -> [any Plugin] {
        io.flush()
        if let built = session.builtPlugins { return built }
        let plugins = session.pluginSettings.plugins(redaction: redaction)
        session.builtPlugins = plugins
        return plugins
    }
}
