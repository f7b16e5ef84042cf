/// Every command of the language with its usage and a one-line summary, for `help`,
/// completion and did-you-mean.
enum CommandCatalog {
    struct Entry {
        let name: String
        let usage: String
        let summary: String
    }

    /// Every command in `help`'s order: a keyword's entry, or a command that is a type of its own
    /// (a new command is one file and one line here).
    private static let items: [Item] = [
        .keyword(Entry(name: "let", usage: "let NAME = VALUE | env NAME [or DEFAULT] | QUERY", summary: "set a variable; it keeps the value's type (3, \"3\", a query's JSON)")),
        .keyword(Entry(name: "unset", usage: "unset NAME...", summary: "remove variables")),
        .keyword(Entry(name: "vars", usage: "vars", summary: "list variables (secrets shown as ***)")),
        .command(CookiesCommand.self),
        .keyword(Entry(name: "set", usage: "set OPTION VALUE | set OPTION | set", summary: "set a shell option: \(ShellOption.names.joined(separator: ", "))")),
        .keyword(Entry(name: "echo", usage: "echo WORD...", summary: "print words")),
        .keyword(Entry(name: "print", usage: "print VALUE...", summary: "print values and queries on the last response")),
        .keyword(Entry(name: "source", usage: "source FILE", summary: "run a file in this session")),
        .command(UseCommand.self),
        .command(EnvCommand.self),
        .command(SaveCommand.self),
        .command(ExportCommand.self),
        .keyword(Entry(name: "target", usage: "target NAME { FIELD VALUE... } | target NAME from last", summary: "declare an API target, or keep the last request as one")),
        .command(TargetsCommand.self),
        .command(ShowCommand.self),
        .command(ImportCommand.self),
        .command(ForgetCommand.self),
        .command(EditCommand.self),
        .keyword(Entry(name: "call", usage: "call NAME [key=value] [key:=json] [name==value] [Header:value] [field@FILE[;type=T]] [@FILE] [--all [--max-pages N]] [--stream|-S] [> FILE]",
              summary: "call a target: ==, a query item; field@FILE, a multipart file; @FILE, the body; a key twice, sent twice; --all, every page; --stream, print as it arrives")),
    ] + RequestStatement.methodCommands.map { name -> Item in
        .keyword(Entry(name: name, usage: "\(name) URL [name==value] [name=value] [name:=json] [Header:value] [field@file] [@file] [-a USER:PASS] [-v|-h|-b] [-o FILE] [--offline] [--form|--multipart] [--stream|-S] [> FILE]",
              summary: "send \(name == "options" ? "an" : "a") \(name.uppercased()) request with no target (HTTPie's items, a[b]=x nested, and flags; URL, /path on set base, or :PORT/path)"))
    } + [
        .keyword(Entry(name: "request", usage: "request METHOD URL [ITEM...] [HTTPie's flags: -a -A -v -h -b -o -d -F --offline --check-status] [--form|--multipart] [--stream|-S] [> FILE]", summary: "send a request with any method: PROPFIND, PURGE, ...")),
        .command(ExpectSchemaCommand.self),
        .keyword(Entry(name: "if", usage: "if EXPR { ... } [else if EXPR { ... }] [else { ... }]", summary: "run a block when an expectation's expression holds")),
        .keyword(Entry(name: "for", usage: "for NAME in QUERY|WORDS... { ... }", summary: "run a block for each value of a query's list, or each word")),
        .keyword(Entry(name: "repeat", usage: "repeat N { ... }", summary: "run a block N times")),
        .keyword(Entry(name: "until", usage: "until EXPR [every DURATION] [max N] { ... }",
              summary: "run a block, then check, until the expression holds (default every 1s, max 10)")),
        .keyword(Entry(name: "sleep", usage: "sleep DURATION", summary: "wait (500ms, 2s, 1m); Ctrl-C ends it")),
        .command(OpenAPICommand.self),
        .command(PluginsCommand.self),
        .keyword(Entry(name: "plugin", usage: "plugin NAME on|off [SETTINGS...]", summary: "switch and tune a plugin")),
        .command(ServeShellCommand.self),
        .command(FuzzShellCommand.self),
        .keyword(Entry(name: "reactor", usage: "reactor NAME { state ...; action NAME [PARAMS] { ... } }", summary: "declare a reactor")),
        .command(StateCommand.self),
        .command(HistoryCommand.self),
    ] + BuiltInReactor.all.map { Item.keyword(Entry(name: $0.name, usage: $0.usage, summary: $0.summary)) } + [
        .keyword(Entry(name: "help", usage: "help [COMMAND | TARGET | TOPIC]", summary: "list commands, or show a command's usage, what a target takes or a page of the manual")),
        .keyword(Entry(name: "exit", usage: "exit [CODE]", summary: "leave wsh")),
    ]

    private enum Item: Sendable {
        case keyword(Entry)
        case command(any ShellCommand.Type)
    }

    static let entries: [Entry] = items.map { item in
        switch item {
        case .keyword(let entry): entry
        case .command(let command): command.entry
        }
    }

    /// The commands that are not keywords, each a type of its own, found by name when a line runs one.
    static let commands: [any ShellCommand.Type] = items.compactMap { if case .command(let command) = $0 { command } else { nil } }

    /// The command typed as `name`, if it is one of ``commands``.
    static func command(named name: String) -> (any ShellCommand.Type)? {
        commandsByName[name]
    }

    private static let commandsByName = Dictionary(uniqueKeysWithValues: commands.map { ($0.entry.name, $0) })

    static let names = entries.map(\.name)

    /// The words inside `reactor NAME { ... }` that are no commands of their own (`state` is one).
    static let reactorWords = [
        "action": "action NAME [PARAMS...] [unless FIELD] { ... } [catch { ... }]",
        "unless": "action NAME [PARAMS...] unless FIELD { ... }: the action does nothing while that boolean field is true",
        "emit": "emit NAME = VALUE[, NAME = VALUE...]",
        "catch": "action NAME { ... } catch { ... }: runs when the action's block fails, $error holding why",
    ]

    static func entry(_ name: String) -> Entry? { entries.first { $0.name == name } }
}

extension Run {
    /// `help`: the commands; `help COMMAND`: its usage; `help TARGET`: what the target takes;
    /// `help TOPIC`: the manual's page of that name (`help NAME.md` when a command has the name too).
    func help(_ topic: Word?) throws {
        guard let topic else {
            io.out("Commands:\n")
            let width = CommandCatalog.names.map(\.count).max() ?? 0
            for entry in CommandCatalog.entries {
                io.out("  \(entry.name.padding(width))  \(entry.summary)\n")
            }
            listDeclaredReactors()
            io.out("Type 'help COMMAND' for its usage, 'help TOPIC' for a page of the manual; docs/ and examples/ show the whole language.\n")
            let topics = ManualPages.topics
            if !topics.isEmpty {
                io.out("The manual's pages, as 'help TOPIC' (TOPIC.md where a command has the name): \(topics.joined(separator: " "))\n")
            }
            return
        }
        let name = try expand(topic).text
        if let entry = CommandCatalog.entry(name) {
            io.out("usage: \(entry.usage)\n  \(entry.summary)\n")
            if name == "plugin" {
                for plugin in BuiltInPlugins.all { io.out("  \(plugin.usage)\n") }
            }
            return
        }
        if let usage = CommandCatalog.reactorWords[name] {
            return io.out("usage: \(usage)\n  a word of a reactor's declaration (help reactor; help reactors for the page)\n")
        }
        // A reactor, a target and a page of the manual may share a name (`quote`, `reactors`): each is shown.
        let reactor = session.reactors[name] as? DeclaredReactorCommand
        let target = session.targets[name]
        let page = ManualPages.page(name)
        if let reactor { reactorHelp(reactor) }
        if let target { targetHelp(target) }
        if let page {
            if reactor != nil || target != nil { io.out("\nThe manual's page '\(name)':\n\n") }
            return io.out(page)
        }
        if reactor != nil || target != nil { return }
        var notes: [String] = []
        if let guess = Suggestion.closest(to: name, in: CommandCatalog.names + declaredReactors.map(\.name) + ManualPages.topics) { notes.append("did you mean '\(guess)'?") }
        if ManualPages.folder == nil {
            // A binary copied on its own: the pages live beside an installed one, not inside it.
            notes.append("the manual's pages were not found: an installed wsh reads them from ../share/doc/wsh beside its binary "
                         + "(./scripts/install puts them there), one built in the repository from its docs/")
        }
        throw failure("no help for '\(name)'", at: topic.span, notes: notes)
    }
}

extension String {
    /// The string padded with blanks to `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
