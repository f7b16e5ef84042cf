import Testing
@testable import WeatherShell

/// Every plugin in the registry is reachable everywhere the shell names plugins: a new one
/// added to ``BuiltInPlugins/all`` passes these without other edits.
@ShellActor @Suite struct ShellPluginTests {
    @Test(arguments: BuiltInPlugins.names)
    func aRegisteredPluginIsListedHelpedCompletedAndSwitched(name: String) async throws {
        let plugin = try #require(BuiltInPlugins.named(name))
        #expect(plugin.usage.hasPrefix("plugin \(name) "))
        let shell = ShellHarness(mode: .interactive)
        #expect(shell.run.completions(for: "plugin ").contains(name))
        #expect(shell.run.completions(for: "plugin \(name) ").starts(with: ["on", "off"]))
        await shell.run("plugins; help plugin")
        #expect(shell.stdout.split(separator: "\n").contains { $0.hasPrefix(name + " ") && $0.contains(" off") })
        #expect(shell.stdout.contains(plugin.usage))
        await shell.run("plugin \(name) on zzz-not-a-setting")
        #expect(shell.stderr.contains("usage: \(plugin.usage)"))
        #expect(!shell.run.session.pluginSettings.isOn(name))
        await shell.run("plugin order \(name)")
        #expect(shell.run.session.pluginSettings.order.first == name)
    }

    /// A wrong setting word is said before anything of the file runs, as a parse error (issue 39.7),
    /// with its did-you-mean; a file with right settings runs, and opens its log file only then.
    @Test func aWrongSettingIsAParseErrorBeforeAnythingRuns() async throws {
        let shell = ShellHarness()
        let halt = await shell.run("echo before\nplugin logger on verbos\necho after")
        guard case .failure(.parse)? = halt else { Issue.record("\(String(describing: halt)): \(shell.stderr)"); return }
        #expect(shell.stdout.isEmpty, "nothing ran: \(shell.stdout)")
        #expect(shell.stderr.contains("<test>:2:18: error: unknown setting 'verbos' for plugin 'logger'"), "\(shell.stderr)")
        #expect(shell.stderr.contains("did you mean 'verbose'?"), "\(shell.stderr)")
        let nested = ShellHarness()
        let nestedHalt = await nested.run("echo before\nif 1 == 1 { for x in a b { plugin retry on cuont 3 } }")
        guard case .failure(.parse)? = nestedHalt else { Issue.record("in a block: \(nested.stderr)"); return }
        #expect(nested.stdout.isEmpty && nested.stderr.contains("did you mean 'count'?"), "\(nested.stdout)\(nested.stderr)")
        let good = ShellHarness()
        let ran = await good.run("echo before\nplugin retry on count 2 backoff 10ms\necho after")
        #expect(ran == nil, "\(good.stderr)")
        #expect(good.stdout == "before\nafter\n")
    }
}
