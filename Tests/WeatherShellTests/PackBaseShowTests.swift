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

    /// `set base` takes the shorthands a request takes; anything else is an error that says what it takes.
    @Test(arguments: [
        ("localhost:4010/v1", "http://localhost:4010/v1"), ("127.0.0.1:4010", "http://127.0.0.1:4010"),
        (":4010", "http://localhost:4010/"), ("https://h/v1", "https://h/v1"),
    ])
    func setBaseTakesTheShorthandsOfARequest(typed: String, base: String) async {
        let shell = ShellHarness()
        #expect(await shell.run("set base \(typed)\nset base") == nil, "\(shell.stderr)")
        #expect(shell.stdout.hasPrefix("base  " + base + "  ("), "\(shell.stdout)")
    }

    @Test(arguments: ["ftp://h/x", "users", "/v1"])
    func setBaseRefusesWhatIsNoURL(typed: String) async {
        let shell = ShellHarness()
        #expect(await shell.run("set base \(typed)") != nil)
        #expect(shell.stderr.contains("a base URL starts with http:// or https:// (or is a host such as localhost:8080), or is off"),
                "\(shell.stderr)")
    }
}
