import Foundation
import Testing
@testable import WeatherShell

/// `plugin auth digest USER:PASS` read, listed, masked and saved as `basic` is.
@ShellActor @Suite struct AuthShellPluginTests {
    @Test func aDigestCredentialBecomesASecretAndIsListedMasked() async {
        let shell = ShellHarness()
        await shell.run("plugin auth digest ann:pa55word everywhere; echo pa55word ann:pa55word; plugins")
        #expect(shell.stdout.hasPrefix("*** ***\n"), "\(shell.stdout)")
        #expect(shell.stdout.contains("auth     on   digest ann:*** everywhere\n"), "\(shell.stdout)")
        #expect(!shell.stdout.contains("pa55word"))
        #expect(shell.run.completions(for: "plugin auth d") == ["digest"])
    }

    @Test func aDigestCredentialNeedsAUserAndAColon() async {
        let shell = ShellHarness()
        await shell.run("plugin auth digest nocolon everywhere")
        #expect(shell.stderr.contains("expected digest USER:PASSWORD"), "\(shell.stderr)")
        await shell.run("plugin auth digest :pw everywhere")
        #expect(shell.stderr.contains("expected digest USER:PASSWORD"), "\(shell.stderr)")
    }

    @Test func aDigestCredentialFromVariablesIsSavedByThem() async throws {
        let (variable, secret) = SessionFiles.secretInEnvironment()
        let directory = try SessionFiles.temporaryDirectory()
        let shell = ShellHarness()
        let halt = await shell.run("""
            let user = ann
            let pass = env \(variable)
            plugin auth digest $user:$pass host api.example.com
            save session.wsh
            """, directory: directory.path)
        #expect(halt == nil, "\(shell.stderr)")
        let saved = SessionFiles.read(directory.appendingPathComponent("session.wsh"))
        #expect(saved.contains("plugin auth on digest $user:$pass host api.example.com\n"), "\(saved)")
        #expect(SessionFiles.leaks(of: secret, in: saved).isEmpty, "\(saved)")
    }
}
