import Testing
@testable import WeatherShell

/// `set base` moves a pack's targets, keeping their paths; `show` says where their calls go.
@ShellActor @Suite struct PackBaseShowTests {
    @Test func showSaysWhereAPackTargetGoesUnderSetBase() async {
        let shell = ShellHarness()
        await shell.run("use open-meteo\nshow current")
        #expect(shell.stdout.contains("base     https://api.open-meteo.com/v1"), "\(shell.stdout)")
        #expect(!shell.stdout.contains("under set base"), "\(shell.stdout)")
        await shell.run("set base http://127.0.0.1:4010\nshow current")
        #expect(shell.stdout.contains("# under set base, its calls go to http://127.0.0.1:4010/v1 (set base off: to its own base)"),
                "\(shell.stdout)")
        // A target declared by hand keeps its own base: nothing to say.
        await shell.run("target mine { base https://example.com/api; path /x }\nshow mine")
        #expect(shell.stdout.components(separatedBy: "under set base").count == 2, "\(shell.stdout)")
    }
}
