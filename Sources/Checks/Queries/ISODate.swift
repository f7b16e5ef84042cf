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
    /// and `Z` or an offset `+HH:MM`.
    static func hasDateShape(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Bool {
            guard index + count <= bytes.count, bytes[index..<(index + count)].allSatisfy({ (0x30...0x39).contains($0) }) else { return false }
            index += count
            return true
        }
        func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(character.value) else { return false }
            index += 1
            return true
        }
        guard digits(4), take("-"), digits(2), take("-"), digits(2) else { return false }
        if index == bytes.count { return true }
        guard take("T"), digits(2), take(":"), digits(2) else { return false }
        if take(":") {
            guard digits(2) else { return false }
            if take(".") {
                guard digits(1) else { return false }
                while digits(1) {}
            }
        }
        if index == bytes.count || take("Z") { return index == bytes.count }
        guard take("+") || take("-"), digits(2) else { return false }
        _ = take(":")
        return digits(2) && index == bytes.count
    }
}
