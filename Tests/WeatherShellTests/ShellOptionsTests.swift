import Testing
@testable import WeatherShell

/// Durations as settings and `sleep` take them: numbers with units from the largest down, or a bare number of seconds.
@Suite struct ShellOptionsTests {
    @Test(arguments: [("10", 10_000), ("0.5", 500), ("2s", 2000), ("500ms", 500), ("1.5m", 90_000), ("0", 0),
                            ("2h", 7_200_000), ("1h30m", 5_400_000), ("1m30s", 90_000), ("1m500ms", 60_500), ("24h", 86_400_000)])
    func durationsRead(text: String, milliseconds: Int64) {
        #expect(DurationText.parse(text) == .milliseconds(milliseconds))
    }

    @Test(arguments: ["", "s", "-1", "-1s", "1e3", "nan", "inf", "1.2.3", "86401", "2 s",
                            "25h", "30s1m", "1h1h", "1hm", "ms", "1h 30m", "h30m"])
    func otherTextIsNoDuration(text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    /// `wsh load --duration -5s`: a negative value is the option's, said wrong as a value, not
    /// "Missing value for '--duration'" (load tester's L12); `1h30m` is a duration there too.
    @Test func loadReadsANegativeValueAsTheOptionsValue() throws {
        for (arguments, message) in [(["--duration", "-5s"], "--duration takes a duration such as 30s, 5m or 1h30m"),
                                     (["--users", "-1"], "--users takes a number from 1 to 10000"),
                                     (["--rate", "-5/s"], "--rate takes arrivals a second, such as 200/s"),
                                     (["--ramp", "-1s"], "--ramp takes a duration no longer than --duration")] {
            #expect(throws: (any Error).self) { try LoadCommand.parse(["s.wsh"] + arguments) }
            do {
                _ = try LoadCommand.parse(["s.wsh"] + arguments)
            } catch {
                #expect(LoadCommand.message(for: error).contains(message), "\(arguments): \(LoadCommand.message(for: error))")
            }
        }
        #expect(try LoadCommand.parse(["s.wsh", "--duration", "1h30m"]).options.duration == .seconds(5400))
    }
}
