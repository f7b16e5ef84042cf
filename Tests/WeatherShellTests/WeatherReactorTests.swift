import Testing
@testable import WeatherShell

/// The shell's own reactors: what each mutation changes in the state, and what it keeps.
@Suite struct WeatherReactorTests {
    static let suwon = Place(name: "Suwon", latitude: "37.27", longitude: "127.11")
    static let current = CurrentReading(place: suwon, temperature: 6.8, minimum: 1.9, maximum: 12.4,
                                        time: "2026-11-21T09:45", unit: "°C")
    static let forecast = ForecastReading(place: suwon, temperature: 12.1, time: "2026-11-21T09:45",
                                          forecastTime: "2026-11-21T14:00", unit: "°C")

    let weather = WeatherReactor(service: WeatherService(call: { _, _ in throw CancellationError() }, fahrenheit: SharedValue(false), stubbed: SharedValue(false)))

    @Test func counterChangesTheValueAndLoadingEachOnItsOwn() {
        let counter = CounterReactor(delay: SharedValue(.zero))
        let start = CounterReactor.State(value: 5, loading: false)
        #expect(counter.reduce(state: start, mutation: .change(1)) == .init(value: 6, loading: false))
        #expect(counter.reduce(state: start, mutation: .change(-1)) == .init(value: 4, loading: false))
        #expect(counter.reduce(state: start, mutation: .setLoading(true)) == .init(value: 5, loading: true))
    }

    @Test func weatherLoadingClearsTheLastErrorAndAFailureEndsLoading() {
        var state = weather.reduce(state: .init(loading: true), mutation: .fail("HTTP 503"))
        #expect(state.error == "HTTP 503")
        #expect(!state.loading)
        state = weather.reduce(state: state, mutation: .setLoading(false))
        #expect(state.error == "HTTP 503", "only a new load clears the error")
        state = weather.reduce(state: state, mutation: .setLoading(true))
        #expect(state.error.isEmpty)
        #expect(state.loading)
    }

    /// Each reading replaces the one before it whole: a forecast has no day's range, and kept the
    /// current reading's, in its unit, beside its own temperature (reactors tester's M3).
    @Test func aCurrentReadingReplacesAForecastAndAForecastHasNoDaysRange() {
        let forecast = weather.reduce(state: weather.reduce(state: .init(), mutation: .setCurrent(Self.current)),
                                      mutation: .setForecast(Self.forecast))
        #expect(forecast.view == "forecast")
        #expect(forecast.temperature == 12.1)
        #expect(forecast.forecastTime == "2026-11-21T14:00")
        #expect(forecast.minimum == nil && forecast.maximum == nil, "not the current reading's range")

        let current = weather.reduce(state: forecast, mutation: .setCurrent(Self.current))
        #expect(current.view == "current")
        #expect(current.temperature == 6.8)
        #expect(current.forecastTime.isEmpty)
        #expect(current.place == Self.suwon)
        #expect(current.source == .openMeteo)
    }

    /// Another source clears the reading, which came from the source before (M3); the place stays,
    /// and the same source changes nothing.
    @Test func anotherSourceClearsTheReading() {
        let before = weather.reduce(state: .init(), mutation: .setCurrent(Self.current))
        var expected = WeatherReactor.State()
        expected.place = Self.suwon
        expected.source = .openWeatherMap
        #expect(weather.reduce(state: before, mutation: .setSource(.openWeatherMap)) == expected)
        #expect(weather.reduce(state: before, mutation: .setSource(.openMeteo)) == before)
        // Its sample label and its error were the old source's too.
        var sampled = Self.current
        sampled.sample = true
        let failed = weather.reduce(state: weather.reduce(state: .init(), mutation: .setCurrent(sampled)), mutation: .fail("old source's error"))
        #expect(weather.reduce(state: failed, mutation: .setSource(.openWeatherMap)) == expected)
    }

    @Test func declaredReactorSetsTheNamedFieldsAndIgnoresUndeclaredOnes() {
        let reactor = DeclaredReactor(initialState: .init(echoFields: [("a", .number("1")), ("b", .bool(false)), ("c", .text("x"))]),
                                      perform: { _, _ in })
        let mutation = DeclaredReactor.Mutation(fields: [("c", .text("y")), ("z", .text("undeclared")), ("b", .bool(true))],
                                                acknowledgement: OneTimeSignal())
        let state = reactor.reduce(state: reactor.initialState, mutation: mutation)
        #expect(state.echoFields.map(\.name) == ["a", "b", "c"])
        #expect(state.echoFields.map(\.value) == [.number("1"), .bool(true), .text("y")])
    }
}
