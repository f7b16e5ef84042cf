/// The settings words of a `plugin` statement, expanded, read one at a time with their source spans.
struct PluginSettingWords {
    struct Item {
        var text: String
        var word: Word
    }

    let plugin: PluginName
    private(set) var items: [Item]
    private var index = 0

    init(plugin: PluginName, items: [Item]) {
        self.plugin = plugin
        self.items = items
    }

    var isEmpty: Bool { index >= items.count }

    /// The next word, or `nil` at the end.
    mutating func next() -> Item? {
        guard index < items.count else { return nil }
        defer { index += 1 }
        return items[index]
    }

    /// The word after `keyword`, which needs one; an error at the keyword when there is none.
    mutating func value(for keyword: Item, _ usage: String, _ failure: (String, SourceSpan, [String]) -> Diagnostic) throws -> Item {
        guard let value = next() else {
            throw failure("'\(keyword.text)' needs a value: \(usage)", keyword.word.span, [])
        }
        return value
    }

    /// What each plugin accepts, for notes, did-you-mean and completion.
    static func keywords(_ plugin: PluginName) -> [String] {
        switch plugin {
        case .logger: ["summary", "verbose", "curl", "body", "file", "stderr"]
        case .loading: []
        case .retry: ["count", "backoff", "max", "jitter", "unsafe", "safe"]
        case .auth: ["bearer", "basic", "header", "host", "everywhere"]
        }
    }

    /// The settings of a plugin in one line, for notes and `help`.
    static func usage(_ plugin: PluginName) -> String {
        switch plugin {
        case .logger: "plugin logger on [summary|verbose|curl] [body CHARS|all] [file PATH | stderr]"
        case .loading: "plugin loading on|off"
        case .retry: "plugin retry on [count N] [backoff DURATION] [max DURATION] [jitter FRACTION|PERCENT%] [unsafe|safe]"
        case .auth: "plugin auth [on] bearer TOKEN | basic USER:PASS | header NAME:VALUE [host HOST | everywhere]"
        }
    }
}
