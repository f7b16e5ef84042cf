import Foundation

/// Reads ISO 8601 dates as APIs write them: `2026-11-25`, `2026-11-25T08:00:00Z`,
/// `2026-11-25T08:00:00.123+09:00`, `2026-11-25T08:00` (Open-Meteo's local times).
enum ISODate {
    static func parse(_ text: String) -> Date? {
        let strategies: [Date.ISO8601FormatStyle] = [
            .iso8601,
            Date.ISO8601FormatStyle(includingFractionalSeconds: true),
            Date.ISO8601FormatStyle().year().month().day(),
            Date.ISO8601FormatStyle().year().month().day().dateTimeSeparator(.standard).time(includingFractionalSeconds: false),
        ]
        for strategy in strategies {
            if let date = try? strategy.parse(text) { return date }
        }
        // Minutes without seconds (`2026-11-25T08:00`), as Open-Meteo sends local times.
        if text.count == 16, let date = try? Date.ISO8601FormatStyle().year().month().day().dateTimeSeparator(.standard)
            .time(includingFractionalSeconds: false).parse(text + ":00") {
            return date
        }
        return nil
    }
}
