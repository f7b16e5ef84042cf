/// Every command of the language with its usage and a one-line summary, for `help`,
/// completion and did-you-mean.
enum CommandCatalog {
    struct Entry {
        let name: String
        let usage: String
        let summary: String
    }

    static let entries: [Entry] = [
        Entry(name: "let", usage: "let NAME = VALUE | env NAME [or DEFAULT] | QUERY", summary: "set a variable; it keeps the value's type (3, \"3\", a query's JSON)"),
        Entry(name: "unset", usage: "unset NAME...", summary: "remove variables"),
        Entry(name: "vars", usage: "vars", summary: "list variables (secrets shown as ***)"),
        Entry(name: "cookies", usage: "cookies [clear | save FILE | load FILE]",
              summary: "list the session's cookies, empty the jar, or write and read curl's cookie file"),
        Entry(name: "set", usage: "set OPTION VALUE", summary: "set a shell option: \(ShellOption.names.joined(separator: ", "))"),
        Entry(name: "echo", usage: "echo WORD...", summary: "print words"),
        Entry(name: "print", usage: "print VALUE...", summary: "print values and queries on the last response"),
        Entry(name: "source", usage: "source FILE", summary: "run a file in this session"),
        Entry(name: "use", usage: "use PACK | use openapi FILE|URL [as PREFIX]", summary: "load a pack of targets by name, or one target per operation of an OpenAPI document"),
        Entry(name: "save", usage: "save FILE", summary: "write the session as a file that source restores (secrets as env lines)"),
        Entry(name: "target", usage: "target NAME { FIELD VALUE... } | target NAME from last", summary: "declare an API target, or keep the last request as one"),
        Entry(name: "targets", usage: "targets [PATTERN]", summary: "list targets"),
        Entry(name: "show", usage: "show NAME [--curl | --httpie] [key=value...] [Header:value...]",
              summary: "print a target's declaration, or a curl or HTTPie command that sends what call would send"),
        Entry(name: "import", usage: "import curl \"curl URL [OPTIONS]\" [as NAME] | import curl curl URL [OPTIONS] [as NAME]", summary: "declare a target from a curl command line (Copy as cURL)"),
        Entry(name: "forget", usage: "forget NAME", summary: "remove a target"),
        Entry(name: "edit", usage: "edit [target|reactor] NAME", summary: "change a target's or reactor's declaration in $VISUAL or $EDITOR"),
        Entry(name: "call", usage: "call NAME [key=value] [key:=json] [name==value] [Header:value] [field@FILE[;type=T]] [@FILE] [--all [--max-pages N]] [--stream] [> FILE]",
              summary: "call a target: ==, a query item; field@FILE, a multipart file; @FILE, the body; a key twice, sent twice; --all, every page; --stream, print as it arrives"),
    ] + RequestStatement.methodCommands.map { name in
        Entry(name: name, usage: "\(name) URL [name==value] [name=value] [name:=json] [Header:value] [field@file] [@file] [-a USER:PASS] [-v|-h|-b] [-o FILE] [--offline] [--form|--multipart] [--stream] [> FILE]",
              summary: "send \(name == "options" ? "an" : "a") \(name.uppercased()) request with no target (HTTPie's items, a[b]=x nested, and flags; URL, /path on set base, or :PORT/path)")
    } + [
        Entry(name: "request", usage: "request METHOD URL [ITEM...] [HTTPie's flags: -a -A -v -h -b -o -d -F --offline --check-status] [--form|--multipart] [--stream] [> FILE]", summary: "send a request with any method: PROPFIND, PURGE, ..."),
        Entry(name: "expect", usage: "expect [not] VALUE OP VALUE | expect VALUE [not] isInteger|exists|... | expect schema",
              summary: "check the last response (typed; .list[? .x > 1] filters; bytes == hex:..|base64:..|@FILE; schema: against its OpenAPI document)"),
        Entry(name: "if", usage: "if EXPR { ... } [else { ... }]", summary: "run a block when an expectation's expression holds"),
        Entry(name: "for", usage: "for NAME in QUERY|WORDS... { ... }", summary: "run a block for each value of a query's list, or each word"),
        Entry(name: "repeat", usage: "repeat N { ... }", summary: "run a block N times"),
        Entry(name: "until", usage: "until EXPR [every DURATION] [max N] { ... }",
              summary: "run a block, then check, until the expression holds (default every 1s, max 10)"),
        Entry(name: "sleep", usage: "sleep DURATION", summary: "wait (500ms, 2s, 1m); Ctrl-C ends it"),
        Entry(name: "openapi", usage: "openapi export FILE.yaml|FILE.json", summary: "write the session's targets as an OpenAPI 3.1 document"),
        Entry(name: "plugins", usage: "plugins", summary: "list plugins in order"),
        Entry(name: "plugin", usage: "plugin NAME on|off [SETTINGS...]", summary: "switch and tune a plugin"),
        Entry(name: "serve", usage: "serve start [--port N] [--cors] | serve stop | serve log | serve", summary: "answer the targets' samples as a mock server"),
        Entry(name: "reactor", usage: "reactor NAME { state ...; action NAME { ... } }", summary: "declare a reactor"),
        Entry(name: "state", usage: "state [REACTOR]", summary: "print a reactor's state"),
        Entry(name: "history", usage: "history [N | PATTERN [N]] | history show N | history replay N [key=value...] [Header:value...]",
              summary: "past calls across sessions; one call's request and answer; send it again"),
    ] + BuiltInReactor.all.map { Entry(name: $0.name, usage: $0.usage, summary: $0.summary) } + [
        Entry(name: "help", usage: "help [COMMAND]", summary: "list commands, or show one"),
        Entry(name: "exit", usage: "exit [CODE]", summary: "leave wsh"),
    ]

    static let names = entries.map(\.name)

    static func entry(_ name: String) -> Entry? { entries.first { $0.name == name } }
}

extension Run {
    func help(_ topic: Word?) throws {
        guard let topic else {
            io.out("Commands:\n")
            let width = CommandCatalog.names.map(\.count).max() ?? 0
            for entry in CommandCatalog.entries {
                io.out("  \(entry.name.padding(width))  \(entry.summary)\n")
            }
            io.out("Type 'help COMMAND' for its usage; the README and examples/ show the whole language.\n")
            return
        }
        let name = try expand(topic).text
        if CommandCatalog.entry(name) == nil, let target = session.targets[name] { return targetHelp(target) }
        guard let entry = CommandCatalog.entry(name) else {
            var notes: [String] = []
            if let guess = Suggestion.closest(to: name, in: CommandCatalog.names) { notes.append("did you mean '\(guess)'?") }
            throw failure("no help for '\(name)'", at: topic.span, notes: notes)
        }
        io.out("usage: \(entry.usage)\n  \(entry.summary)\n")
        if name == "plugin" {
            for plugin in BuiltInPlugins.all { io.out("  \(plugin.usage)\n") }
        }
    }
}

extension String {
    /// The string padded with blanks to `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
