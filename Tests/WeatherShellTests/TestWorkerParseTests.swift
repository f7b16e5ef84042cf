import Testing
import WeatherShell

/// The worker's command line (`wsh test --worker FILE ...`) is read by a quick parse of its own:
/// where it answers, it must answer as swift-argument-parser does.
@Suite struct TestWorkerParseTests {
    static let vectors: [[String]] = [
        ["test", "--worker", "a.wsh"],
        ["test", "--worker", "a.wsh", "--stub"],
        ["test", "--worker", "dir/b c.wsh", "--var", "base=http://127.0.0.1:1", "--var", "n=1", "--stub"],
        ["test", "--worker", "a.wsh", "--var", "x=--y"],
        ["test", "--worker", "a.wsh", "--var", "-x=1"],
        ["test", "--worker", "a.wsh", "--var", "no-equals"],
        ["test", "--worker", "a.wsh", "--var"],
        ["test", "--worker", "--stub"],
        ["test", "--worker", "a.wsh", "--jobs", "2"],
        ["test", "--worker", "a.wsh", "extra.wsh"],
    ]

    @Test func theQuickParseAgreesWithTheFullOne() {
        let answered = Self.vectors.filter { LaunchOptions.quickParse($0) != nil }
        #expect(answered.count >= 4, "the plain worker forms are answered quickly")
        for arguments in answered {
            guard case .run(let quick)? = LaunchOptions.quickParse(arguments) else { continue }
            #expect(LaunchOptions.fullParse(arguments) == .run(quick), "\(arguments)")
        }
    }
}
