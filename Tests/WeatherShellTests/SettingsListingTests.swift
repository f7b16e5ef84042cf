import Testing
@testable import WeatherShell

/// `set` alone lists every option with its value and where it came from; `set NAME` shows one.
@ShellActor @Suite struct SettingsListingTests {
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
}
