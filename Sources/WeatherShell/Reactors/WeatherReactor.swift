import Reactor

/// The weather commands' reactor (the seed's MainReactor, grown up): current readings and a
/// reading some hours ahead, for a place, from Open-Meteo or OpenWeatherMap.
struct WeatherReactor: Reactor {
    enum Action: Sendable {
        case current(place: PlaceQuery, source: WeatherSource)
        case forecast(hours: Int, place: Place, source: WeatherSource)
        case use(WeatherSource)
        /// After Ctrl-C: loading off, `interrupted` as the error.
        case interrupted
    }
    enum Mutation: Sendable {
        case setLoading(Bool)
        case setCurrent(CurrentReading)
        case setForecast(ForecastReading)
        case setSource(WeatherSource)
        /// The action failed: the error is shown and loading ends.
        case fail(String)
    }
    struct State: EchoableState, Equatable {
        var view = "none"
        var place = Place.default
        var temperature: Double?
        var minimum: Double?
        var maximum: Double?
        var time = ""
        var forecastTime = ""
        var unit = "°C"
        var source = WeatherSource.openMeteo
        /// The reading came from sample data (`set stub`).
        var sample = false
        var loading = false
        var error = ""

        /// No reading: what the state holds before the first one.
        mutating func clearReading() {
            view = "none"
            temperature = nil
            minimum = nil
            maximum = nil
            time = ""
            forecastTime = ""
            sample = false
            error = ""
        }

        var echoFields: [(name: String, value: EchoValue)] {
            // The source before the numbers: a line cut to the screen still says whether they are sample data.
            [("view", .text(view)), ("place", .text(place.label)),
             ("source", .text(sample ? source.rawValue + " (sample data)" : source.rawValue)),
             ("temperature", temperature.map(EchoValue.decimal) ?? .none),
             ("min", minimum.map(EchoValue.decimal) ?? .none), ("max", maximum.map(EchoValue.decimal) ?? .none),
             ("time", .text(time)), ("forecast_time", .text(forecastTime)), ("unit", .text(unit)),
             ("loading", .bool(loading)), ("error", .text(error))]
        }
    }

    let service: WeatherService
    var initialState: State { State() }

    func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error> {
        .emitting { emit in
            switch action {
            case .use(let source):
                emit.yield(.setSource(source))
                return
            case .interrupted:
                emit.yield(.fail("interrupted"))
                return
            case .current(let query, let source):
                try await load(emit) { .setCurrent(try await service.current(query, source: source)) }
            case .forecast(let hours, let place, let source):
                try await load(emit) { .setForecast(try await service.forecast(hours: hours, at: place, source: source)) }
            }
            emit.yield(.setLoading(false))
        }
    }

    /// Loading on, then the reading; on an error, the error in the state, and the action
    /// ends with it (so a script fails).
    private func load(_ emit: AsyncThrowingStream<Mutation, any Error>.Continuation,
                      _ reading: () async throws -> Mutation) async throws {
        emit.yield(.setLoading(true))
        do {
            emit.yield(try await reading())
        } catch {
            if !(error is CancellationError) { emit.yield(.fail(String(describing: error))) }
            throw error
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setLoading(let loading):
            state.loading = loading
            if loading { state.error = "" }
        case .setCurrent(let reading):
            state.view = "current"
            state.place = reading.place
            state.temperature = reading.temperature
            state.minimum = reading.minimum
            state.maximum = reading.maximum
            state.time = reading.time
            state.forecastTime = ""
            state.unit = reading.unit
            state.sample = reading.sample
        case .setForecast(let reading):
            state.view = "forecast"
            state.place = reading.place
            state.temperature = reading.temperature
            // A forecast has no day's range: min and max of an earlier reading would be shown as its own.
            state.minimum = nil
            state.maximum = nil
            state.time = reading.time
            state.forecastTime = reading.forecastTime
            state.unit = reading.unit
            state.sample = reading.sample
        case .setSource(let source):
            // The reading came from the source before: shown under the new one, it would be attributed to it.
            if source != state.source { state.clearReading() }
            state.source = source
        case .fail(let message):
            state.error = message
            state.loading = false
        }
        return state
    }

    func cancellationKey(for action: Action) -> String? {
        switch action {
        case .current: "current"
        case .forecast: "forecast"
        case .use, .interrupted: nil
        }
    }
}

/// Which API answers the weather commands.
enum WeatherSource: String, Sendable, CaseIterable {
    case openMeteo = "open-meteo"
    case openWeatherMap = "openweathermap"

    /// The targets the commands call, by the pack that declares them. Place names are geocoded
    /// with open-meteo's `geocode` (it needs no key) whichever API gives the weather.
    var packs: [(pack: String, targets: [String])] {
        switch self {
        case .openMeteo: [("open-meteo", ["current", "hourly", "geocode"])]
        case .openWeatherMap: [("openweathermap", ["weather", "forecast"]), ("open-meteo", ["geocode"])]
        }
    }
}

/// Where the weather is read.
struct Place: Sendable, Equatable {
    var name: String
    /// Decimal numbers with the digits they were typed or answered with: sent as they are, not
    /// through a Double that keeps 15 to 17 of them.
    var latitude: String
    var longitude: String

    static let `default` = Place(name: "", latitude: "37.27", longitude: "127.11")

    var label: String { name.isEmpty ? "\(latitude),\(longitude)" : name }
}

/// `weather current` with a city to geocode, a coordinate, or the place already in the state.
enum PlaceQuery: Sendable {
    case city(String)
    case place(Place)
}

struct CurrentReading: Sendable, Equatable {
    var place: Place
    var temperature: Double
    var minimum: Double?
    var maximum: Double?
    var time: String
    var unit: String
    /// From sample data.
    var sample = false
}

struct ForecastReading: Sendable, Equatable {
    var place: Place
    var temperature: Double
    var time: String
    var forecastTime: String
    var unit: String
    /// From sample data.
    var sample = false
}
