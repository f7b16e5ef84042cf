/// Reads a date's text item by item of a strftime format, as chrono reads one: a number after any
/// blanks, in 1 to its width of digits (a signed year in any); names in any case, a long name or
/// its first three letters; blanks in the format match any number of blanks.
struct DateReader {
    var rest: Substring
    var fields = Fields()

    /// What the text said, each at most once (or the same again).
    struct Fields {
        var year: Int?, century: Int?, yearOfCentury: Int?, month: Int?, day: Int?, ordinal: Int?, weekday: Int?
        var hour: Int?, hour12: Int?, pm: Bool?, minute: Int?, second: Int?, nanosecond: Int?, offset: Int?
        var timestamp: Int?

        /// The moment they name: a timestamp, or a date (year with month and day, or day of the
        /// year) whose weekday, when given, is its own, and a time, midnight when none is given.
        var moment: Moment? {
            if let timestamp { return Moment(seconds: Int64(timestamp), nanoseconds: nanosecond ?? 0) }
            guard let year = year ?? yearOfCentury.map({ (century ?? ($0 < 70 ? 20 : 19)) * 100 + $0 }) else { return nil }
            var time: CivilTime
            if let month, let day {
                time = CivilTime(year: year, month: month, day: day)
            } else if let ordinal, (1...(CivilTime.isLeap(year) ? 366 : 365)).contains(ordinal) {
                let date = CivilTime.date(fromDays: CivilTime.days(year: year, month: 1, day: 1) + ordinal - 1)
                time = CivilTime(year: date.year, month: date.month, day: date.day)
            } else {
                return nil
            }
            if let weekday, weekday != time.weekdayFromSunday { return nil }
            if let hour12 {
                guard (1...12).contains(hour12) else { return nil }
                time.hour = hour12 % 12 + (pm == true ? 12 : 0)
            }
            if let hour { time.hour = hour }
            (time.minute, time.second, time.nanosecond) = (minute ?? 0, second ?? 0, nanosecond ?? 0)
            guard DateText.isValid(time), time.ordinal == ordinal ?? time.ordinal else { return nil }
            return time.moment(offset: offset ?? 0)
        }
    }

    /// Reads `item`; false when the text does not fit it.
    mutating func read(_ item: StrftimeFormat.Item) -> Bool {
        switch item {
        case .literal(let text):
            guard rest.hasPrefix(text) else { return false }
            rest = rest.dropFirst(text.count)
            return true
        case .space:
            skipBlanks()
            return true
        case .number(let number, _):
            return readNumber(number)
        case .monthName(let long):
            guard let month = name(in: DateText.monthNames, long: long) else { return false }
            return set(\.month, month + 1)
        case .weekdayName(let long):
            guard let weekday = name(in: DateText.weekdayNames, long: long) else { return false }
            return set(\.weekday, weekday)
        case .amPm:
            let letters = rest.prefix(2).lowercased()
            guard letters == "am" || letters == "pm" else { return false }
            rest = rest.dropFirst(2)
            return set(\.pm, letters == "pm")
        case .fraction(let digits, let dot):
            return readFraction(digits: digits, dot: dot)
        case .zoneName:
            let name = rest.prefix { $0.isLetter && $0.isASCII }
            guard ["UTC", "GMT", "UT", "Z"].contains(name.uppercased()) else { return false }
            rest = rest[name.endIndex...]
            return set(\.offset, 0)
        case .offset:
            return readOffset()
        case .rfc3339:
            return readRFC3339()
        }
    }

    private mutating func readNumber(_ number: StrftimeFormat.Number) -> Bool {
        skipBlanks()
        var sign = 1
        var width = number.width
        if number == .year || number == .isoYear || number == .timestamp, let first = rest.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            rest = rest.dropFirst()
            width = number == .timestamp ? number.width : 9
        }
        guard let digits = digits(upTo: width) else { return false }
        let value = sign * digits.reduce(0) { $0 * 10 + $1 }
        switch number {
        case .year: return set(\.year, value)
        case .century: return set(\.century, value)
        case .yearOfCentury: return set(\.yearOfCentury, value)
        case .month: return set(\.month, value)
        case .day: return set(\.day, value)
        case .ordinal: return set(\.ordinal, value)
        case .weekdayFromSunday: return value <= 6 && set(\.weekday, value)
        case .weekdayFromMonday: return (1...7).contains(value) && set(\.weekday, value % 7)
        case .hour: return set(\.hour, value)
        case .hour12: return set(\.hour12, value)
        case .minute: return set(\.minute, value)
        case .second: return set(\.second, value)
        // chrono reads %f's digits as a fraction: 511 is 511 000 000 ns.
        case .nanosecond: return set(\.nanosecond, DateText.nanoseconds(digits))
        case .timestamp: return set(\.timestamp, value)
        // Weeks are read, and a date needs a month and day or a day of the year besides.
        case .isoYear, .isoYearOfCentury, .weekFromSunday, .weekFromMonday, .isoWeek: return true
        }
    }

    /// `%.f`: a dot and its digits, or nothing; `%3f`: exactly that many digits.
    private mutating func readFraction(digits count: Int?, dot: Bool) -> Bool {
        if dot {
            guard rest.first == "." else { return true }
            rest = rest.dropFirst()
            guard let digits = digits(upTo: Int.max) else { return false }
            return set(\.nanosecond, DateText.nanoseconds(digits))
        }
        guard let count, let digits = digits(upTo: count), digits.count == count else { return false }
        return set(\.nanosecond, DateText.nanoseconds(digits))
    }

    /// `+09:30`, `+0930`, `+09`, `Z`, after any blanks.
    private mutating func readOffset() -> Bool {
        skipBlanks()
        if rest.first == "Z" || rest.first == "z" {
            rest = rest.dropFirst()
            return set(\.offset, 0)
        }
        guard let sign = rest.first, sign == "+" || sign == "-" else { return false }
        rest = rest.dropFirst()
        guard let hours = digits(upTo: 2), hours.count == 2 else { return false }
        var seconds = (hours[0] * 10 + hours[1]) * 3_600
        for scale in [60, 1] {
            var after = rest
            if after.first == ":" { after = after.dropFirst() }
            guard after.prefix(2).allSatisfy({ $0.isASCII && $0.isNumber }), after.count >= 2 else { break }
            rest = after
            guard let part = digits(upTo: 2), part[0] < 6 else { return false }
            seconds += (part[0] * 10 + part[1]) * scale
        }
        return set(\.offset, sign == "-" ? -seconds : seconds)
    }

    /// `%+`: `2026-11-25T08:00:00.511+09:00`, `T` or a blank between, `Z` or `UTC` for UTC.
    private mutating func readRFC3339() -> Bool {
        let date: [StrftimeFormat.Item] = [.number(.year, .zero), .literal("-"), .number(.month, .zero), .literal("-"), .number(.day, .zero)]
        guard date.allSatisfy({ read($0) }), let separator = rest.first, "Tt ".contains(separator) else { return false }
        rest = rest.dropFirst()
        let time: [StrftimeFormat.Item] = [.number(.hour, .zero), .literal(":"), .number(.minute, .zero), .literal(":"),
                                           .number(.second, .zero), .fraction(digits: nil, dot: true)]
        guard time.allSatisfy({ read($0) }) else { return false }
        if rest.uppercased() == "UTC" {
            rest = rest.dropFirst(3)
            return set(\.offset, 0)
        }
        return readOffset()
    }

    /// One to `count` ASCII digits' values; nil when there is none.
    private mutating func digits(upTo count: Int) -> [Int]? {
        let digits = rest.prefix(count).prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        rest = rest[digits.endIndex...]
        return digits.compactMap(\.wholeNumberValue)
    }

    /// The index of the name at the start, its first three letters or (`long`) all of it, in any case.
    private mutating func name(in names: [String], long: Bool) -> Int? {
        let start = rest.prefix(3).lowercased()
        guard let index = names.firstIndex(where: { $0.prefix(3).lowercased() == start }) else { return nil }
        rest = rest.dropFirst(3)
        let tail = names[index].dropFirst(3).lowercased()
        if long, !tail.isEmpty, rest.prefix(tail.count).lowercased() == tail { rest = rest.dropFirst(tail.count) }
        return index
    }

    private mutating func skipBlanks() {
        rest = rest.drop { $0.isWhitespace }
    }

    /// Sets a field; false when the text already gave it another value.
    private mutating func set<Value: Equatable>(_ field: WritableKeyPath<Fields, Value?>, _ value: Value) -> Bool {
        if let known = fields[keyPath: field] { return known == value }
        fields[keyPath: field] = value
        return true
    }
}
