import Testing
import WeatherShell

/// wsh parses its command line twice over: a quick parse for the plain forms (start-up time), and
/// swift-argument-parser for the rest. Whenever the quick parse answers, it must answer as
/// swift-argument-parser would.
@Suite struct CommandLineAgreementTests {
    /// What the full parser says for a command line the quick parse answered, or nil when they agree.
    static func disagreement(_ arguments: [String]) -> String? {
        guard let quick = LaunchOptions.quickParse(arguments) else { return nil }
        let full = LaunchOptions.fullParse(arguments)
        switch (quick, full) {
        case (.run(let options), .run(let fullOptions)) where options == fullOptions: return nil
        case (.version, .exit(output: Shell.version)): return nil
        case (_, .usageError(let message)):
            return "\(arguments.debugDescription): quick \(quick), full \(message.prefix { $0 != "\n" })"
        default: return "\(arguments.debugDescription): quick \(quick), full \(full)"
        }
    }

    @Test func everyShortCommandLine() {
        let vectors = ArgumentVectors.exhaustive()
        let answered = vectors.filter { LaunchOptions.quickParse($0) != nil }
        let disagreements = answered.compactMap(Self.disagreement)
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(answered.count): \(disagreements.prefix(20))")
        // Not a vacuous check: the quick parse answers about 2,000 of the 14,425.
        #expect(answered.count > 1500, "the quick parse answered \(answered.count) of \(vectors.count)")
    }

    @Test func randomLongerCommandLines() {
        let vectors = ArgumentVectors.random(count: 5000)
        let answered = vectors.filter { LaunchOptions.quickParse($0) != nil }
        let disagreements = answered.compactMap(Self.disagreement)
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(answered.count): \(disagreements.prefix(20))")
        // About 1,800 of the 5,000.
        #expect(answered.count > 1000, "the quick parse answered \(answered.count) of \(vectors.count)")
    }

    @Test func versionAndPlainForms() {
        #expect(LaunchOptions.fullParse(["--version"]) == .exit(output: Shell.version))
        for arguments in [[], ["-c", "exit 3"], ["--stub", "--norc", "-c", "x"], ["t.wsh", "a=1", "b=2"], ["-"],
                          ["--", "-odd.wsh"], ["t.wsh", "--stub", "a=1"]] {
            #expect(LaunchOptions.quickParse(arguments) != nil, "\(arguments)")
            #expect(Self.disagreement(arguments) == nil)
        }
    }
}
