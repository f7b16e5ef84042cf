import Plugins
import Targets

/// A plugin built into the shell, as one value type: its name, help, settings words and their
/// completions, how it reads `plugin NAME ...` words, how it shows its settings, and the
/// ``Plugin`` it makes. `plugin`, `plugins`, help and completion read ``BuiltInPlugins/all``,
/// so a new plugin is one file that defines its type, and one line there.
protocol ShellPlugin: Sendable {
    static var name: String { get }
    /// The settings in one line, for notes and `help`: `plugin retry on [count N] ...`.
    static var usage: String { get }
    /// The setting words it takes, for notes, did-you-mean and completion.
    static var keywords: [String] { get }
    /// What completes after a setting word that takes a value.
    static var valueCompletions: [String: PluginValueCompletion] { get }

    /// A plugin as a new session has it (off).
    init()
    var enabled: Bool { get set }
    /// Reads the setting words after `plugin NAME [on]`; a mistake is an error at its word.
    @ShellActor mutating func apply(_ words: inout PluginSettingWords, in run: Run) throws
    /// Refuses to switch on when settings are missing (auth without a credential).
    @ShellActor func checkComplete(at span: SourceSpan, in run: Run) throws
    /// Values to mask from now on (credentials).
    var secrets: [String] { get }
    /// The settings as `plugin NAME on ...` takes them, credentials as `***`.
    var settingsText: String { get }
    /// The settings as `save` writes them after `plugin NAME on`, credentials as the variable
    /// references they were given by; nil when a credential can only be written as its value.
    /// `saved` names the variables the saved file sets.
    @ShellActor func savedSettingsText(saved: Set<String>, in run: Run) -> String?
    /// The plugin a call uses, or nil when it takes no part.
    func makePlugin(redaction: Redaction, report: @escaping OutputClosure) -> (any Plugin)?
}

extension ShellPlugin {
    static var valueCompletions: [String: PluginValueCompletion] { [:] }
    @ShellActor func checkComplete(at span: SourceSpan, in run: Run) throws {}
    var secrets: [String] { [] }
    @ShellActor func savedSettingsText(saved: Set<String>, in run: Run) -> String? { settingsText }
}

/// What Tab offers after a plugin setting that takes a value.
enum PluginValueCompletion: Sendable {
    case words([String])
    /// The hosts of `set base` and the declared targets.
    case hosts
}

/// The plugins built into the shell, in their default order.
enum BuiltInPlugins {
    static let all: [any ShellPlugin.Type] = [LoggerShellPlugin.self, LoadingShellPlugin.self, RetryShellPlugin.self, AuthShellPlugin.self]

    static let names = all.map { $0.name }

    static func named(_ name: String) -> (any ShellPlugin.Type)? {
        all.first { $0.name == name }
    }
}
