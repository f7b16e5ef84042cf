/// A reactor built into the shell, as one value: its command, help, actions, completions and how
/// to make it. `help`, completion, `state` and the command lookup all read ``all``, so a new
/// built-in is one file that defines its value, and one line here.
struct BuiltInReactor: Sendable {
    let name: String
    let usage: String
    let summary: String
    let actions: [String]
    /// Words that complete after `NAME ACTION`: `weather use <Tab>`.
    var argumentCompletions: [String: [String]] = [:]
    /// Makes the reactor for a session, on first use.
    let make: @ShellActor @Sendable (Run) -> ShellReactor

    static let all: [BuiltInReactor] = [.weather, .counter]

    static let names = all.map(\.name)

    static func named(_ name: String) -> BuiltInReactor? {
        all.first { $0.name == name }
    }
}
