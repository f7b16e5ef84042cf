import Testing
@testable import WeatherShell

/// The catalog: every command that is a type of its own is listed once, with help, and a line
/// naming it runs that type.
@ShellActor @Suite struct CommandCatalogTests {
    @Test func everyCommandIsListedOnceWithItsHelp() async {
        let names = CommandCatalog.entries.map(\.name)
        #expect(Set(names).count == names.count, "a name listed twice: \(names)")
        for command in CommandCatalog.commands {
            let name = command.entry.name
            #expect(names.filter { $0 == name }.count == 1, "\(name) is not in the catalog's list once")
            #expect(CommandCatalog.command(named: name) == command)
            let shell = ShellHarness()
            await shell.run("help \(name)")
            #expect(shell.stdout == "usage: \(command.entry.usage)\n  \(command.entry.summary)\n", "\(name)")
        }
    }

    /// A keyword typed with no arguments says the same usage as `help` does for it.
    @Test func aKeywordsUsageNoteIsTheOneHelpGives() async {
        for name in ["call", "target", "reactor", "unset", "print", "plugin"] {
            let shell = ShellHarness()
            await shell.run(name)
            let usage = CommandCatalog.entry(name)?.usage ?? "?"
            #expect(shell.stderr.contains("note: usage: \(usage)\n"), "\(name): \(shell.stderr)")
        }
    }

    /// Each command is found through the catalog: a wrong use of it fails with its own words, not
    /// as an unknown command.
    @Test func aLineNamingACommandRunsIt() async {
        let shell = ShellHarness()
        await shell.run("forget")
        #expect(shell.stderr.contains("forget"), "\(shell.stderr)")
        #expect(!shell.stderr.contains("unknown command"), "\(shell.stderr)")
        await shell.run("targets")
        #expect(!shell.stderr.contains("unknown command 'targets'"), "\(shell.stderr)")
        await shell.run("quit")
        #expect(shell.stderr.contains("unknown command 'quit'") && shell.stderr.contains("did you mean 'exit'?"), "\(shell.stderr)")
        // A line of a docs transcript, pasted with its prompt.
        await shell.run("wsh> weather current")
        #expect(shell.stderr.contains("unknown command 'wsh>'") && shell.stderr.contains("the line holds the prompt"), "\(shell.stderr)")
        await shell.run("histroy")
        #expect(shell.stderr.contains("unknown command 'histroy'") && shell.stderr.contains("did you mean 'history'?"), "\(shell.stderr)")
        // Other tools' words for wsh's: Hurl's asserts.
        await shell.run("assert status == 200")
        #expect(shell.stderr.contains("unknown command 'assert'") && shell.stderr.contains("did you mean 'expect'?"), "\(shell.stderr)")
    }

    /// Tab after a command's name offers what the command itself says it takes (each type
    /// declares its completions beside its code).
    @Test func tabAfterACommandOffersWhatTheCommandTakes() async {
        let shell = ShellHarness(mode: .interactive)
        await shell.run("target users { base http://127.0.0.1:9; path /u }\nreactor quote { state a = 1; action refresh { emit a = 2 } }")
        let run = shell.run
        #expect(run.completions(for: "show ") == ["users"])
        #expect(run.completions(for: "show users --") == ["--curl", "--httpie"])
        #expect(run.completions(for: "forget u") == ["users"])
        #expect(run.completions(for: "edit ") == ["users", "quote"])
        #expect(run.completions(for: "edit reactor ") == ["quote"])
        #expect(run.completions(for: "state q") == ["quote"])
        #expect(run.completions(for: "serve ") == ["start", "stop", "log"])
        #expect(run.completions(for: "serve start --cors --") == ["--port", "--host", "--delay", "--seed", "--quiet"])
        #expect(run.completions(for: "history r") == ["replay"])
        #expect(run.completions(for: "cookies ") == ["clear", "save", "load"])
        #expect(run.completions(for: "openapi e") == ["export"])
        #expect(run.completions(for: "use open").contains("open-meteo"))
        #expect(run.completions(for: "use o").contains("openapi"))
    }

    /// `help` names its three forms, and `help set` the three of `set`.
    @Test func helpSaysItTakesATopicAndSetItsThreeForms() async {
        let shell = ShellHarness()
        await shell.run("help")
        #expect(shell.stdout.contains("Type 'help COMMAND' for its usage, 'help TOPIC' for a page of the manual"), "\(shell.stdout)")
        shell.captured.stdout = ""
        await shell.run("help help")
        #expect(shell.stdout.hasPrefix("usage: help [COMMAND | TARGET | TOPIC]\n"), "\(shell.stdout)")
        shell.captured.stdout = ""
        await shell.run("help set")
        #expect(shell.stdout.hasPrefix("usage: set OPTION VALUE | set OPTION | set\n"), "\(shell.stdout)")
    }
}
