import Foundation
import Targets

/// The Open-Meteo endpoints the app calls, as Moya's `TargetType` enum: one case per request.
public enum APIService: TargetType {
    case currentWeather(lat: Double, lon: Double)
    case forecastWeather(lat: Double, lon: Double)

    /// Empty: the provider's `baseURL` (the real API, or a loopback server in tests) is used.
    public var baseURL: String { "" }

    public var path: String { "/v1/forecast" }

    public var name: String {
        switch self {
        case .currentWeather: "currentWeather"
        case .forecastWeather: "forecastWeather"
        }
    }

    public var task: RequestTask {
        switch self {
        case .currentWeather(let lat, let lon):
            .query(Self.coordinate(lat, lon) + [
                Parameter(name: "current", defaultValue: .text("temperature_2m")),
                Parameter(name: "daily", defaultValue: .text("temperature_2m_max,temperature_2m_min")),
                Parameter(name: "forecast_days", defaultValue: .text("1")),
            ])
        case .forecastWeather(let lat, let lon):
            .query(Self.coordinate(lat, lon) + [
                Parameter(name: "hourly", defaultValue: .text("temperature_2m")),
                Parameter(name: "forecast_days", defaultValue: .text("2")),
            ])
        }
    }

    public var validationType: ValidationType { .successCodes }

    private static func coordinate(_ lat: Double, _ lon: Double) -> [Parameter] {
        [Parameter(name: "latitude", defaultValue: .text(String(lat))),
         Parameter(name: "longitude", defaultValue: .text(String(lon)))]
    }
}
