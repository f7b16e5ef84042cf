/// A command that is not a keyword of the language: `history`, `cookies`, `serve` and the others.
/// Each is a type beside the code it runs (in Commands/, Declarations/ ...) that says how it is
/// typed and what it does; ``CommandCatalog/commands`` lists them, and a run finds them there.
/// A new command is such a type and a line in that list.
protocol ShellCommand {
    /// Its name, usage and one-line summary, for `help`, completion and did-you-mean.
    static var entry: CommandCatalog.Entry { get }
    /// Runs it in `run`: `command` is its name as typed (errors point at it), `statement` the whole line.
    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws
    /// What Tab offers for `word` after `previous` (the words before it, the command's name first),
    /// from what completion knows of the session; nil leaves it to the prompt's general rules.
    static func completions(after previous: [String], word: String, in session: CompletionSnapshot) -> [String]?
}

extension ShellCommand {
    static func completions(after previous: [String], word: String, in session: CompletionSnapshot) -> [String]? { nil }
}
