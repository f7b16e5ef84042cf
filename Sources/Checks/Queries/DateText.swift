import Foundation

/// Dates for the query filters: read and written with strftime codes (`%Y-%m-%d %H:%M`), in UTC,
/// and ISO 8601 text, the form a date takes between filters.
enum DateText {
    /// `text` read with strftime `format`, as UTC; nil when it does not fit.
    static func parse(_ text: String, strftime format: String) -> Date? {
        formatter(format).date(from: text)
    }

    /// `date` in strftime `format`, in UTC.
    static func format(_ date: Date, strftime format: String) -> String {
        formatter(format).string(from: date)
    }

    /// `2026-11-25T08:00:00Z`.
    static func iso(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// A formatter for a strftime format: its codes become Unicode date pattern fields, and any
    /// other text is quoted as literal.
    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern(format)
        return formatter
    }

    private static let fields: [Character: String] = [
        "Y": "yyyy", "y": "yy", "m": "MM", "d": "dd", "e": "d", "H": "HH", "I": "hh", "M": "mm", "S": "ss",
        "p": "a", "b": "MMM", "h": "MMM", "B": "MMMM", "a": "EEE", "A": "EEEE", "j": "DDD", "Z": "zzz", "z": "xx",
    ]

    static func pattern(_ format: String) -> String {
        var pattern = ""
        var literal = ""
        func flush() {
            guard !literal.isEmpty else { return }
            pattern += "'" + literal.replacingOccurrences(of: "'", with: "''") + "'"
            literal = ""
        }
        var characters = format.makeIterator()
        while let character = characters.next() {
            guard character == "%" else { literal.append(character); continue }
            guard let code = characters.next() else { literal.append("%"); break }
            if let field = fields[code] {
                flush()
                pattern += field
            } else if code == "F" {
                flush()
                pattern += "yyyy-MM-dd"
            } else if code == "T" {
                flush()
                pattern += "HH:mm:ss"
            } else {
                literal.append(code == "%" ? "%" : code)
            }
        }
        flush()
        return pattern
    }
}
