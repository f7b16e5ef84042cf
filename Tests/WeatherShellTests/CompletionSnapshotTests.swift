import Foundation
import Testing
@testable import WeatherShell

/// Tab completion after `plugin`: names, `on`/`off`, each plugin's settings and example values.
@ShellActor @Suite struct CompletionSnapshotTests {
    @Test func namesThenSettingsThenValues() async {
        let shell = ShellHarness()
        let run = shell.run
        #expect(run.completions(for: "plugin ") == ["logger", "loading", "retry", "auth", "order"])
        #expect(run.completions(for: "plugin lo") == ["logger", "loading"])
        #expect(run.completions(for: "plugin retry ") == ["on", "off", "count", "backoff", "max", "jitter", "unsafe", "safe"])
        #expect(run.completions(for: "plugin retry on c") == ["count"])
        #expect(run.completions(for: "plugin retry on count ") == ["1", "2", "3", "5"])
        #expect(run.completions(for: "plugin retry on count 3 b") == ["backoff"])
        #expect(run.completions(for: "plugin logger on v") == ["verbose"])
        #expect(run.completions(for: "plugin auth b") == ["bearer", "basic"])
        #expect(run.completions(for: "plugin auth bearer ").isEmpty)
        #expect(run.completions(for: "plugin order retry ") == ["logger", "loading", "auth"])
        #expect(run.completions(for: "plugin loading ") == ["on", "off"])
        #expect(run.completions(for: "plugin nope ").isEmpty)
        await shell.run("set base https://api.example.com/v1")
        #expect(run.completions(for: "plugin auth bearer x host ") == ["api.example.com"])
    }

    @Test func settingsSurviveOffAndOnAndAFailedStatementChangesNothing() async {
        let shell = ShellHarness(mode: .interactive)
        await shell.run("plugin retry on count 5 backoff 1s; plugin retry off; plugin retry on; plugin retry")
        #expect(shell.stdout == "retry    on   count 5 backoff 1s max 5s jitter 20%\n")
        shell.captured.stdout = ""
        await shell.run("plugin retry on count 7 jitter 200%")
        #expect(shell.stderr.contains("error: invalid jitter '200%'"))
        await shell.run("plugin retry")
        #expect(shell.stdout == "retry    on   count 5 backoff 1s max 5s jitter 20%\n")
    }

    @Test func aCredentialBecomesASecret() async {
        let shell = ShellHarness()
        await shell.run("plugin auth basic ann:pa55word everywhere; echo pa55word; plugins")
        #expect(shell.stdout.hasPrefix("***\n"))
        #expect(shell.stdout.contains("auth     on   basic ann:*** everywhere\n"))
        #expect(!shell.stdout.contains("pa55word"))
    }
}
