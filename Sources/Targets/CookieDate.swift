import Foundation

/// The lenient date syntax of a cookie's `Expires` (RFC 6265 5.1.1), parsed by hand: servers write
/// `Wed, 09 Jun 2021 10:18:14 GMT`, `Wednesday, 09-Jun-21 10:18:14 GMT`, `Wed Jun  9 10:18:14 2021`
/// and worse, and a DateFormatter per Set-Cookie would cost more than the rest of storing it.
package enum CookieDate {
    /// The latest expiry kept, 9999-12-31 23:59:59 UTC; later ones are cut to it.
    static let latest = Date(timeIntervalSince1970: 253_402_300_799)

    /// The date `text` gives, or `nil` when it lacks a time, day, month or year or they are out of range.
    static func parse(_ text: String) -> Date? {
        var fields = Fields()
        for token in text.utf8.split(whereSeparator: isDelimiter) {
            let bytes = Array(token)
            if fields.time == nil, let time = time(bytes) {
                fields.time = time
            } else if fields.day == nil, let day = number(bytes, digits: 1...2) {
                fields.day = day
            } else if fields.month == nil, let month = month(bytes) {
                fields.month = month
            } else if fields.year == nil, let year = number(bytes, digits: 2...4) {
                fields.year = year
            }
        }
        return fields.date
    }

    private struct Fields {
        var time: (hour: Int, minute: Int, second: Int)?
        var day: Int?
        var month: Int?
        var year: Int?

        var date: Date? {
            guard let time, let day, let month, var year else { return nil }
            if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
            guard year >= 1601, day >= 1, day <= CookieDate.daysIn(month: month, year: year),
                  time.hour <= 23, time.minute <= 59, time.second <= 59 else { return nil }
            let days = CookieDate.daysSince1970(year: year, month: month, day: day)
            let seconds = days * 86_400 + time.hour * 3600 + time.minute * 60 + time.second
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
    }

    /// RFC 6265's delimiter: %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte)
            || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// The digits at `start`, when there are as many as `digits` allows, and the index after them.
    private static func digits(_ bytes: [UInt8], from start: Int, count allowed: ClosedRange<Int>) -> (value: Int, end: Int)? {
        var end = start
        var value = 0
        while end < bytes.count, isDigit(bytes[end]) {
            guard end - start < allowed.upperBound else { return nil }
            value = value * 10 + Int(bytes[end] - UInt8(ascii: "0"))
            end += 1
        }
        guard allowed.contains(end - start) else { return nil }
        return (value, end)
    }

    /// `1*2DIGIT` (day) or `2*4DIGIT` (year), then nothing or a non-digit and anything.
    private static func number(_ bytes: [UInt8], digits allowed: ClosedRange<Int>) -> Int? {
        digits(bytes, from: 0, count: allowed)?.value
    }

    /// `hh:mm:ss`, each one or two digits, then nothing or a non-digit and anything.
    private static func time(_ bytes: [UInt8]) -> (hour: Int, minute: Int, second: Int)? {
        guard let hour = digits(bytes, from: 0, count: 1...2), hour.end < bytes.count, bytes[hour.end] == UInt8(ascii: ":"),
              let minute = digits(bytes, from: hour.end + 1, count: 1...2), minute.end < bytes.count,
              bytes[minute.end] == UInt8(ascii: ":"),
              let second = digits(bytes, from: minute.end + 1, count: 1...2) else { return nil }
        return (hour.value, minute.value, second.value)
    }

    private static let months: [[UInt8]] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        .map { Array($0.utf8) }

    /// 1-12 for a token that starts with a month's three letters, in any case.
    private static func month(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 3 else { return nil }
        let prefix = bytes[0..<3].map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
        return months.firstIndex(of: prefix).map { $0 + 1 }
    }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    package static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
