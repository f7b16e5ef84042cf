import Foundation
/// Dates for the query filters: read and written with strftime codes as Hurl's `toDate` and
/// `dateFormat` read and write them (``StrftimeFormat``), in UTC with English names, and ISO 8601
/// text, the form a date takes between filters, with its fraction of a second kept to the nanosecond.
public enum DateText {
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]
    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// `text` read with strftime `format`; nil when it does not fit, or names no whole date.
    static func parse(_ text: String, strftime format: String) throws(StrftimeFormat.Problem) -> Moment? {
        let items = try StrftimeFormat(format).items
        var reader = DateReader(rest: text[...])
        for item in items {
            guard reader.read(item) else { return nil }
        }
        guard reader.rest.isEmpty else { return nil }
        return reader.fields.moment
    }

    /// `moment` in strftime `format`, in UTC.
    static func format(_ moment: Moment, strftime format: String) throws(StrftimeFormat.Problem) -> String {
        let time = CivilTime(moment)
        return try StrftimeFormat(format).items.map { text(of: $0, time, moment) }.joined()
    }

    /// `2026-11-25T08:00:00Z`, and `2023-01-23T18:25:43.511Z` with a fraction of a second (3, 6 or 9
    /// digits as it needs, or `fractionDigits` of it).
    static func iso(_ moment: Moment, fractionDigits: Int? = nil) -> String {
        let time = CivilTime(moment)
        return padded(time.year, 4, year: true) + "-" + padded(time.month, 2) + "-" + padded(time.day, 2) + "T"
            + padded(time.hour, 2) + ":" + padded(time.minute, 2) + ":" + padded(time.second, 2)
            + fraction(time.nanosecond, digits: fractionDigits, dot: true) + "Z"
    }

    /// `date` in ISO 8601 in UTC with `fractionDigits` digits of a second, as the filters write a
    /// date: `2026-11-28T23:35:00.123456Z` with 6 (Hurl's `newDate`).
    public static func iso(_ date: Date, fractionDigits: Int) -> String {
        let since1970 = date.timeIntervalSince1970
        let seconds = since1970.rounded(.down)
        let nanoseconds = min(999_999_999, Int(((since1970 - seconds) * 1e9).rounded(.down)))
        return iso(Moment(seconds: Int64(seconds), nanoseconds: nanoseconds), fractionDigits: fractionDigits)
    }

    /// `date` written with strftime `format` in UTC (`%a, %d %b %Y %H:%M:%S GMT` is RFC 1123's),
    /// whole seconds; nil for a format with a code it does not know.
    public static func text(_ date: Date, strftime format: String) -> String? {
        try? self.format(Moment(seconds: Int64(date.timeIntervalSince1970.rounded(.down)), nanoseconds: 0), strftime: format)
    }

    /// An ISO 8601 date as APIs write them (``ISODate/hasDateShape(_:)``): `2026-11-25`,
    /// `2026-11-25T08:00`, `2026-11-25T08:00:00.511Z`, `...+09:00`; a time without an offset is UTC.
    static func readISO(_ text: String) -> Moment? {
        guard ISODate.hasDateShape(text) else { return nil }
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int {
            bytes[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        var time = CivilTime(year: number(0..<4), month: number(5..<7), day: number(8..<10))
        var index = 10
        var offset = 0
        if bytes.count > 10 {
            (time.hour, time.minute) = (number(11..<13), number(14..<16))
            index = 16
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                time.second = number(17..<19)
                index = 19
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                let digits = bytes[(index + 1)...].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                time.nanosecond = nanoseconds(digits.map { Int($0 - UInt8(ascii: "0")) })
                index = digits.endIndex
            }
            if index < bytes.count, bytes[index] != UInt8(ascii: "Z") {
                let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                let minutes = bytes.count - 2
                offset = sign * (number((index + 1)..<(index + 3)) * 3_600 + number(minutes..<bytes.count) * 60)
            }
        }
        guard isValid(time) else { return nil }
        return time.moment(offset: offset)
    }

    /// Whether the fields name a real date and time (a second of 60 is a leap second's).
    static func isValid(_ time: CivilTime) -> Bool {
        (1...12).contains(time.month) && (1...CivilTime.daysIn(month: time.month, of: time.year)).contains(time.day)
            && (0...23).contains(time.hour) && (0...59).contains(time.minute) && (0...60).contains(time.second)
    }

    /// Nanoseconds of the digits after a decimal point: the first nine count.
    static func nanoseconds(_ digits: [Int]) -> Int {
        (0..<9).reduce(0) { $0 * 10 + ($1 < digits.count ? digits[$1] : 0) }
    }

    private static func text(of item: StrftimeFormat.Item, _ time: CivilTime, _ moment: Moment) -> String {
        switch item {
        case .literal(let text), .space(let text): text
        case .number(let number, let pad): padded(value(of: number, time, moment), number.width, pad, year: number == .year || number == .isoYear)
        case .monthName(let long): long ? monthNames[time.month - 1] : String(monthNames[time.month - 1].prefix(3))
        case .weekdayName(let long): long ? weekdayNames[time.weekdayFromSunday] : String(weekdayNames[time.weekdayFromSunday].prefix(3))
        case .amPm(let upper): time.hour < 12 ? (upper ? "AM" : "am") : (upper ? "PM" : "pm")
        case .fraction(let digits, let dot): fraction(time.nanosecond, digits: digits, dot: dot)
        case .zoneName: "UTC"
        case .offset(let colons):
            switch colons {
            case 1: "+00:00"
            case 2: "+00:00:00"
            case 3: "+00"
            default: "+0000"
            }
        case .rfc3339: String(iso(moment).dropLast()) + "+00:00"
        }
    }

    private static func value(of number: StrftimeFormat.Number, _ time: CivilTime, _ moment: Moment) -> Int {
        switch number {
        case .year: time.year
        case .century: time.year.floorDivided(by: 100)
        case .yearOfCentury: time.year.floorModulo(100)
        case .isoYear: time.isoWeek.year
        case .isoYearOfCentury: time.isoWeek.year.floorModulo(100)
        case .month: time.month
        case .day: time.day
        case .ordinal: time.ordinal
        case .weekFromSunday: (time.ordinal - 1 + 7 - time.weekdayFromSunday) / 7
        case .weekFromMonday: (time.ordinal - 1 + 7 - (time.weekdayFromSunday + 6) % 7) / 7
        case .isoWeek: time.isoWeek.week
        case .weekdayFromSunday: time.weekdayFromSunday
        case .weekdayFromMonday: time.weekdayFromSunday == 0 ? 7 : time.weekdayFromSunday
        case .hour: time.hour
        case .hour12: time.hour % 12 == 0 ? 12 : time.hour % 12
        case .minute: time.minute
        case .second: time.second
        case .nanosecond: time.nanosecond
        case .timestamp: Int(moment.seconds)
        }
    }

    /// `value` in at least `width` digits; a year past 9999 or before 0 has its sign, as chrono writes it.
    static func padded(_ value: Int, _ width: Int, _ pad: StrftimeFormat.Pad = .zero, year: Bool = false) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : (year && value > 9_999 ? "+" : "")
        let filler = String(repeating: pad == .space ? " " : "0", count: pad == .none ? 0 : max(0, width - digits.count))
        return pad == .space ? filler + sign + digits : sign + filler + digits
    }

    /// A fraction of a second: `digits` of it, or (nil) none, 3, 6 or 9 as it needs; after a dot when `dot`.
    static func fraction(_ nanoseconds: Int, digits: Int?, dot: Bool) -> String {
        let count = digits ?? (nanoseconds == 0 ? 0 : nanoseconds % 1_000_000 == 0 ? 3 : nanoseconds % 1_000 == 0 ? 6 : 9)
        guard count > 0 else { return "" }
        let scale = (0..<(9 - count)).reduce(1) { value, _ in value * 10 }
        return (dot ? "." : "") + padded(nanoseconds / scale, count)
    }
}
