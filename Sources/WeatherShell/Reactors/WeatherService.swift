import Checks
import Foundation
import Targets

/// A weather command's failure, as shown in the state's `error` field.
struct WeatherError: Error, CustomStringConvertible {
    var description: String
    /// The API's host could not be reached (no network, a name that does not resolve): the
    /// command's error points to the samples that answer offline.
    var unreachable = false
    /// The target whose call failed; nil for an answer the command could not read.
    var target: String?
}

/// Reads weather through the session's targets, by name, so that a user who redeclares
/// `target current` points the weather commands elsewhere without recompiling.
struct WeatherService: Sendable {
    /// Calls a target and returns its body as JSON (supplied by the run).
    typealias Call = @Sendable (_ target: String, _ arguments: CallArguments) async throws -> JSONValue

    let call: Call
    /// `set units`: read at each action.
    let fahrenheit: SharedValue<Bool>
    /// Whether calls answer from samples (`set stub`, `--stub`): read at each action, so a reading
    /// from sample data says so.
    let stubbed: SharedValue<Bool>

    func current(_ query: PlaceQuery, source: WeatherSource) async throws -> CurrentReading {
        var reading = try await currentReading(query, source: source)
        reading.sample = stubbed.value
        return reading
    }

    func forecast(hours: Int, at place: Place, source: WeatherSource) async throws -> ForecastReading {
        var reading = try await forecastReading(hours: hours, at: place, source: source)
        reading.sample = stubbed.value
        return reading
    }

    private func currentReading(_ query: PlaceQuery, source: WeatherSource) async throws -> CurrentReading {
        let place = try await resolve(query)
        let json = try await call(source == .openMeteo ? "current" : "weather", arguments(for: place, source: source))
        switch source {
        case .openMeteo:
            // The unit comes from the same block as the reading: `current_units` for `current`,
            // `current_weather_units` for the older `current_weather`.
            let temperature: Double, unitPath: [Query.PathStep]
            if let reading = try number(json, [.key("current"), .key("temperature_2m")]) {
                (temperature, unitPath) = (reading, [.key("current_units"), .key("temperature_2m")])
            } else if let reading = try number(json, [.key("current_weather"), .key("temperature")]) {
                (temperature, unitPath) = (reading, [.key("current_weather_units"), .key("temperature")])
            } else {
                throw WeatherError(description: "the answer has no current temperature (.current.temperature_2m)")
            }
            return CurrentReading(place: place, temperature: temperature,
                                  minimum: try number(json, [.key("daily"), .key("temperature_2m_min"), .index(0)]),
                                  maximum: try number(json, [.key("daily"), .key("temperature_2m_max"), .index(0)]),
                                  time: text(json, [.key("current"), .key("time")]) ?? text(json, [.key("current_weather"), .key("time")]) ?? "",
                                  unit: text(json, unitPath) ?? unit)
        case .openWeatherMap:
            guard let temperature = try number(json, [.key("main"), .key("temp")]) else {
                throw WeatherError(description: "the answer has no temperature (.main.temp)")
            }
            let named = place.name.isEmpty ? Place(name: text(json, [.key("name")]) ?? "", latitude: place.latitude, longitude: place.longitude) : place
            return CurrentReading(place: named, temperature: temperature, minimum: try number(json, [.key("main"), .key("temp_min")]),
                                  maximum: try number(json, [.key("main"), .key("temp_max")]), time: Self.localTime(json), unit: openWeatherMapUnit)
        }
    }

    private func forecastReading(hours: Int, at place: Place, source: WeatherSource) async throws -> ForecastReading {
        switch source {
        case .openMeteo:
            let json = try await call("hourly", arguments(for: place, source: source))
            guard let now = text(json, [.key("current"), .key("time")]) ?? text(json, [.key("current_weather"), .key("time")]),
                  let target = LocalTime.nearestHour(LocalTime.adding(hours: hours, to: now)),
                  case .array(let times)? = json["hourly"]?["time"], case .array(let temperatures)? = json["hourly"]?["temperature_2m"] else {
                throw WeatherError(description: "the answer has no hourly temperatures (.hourly.time, .hourly.temperature_2m)")
            }
            guard let index = times.firstIndex(where: { ($0.string ?? "") >= target }), index < temperatures.count,
                  let temperature = temperatures[index].double else {
                // The pack's `hourly` asks for today and tomorrow: 48 hours ahead is past its end.
                let end = times.last?.string.map { ": the answer's hours end at \($0)" } ?? ""
                throw WeatherError(description: "no hourly temperature \(hours) hours after \(now)\(end)")
            }
            return ForecastReading(place: place, temperature: temperature, time: now, forecastTime: times[index].string ?? target,
                                   unit: text(json, [.key("hourly_units"), .key("temperature_2m")]) ?? unit)
        case .openWeatherMap:
            let current = try await call("weather", arguments(for: place, source: source))
            let json = try await call("forecast", arguments(for: place, source: source))
            guard let now = try number(current, [.key("dt")]), case .array(let entries)? = json["list"], !entries.isEmpty else {
                throw WeatherError(description: "the answer has no forecast list (.list)")
            }
            let wanted = now + Double(hours * 3600)
            let best = entries.min { abs(($0["dt"]?.double ?? 0) - wanted) < abs(($1["dt"]?.double ?? 0) - wanted) }
            guard let best, let temperature = best["main"]?["temp"]?.double else {
                throw WeatherError(description: "the forecast has no temperature (.list[].main.temp)")
            }
            let offset = json["city"]?["timezone"]?.double ?? current["timezone"]?.double ?? 0
            return ForecastReading(place: place, temperature: temperature, time: Self.localTime(current),
                                   forecastTime: LocalTime.format(unix: best["dt"]?.double ?? 0, offset: offset), unit: openWeatherMapUnit)
        }
    }

    /// Geocodes a city name with the `geocode` target (Open-Meteo's geocoding API).
    private func resolve(_ query: PlaceQuery) async throws -> Place {
        switch query {
        case .place(let place): return place
        case .city(let name):
            var arguments = CallArguments()
            arguments.values.append(("name", .text(name)))
            let json = try await call("geocode", arguments)
            guard let first = json["results"]?[0], case .number(let latitude)? = first["latitude"], case .number(let longitude)? = first["longitude"] else {
                throw WeatherError(description: "no place named '\(name)'")
            }
            let found = first["name"]?.string ?? name
            // A sample answers one place whatever was asked: say so rather than show its weather as the asked city's.
            let label = stubbed.value && found.lowercased() != name.lowercased() ? "\(found) (sample; asked for \(name))" : found
            return Place(name: label, latitude: latitude, longitude: longitude)
        }
    }

    private var unit: String { fahrenheit.value ? "°F" : "°C" }

    /// OpenWeatherMap's answer does not say its unit: it is the one asked for, and a sample's is
    /// the pack's `units=metric`, whatever `set units` asks.
    private var openWeatherMapUnit: String { stubbed.value ? "°C" : unit }

    private func arguments(for place: Place, source: WeatherSource) -> CallArguments {
        var arguments = CallArguments()
        let (lat, lon) = source == .openMeteo ? ("latitude", "longitude") : ("lat", "lon")
        arguments.values.append((lat, .text(place.latitude)))
        arguments.values.append((lon, .text(place.longitude)))
        if fahrenheit.value {
            // The open-meteo pack's targets do not declare temperature_unit: a query item, sent as given.
            if source == .openMeteo {
                arguments.queryItems.append(("temperature_unit", "fahrenheit"))
            } else {
                arguments.values.append(("units", .text("imperial")))
            }
        }
        return arguments
    }

    /// A number at a path; nil when absent or null; an error when present but not a number.
    private func number(_ json: JSONValue, _ path: [Query.PathStep]) throws -> Double? {
        guard let value = value(json, path) else { return nil }
        guard let number = value.double else { throw WeatherError(description: "expected a number at \(describe(path))") }
        return number
    }

    private func text(_ json: JSONValue, _ path: [Query.PathStep]) -> String? {
        value(json, path)?.string
    }

    private func value(_ json: JSONValue, _ path: [Query.PathStep]) -> JSONValue? {
        let found = JSONWalk.walk(json, path, where: { _, _ in false }).value
        if case .null? = found { return nil }
        return found
    }

    private func describe(_ path: [Query.PathStep]) -> String {
        path.map { step in
            switch step {
            case .key(let key): ".\(key)"
            case .index(let index): "[\(index)]"
            case .all: "[*]"
            case .slice(let from, let to): "[\(from.map(String.init) ?? ""):\(to.map(String.init) ?? "")]"
            case .descendants(let key): "..\(key)"
            case .filter: "[? ...]"
            }
        }.joined()
    }

    /// OpenWeatherMap's `dt` in the place's own time, as Open-Meteo writes times.
    static func localTime(_ json: JSONValue) -> String {
        guard let dt = json["dt"]?.double else { return "" }
        return LocalTime.format(unix: dt, offset: json["timezone"]?.double ?? 0)
    }
}

/// Local times written as `2026-11-21T09:45`, with no zone, as Open-Meteo sends them.
enum LocalTime {
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()

    static func parse(_ text: String) -> Date? {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "T" || $0 == ":" }).compactMap { Int($0) }
        guard parts.count >= 4 else { return nil }
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts.count > 4 ? parts[4] : 0))
    }

    static func format(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ n: Int?) -> String { n.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(c.year ?? 0)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute))"
    }

    static func format(unix: Double, offset: Double) -> String {
        format(Date(timeIntervalSince1970: unix + offset))
    }

    static func adding(hours: Int, to text: String) -> Date? {
        parse(text).map { $0.addingTimeInterval(Double(hours) * 3600) }
    }

    /// The whole hour nearest to `date`, formatted.
    static func nearestHour(_ date: Date?) -> String? {
        guard let date else { return nil }
        let seconds = (date.timeIntervalSince1970 / 3600).rounded() * 3600
        return format(Date(timeIntervalSince1970: seconds))
    }
}
