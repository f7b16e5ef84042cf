import Testing
@testable import WeatherShell

/// Durations as settings and `sleep` take them: a number and a unit, or a bare number of seconds.
@Suite struct ShellOptionsTests {
    @Test(arguments: [("10", 10_000), ("0.5", 500), ("2s", 2000), ("500ms", 500), ("1.5m", 90_000), ("0", 0)])
    func durationsRead(text: String, milliseconds: Int64) {
        #expect(DurationText.parse(text) == .milliseconds(milliseconds))
    }

    @Test(arguments: ["", "s", "-1", "-1s", "1e3", "nan", "inf", "2h", "1.2.3", "86401", "2 s"])
    func otherTextIsNoDuration(text: String) {
        #expect(DurationText.parse(text) == nil)
    }
}
