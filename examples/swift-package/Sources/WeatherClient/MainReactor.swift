import Foundation
import Reactor
import Targets

/// The app's screen as ReactorKit's reactor: `refresh` loads the current temperature and
/// `forecast` the one some hours ahead; `loading` is on while a request is under way.
public struct MainReactor: Reactor {
    public enum Action: Sendable {
        case refresh
        case forecast(hours: Int)
    }

    public enum Mutation: Sendable {
        case setLoading(Bool)
        case setTemperature(Double)
        case setForecast(Double, time: String)
        case setError(String)
    }

    public struct State: Sendable, Equatable {
        public var temperature: Double?
        public var forecast: Double?
        public var forecastTime: String?
        public var isLoading = false
        public var error: String?
    }

    public let initialState = State()
    private let provider: Provider<APIService>
    private let latitude: Double
    private let longitude: Double

    /// A reactor for one place, sending through `provider`.
    public init(provider: Provider<APIService>, latitude: Double = 37.27, longitude: Double = 127.11) {
        self.provider = provider
        self.latitude = latitude
        self.longitude = longitude
    }

    public func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error> {
        .emitting { [provider, latitude, longitude] emit in
            emit.yield(.setLoading(true))
            do {
                switch action {
                case .refresh:
                    let body = try await provider.request(.currentWeather(lat: latitude, lon: longitude)).json()
                    guard let temperature = body["current"]?["temperature_2m"]?.double else { throw MissingValue() }
                    emit.yield(.setTemperature(temperature))
                case .forecast(let hours):
                    let body = try await provider.request(.forecastWeather(lat: latitude, lon: longitude)).json()
                    guard let hourly = body["hourly"], let value = hourly["temperature_2m"]?[hours]?.double,
                          let time = hourly["time"]?[hours]?.string else { throw MissingValue() }
                    emit.yield(.setForecast(value, time: time))
                }
            } catch {
                emit.yield(.setError(String(describing: error)))
            }
            emit.yield(.setLoading(false))
        }
    }

    public func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setLoading(let loading):
            state.isLoading = loading
            if loading { state.error = nil }
        case .setTemperature(let temperature): state.temperature = temperature
        case .setForecast(let value, let time):
            state.forecast = value
            state.forecastTime = time
        case .setError(let message): state.error = message
        }
        return state
    }

    /// The answer did not hold the expected numbers.
    struct MissingValue: Error, CustomStringConvertible {
        var description: String { "the answer holds no temperature" }
    }
}
