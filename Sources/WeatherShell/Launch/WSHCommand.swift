import ArgumentParser

/// The `wsh` command line as swift-argument-parser reads it: the full grammar, `--help`,
/// `--version` and usage errors. ``LaunchOptions/fullParse(_:)`` runs it.
struct WSHCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wsh",
        abstract: "A shell for HTTP APIs: declare targets, call them, check their answers.",
        discussion: "With no FILE and a terminal on stdin, wsh starts its interactive prompt. "
            + "`wsh get URL [ITEM...]` (or any method: post, PUT, ...) sends one request, as HTTPie does. "
            + "`wsh serve FILE...` answers the files' targets as a mock server (wsh serve --help); "
            + "`wsh test PATH...` runs .wsh and .http files as tests and writes reports (wsh test --help); "
            + "`wsh fuzz FILE... [TARGET...]` calls the targets with generated inputs and reports answers that break their declaration (wsh fuzz --help); "
            + "`wsh load FILE.wsh` runs a scenario as many users, with a live view and thresholds (wsh load --help). "
            + "Exit codes: 0 success, 1 usage, 2 parse error, 3 runtime error, 4 failed expectation, 130 interrupted; "
            + "`wsh get URL` also 3, 4 or 5 for a 3xx, 4xx or 5xx answer.",
        version: Shell.version
    )

    @Option(name: .customShort("c"), help: ArgumentHelp("Run STATEMENTS and exit.", valueName: "STATEMENTS"))
    var command: String?

    @Flag(help: "Answer calls from targets' sample data (set stub immediate).")
    var stub = false

    @Flag(name: .customLong("norc"), help: "Do not run ~/.config/wsh/init.wsh.")
    var noRC = false

    @Option(name: .customLong("var"), help: ArgumentHelp("Set a variable, typed: n=3 is a number, n:='\"3\"' a string (JSON).",
                                                         valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Option(name: .customLong("secret"), help: ArgumentHelp("Set a variable that is a secret, as --var does: masked wherever it shows, left out by save.",
                                                            valueName: "NAME=VALUE"))
    var secrets: [String] = []

    @Option(name: .customLong("env"), help: ArgumentHelp("Choose an environment of http-client.env.json, REST Client's settings or NAME.env (set env NAME).",
                                                         valueName: "NAME"))
    var environment: String?

    @Argument(help: ArgumentHelp("A .wsh script or a .http file to run, or - to read statements from stdin.", valueName: "FILE"),
              completion: Self.completion)
    var file: String?

    @Argument(help: ArgumentHelp("Variables for the script.", valueName: "NAME=VALUE"), completion: Self.completion)
    var assignments: [String] = []

    /// `serve`, `test` and `.wsh` files first; after `serve`, packs and files; after `test`, files.
    static let completion = CompletionKind.custom { arguments, index, word in
        CommandLineCompletion.candidates(before: CommandLineCompletion.positionals(arguments, before: index), word: word)
    }
}
