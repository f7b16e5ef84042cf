/// The settings words of a `plugin` statement, expanded, read one at a time with their source spans.
struct PluginSettingWords {
    struct Item {
        var text: String
        var word: Word
    }

    let plugin: any ShellPlugin.Type
    private(set) var items: [Item]
    private var index = 0
    /// Read only to check the words, before the file runs: nothing is opened or changed.
    let isCheckOnly: Bool

    init(plugin: any ShellPlugin.Type, items: [Item], isCheckOnly: Bool = false) {
        self.plugin = plugin
        self.items = items
        self.isCheckOnly = isCheckOnly
    }

    var isEmpty: Bool { index >= items.count }

    /// The next word, left to be read.
    var upcoming: Item? { index < items.count ? items[index] : nil }

    /// The next word, or `nil` at the end.
    mutating func next() -> Item? {
        guard index < items.count else { return nil }
        defer { index += 1 }
        return items[index]
    }

    /// The word after `keyword`, which needs one; an error at the keyword when there is none.
    @ShellActor mutating func value(for keyword: Item, _ usage: String, in run: Run) throws -> Item {
        guard let value = next() else {
            throw run.failure("'\(keyword.text)' needs a value: \(usage)", at: keyword.word.span)
        }
        return value
    }

    /// A word the plugin does not take, with a guess and its usage.
    @ShellActor func unknownSetting(_ word: Item, in run: Run) -> Diagnostic {
        let keywords = plugin.keywords
        var notes: [String] = []
        if let guess = Suggestion.closest(to: word.text, in: keywords + ["on", "off"]) { notes.append("did you mean '\(guess)'?") }
        notes.append("usage: \(plugin.usage)")
        let what = keywords.isEmpty ? "plugin \(plugin.name) takes only on or off"
                                    : "unknown setting '\(word.text.shortened())' for plugin '\(plugin.name)'"
        return run.failure(what, at: word.word.span, notes: notes)
    }
}
