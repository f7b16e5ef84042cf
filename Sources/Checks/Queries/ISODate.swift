import Foundation

/// Reads ISO 8601 dates as APIs write them: `2026-11-25`, `2026-11-25T08:00:00Z`,
/// `2026-11-25T08:00:00.123+09:00`, `2026-11-25T08:00` (Open-Meteo's local times).
enum ISODate {
    static func parse(_ text: String) -> Date? {
        // Foundation's parser reads a date at the start and ignores what follows ("2026-11-25garbage").
        guard hasDateShape(text) else { return nil }
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

    /// Whether all of `text` is `YYYY-MM-DD`, optionally followed by `THH:MM`, `:SS`, a fraction,
    /// and `Z` or an offset `+HH:MM`, each part in its range: a day its month has (`2025-02-29` is
    /// none), an hour below 24, a minute below 60 (Foundation's parser rolls such dates over).
    static func hasDateShape(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int? {
            guard index + count <= bytes.count, bytes[index..<(index + count)].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            defer { index += count }
            return bytes[index..<(index + count)].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(character.value) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), take("-"), let month = number(2), (1...12).contains(month), take("-"), let day = number(2), day >= 1 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        guard day <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] else { return false }
        if index == bytes.count { return true }
        guard take("T"), let hour = number(2), hour < 24, take(":"), let minute = number(2), minute < 60 else { return false }
        if take(":") {
            guard let second = number(2), second <= 60 else { return false }
            if take(".") {
                guard number(1) != nil else { return false }
                while number(1) != nil {}
            }
        }
        if index == bytes.count || take("Z") { return index == bytes.count }
        guard take("+") || take("-"), let offsetHours = number(2), offsetHours < 24 else { return false }
        _ = take(":")
        guard let offsetMinutes = number(2), offsetMinutes < 60 else { return false }
        return index == bytes.count
    }
}
