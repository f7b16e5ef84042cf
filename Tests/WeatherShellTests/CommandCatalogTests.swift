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

    /// Each command is found through the catalog: a wrong use of it fails with its own words, not
    /// as an unknown command.
    @Test func aLineNamingACommandRunsIt() async {
        let shell = ShellHarness()
        await shell.run("forget")
        #expect(shell.stderr.contains("forget"), "\(shell.stderr)")
        #expect(!shell.stderr.contains("unknown command"), "\(shell.stderr)")
        await shell.run("targets")
        #expect(!shell.stderr.contains("unknown command 'targets'"), "\(shell.stderr)")
        await shell.run("histroy")
        #expect(shell.stderr.contains("unknown command 'histroy'") && shell.stderr.contains("did you mean 'history'?"), "\(shell.stderr)")
    }
}
