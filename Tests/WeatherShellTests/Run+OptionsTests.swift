import Testing
import TestSupport
@testable import WeatherShell

/// `set` alone lists every option with its value and where it came from; `set NAME` shows one.
@ShellActor @Suite struct RunOptionsTests {
    @Test func everyOptionIsListedWithItsValueAndOrigin() async {
        let shell = ShellHarness()
        await shell.run("set timeout 3s\nset units fahrenheit\nset")
        let lines = shell.stdout.split(separator: "\n").map(String.init)
        #expect(lines.map { String($0.prefix { $0 != " " }) } == ShellOption.names)
        #expect(lines.contains { $0.wholeMatch(of: /timeout +3s +\(<test>:1\)/) != nil }, "\(lines)")
        #expect(lines.contains { $0.wholeMatch(of: /units +fahrenheit +\(<test>:2\)/) != nil }, "\(lines)")
        #expect(lines.contains { $0.wholeMatch(of: /counter-delay +500ms +\(default\)/) != nil }, "\(lines)")
        #expect(shell.stderr.isEmpty)
    }

    @Test func oneOptionIsShownAndCredentialsInTheBaseAreMasked() async {
        let shell = ShellHarness(mode: .interactive)
        await shell.run(#"set base "https://me:pa55word@api.example.com/v1?appid=k-123456"; set base; set echo"#)
        #expect(shell.stdout == """
            base  https://me:***@api.example.com/v1?appid=***  (<test>:1)
            echo  line  (default)

            """)
        #expect(!shell.stdout.contains("pa55word") && !shell.stdout.contains("k-123456"))
    }

    /// A proxy URL is checked when it is set, not at the next call: the error is at its word.
    @Test func aMalformedProxyURLIsAnErrorAtItsWord() async {
        let shell = ShellHarness()
        #expect(await shell.run("set proxy http://[::1") != nil)
        #expect(shell.stderr.hasPrefix("""
            <test>:1:11: error: set proxy: 'http://[::1' is not a proxy URL: an IPv6 address goes whole in brackets, as in http://[::1]:3128
               set proxy http://[::1
                         ^~~~~~~~~~
            """), "\(shell.stderr)")
        await shell.run("set proxy")
        #expect(shell.stdout.hasPrefix("proxy  env  (default)"), "\(shell.stdout)")
    }
}

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

/// `set timeout off` (or `none`) goes back to no time limit.
@Suite struct TimeoutOffTests {
    /// What `script` prints, run in a new shell.
    @ShellActor private static func run(_ script: String) async -> (stdout: String, stderr: String) {
        let shell = ShellHarness()
        await shell.run(script)
        return (shell.stdout, shell.stderr)
    }

    @Test func timeoutOffGoesBackToNoTimeLimit() async throws {
        try await TestServer.with { server in
            let limited = await Self.run("set output quiet\nset timeout 50ms\nget \(server.baseURL)/slow?ms=400")
            #expect(limited.stderr.contains("timed out"), "the limit applies first: \(limited.stderr)")
            for word in ["off", "none"] {
                let again = await Self.run("set output quiet\nset timeout 50ms\nset timeout \(word)\nget \(server.baseURL)/slow?ms=400\nprint status\nset timeout")
                #expect(again.stderr.isEmpty, "\(word): \(again.stderr)")
                #expect(again.stdout == "200\ntimeout  none  (default)\n", "\(word): \(again.stdout)")
            }
        }
    }
}
