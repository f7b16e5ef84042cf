import Testing
@testable import WeatherShell

/// Every plugin in the registry is reachable everywhere the shell names plugins: a new one
/// added to ``BuiltInPlugins/all`` passes these without other edits.
@ShellActor @Suite struct PluginRegistryTests {
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
}
