import Foundation
import Reactor
import Synchronization
import Targets
import Testing
import TestSupport
import WeatherClient

/// The example app's reactor, calling its targets through the provider against a loopback server
/// that answers with Open-Meteo's shape.
@Suite struct MainReactorTests {
    private static func sample() throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/open-meteo-hourly", withExtension: "json"))
        return Array(try Data(contentsOf: url))
    }

    @Test func refreshLoadsTheTemperatureWithLoadingAroundIt() async throws {
        let routes = ["/v1/forecast": StaticRoute(body: try Self.sample())]
        try await TestServer.with(routes: routes) { server in
            let store = Store(reactor: MainReactor(provider: Provider(baseURL: server.baseURL)))
            let seen = Seen()
            _ = await store.observe { state, _ in seen.append(state.isLoading) }
            try await store.send(.refresh)
            let state = await store.currentState
            #expect(state.temperature == 6.8)
            #expect(state.error == nil)
            #expect(seen.values == [true, true, false])
            #expect(server.hits("/v1/forecast") == 1)
        }
    }

    @Test func forecastReadsTheHourAhead() async throws {
        let routes = ["/v1/forecast": StaticRoute(body: try Self.sample())]
        try await TestServer.with(routes: routes) { server in
            let store = Store(reactor: MainReactor(provider: Provider(baseURL: server.baseURL)))
            try await store.send(.forecast(hours: 4))
            let state = await store.currentState
            #expect(state.forecastTime?.hasSuffix("T04:00") == true)
            #expect(state.forecast != nil)
            #expect(state.isLoading == false)
        }
    }

    @Test func aFailedCallShowsInTheStateAndEndsLoading() async throws {
        try await TestServer.with { server in
            let store = Store(reactor: MainReactor(provider: Provider(baseURL: server.baseURL)))
            try await store.send(.refresh)
            let state = await store.currentState
            #expect(state.error?.contains("HTTP 404") == true)
            #expect(state.isLoading == false)
            #expect(state.temperature == nil)
        }
    }

    @Test func aStubbedProviderAnswersWithoutANetwork() async throws {
        struct Stubbed: TargetType {
            let baseURL = "http://127.0.0.1:9"
            let path = "/v1/forecast"
            let sampleData = Data(#"{"current":{"temperature_2m":21.5}}"#.utf8)
        }
        let response = try await Provider<Stubbed>(stubBehavior: .immediate).request(Stubbed())
        #expect(try response.json()["current"]?["temperature_2m"]?.double == 21.5)
    }
}

/// Values an observer saw, in order.
private final class Seen: Sendable {
    private let stored = Mutex<[Bool]>([])
    func append(_ value: Bool) { stored.withLock { $0.append(value) } }
    var values: [Bool] { stored.withLock { $0 } }
}
