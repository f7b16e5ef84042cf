import Targets

/// A moment in UTC: seconds since 1970-01-01T00:00:00Z and the nanoseconds after them, exactly
/// as a date's text gives them (`.511`, `.026490123`).
struct Moment: Equatable, Sendable {
    var seconds: Int64
    /// 0 to 999 999 999.
    var nanoseconds: Int
}

/// A moment's date and time in UTC on the proleptic Gregorian calendar, computed with the civil
/// calendar algorithms of Howard Hinnant's "chrono-Compatible Low-Level Date Algorithms" (no
/// calendar library, no locale).
struct CivilTime: Equatable {
    var year: Int
    var month: Int
    var day: Int
    var hour = 0
    var minute = 0
    var second = 0
    var nanosecond = 0

    /// The date and time of `moment`.
    init(_ moment: Moment) {
        let days = Int(moment.seconds.floorDivided(by: 86_400))
        let secondOfDay = Int(moment.seconds - Int64(days) * 86_400)
        (year, month, day) = Self.date(fromDays: days)
        hour = secondOfDay / 3_600
        minute = secondOfDay % 3_600 / 60
        second = secondOfDay % 60
        nanosecond = moment.nanoseconds
    }

    init(year: Int, month: Int, day: Int) {
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// Days since 1970-01-01.
    var days: Int { Self.days(year: year, month: month, day: day) }

    /// The moment, when the time is `offset` seconds ahead of UTC.
    func moment(offset: Int = 0) -> Moment {
        let seconds = Int64(days) * 86_400 + Int64(hour * 3_600 + minute * 60 + second - offset)
        return Moment(seconds: seconds, nanoseconds: nanosecond)
    }

    /// 0 for Sunday to 6 for Saturday.
    var weekdayFromSunday: Int { (days + 4).floorModulo(7) }

    /// 1 for January 1st.
    var ordinal: Int { days - Self.days(year: year, month: 1, day: 1) + 1 }

    /// The year and week of ISO 8601's week date: week 1 is the one with the year's first Thursday.
    var isoWeek: (year: Int, week: Int) {
        let thursday = days - (weekdayFromSunday + 6) % 7 + 3
        let year = Self.date(fromDays: thursday).year
        return (year, (thursday - Self.days(year: year, month: 1, day: 1)) / 7 + 1)
    }

    static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The calendar arithmetic the cookie dates of Targets use already (Hinnant's `days_from_civil`).
    static func daysIn(month: Int, of year: Int) -> Int {
        CookieDate.daysIn(month: month, year: year)
    }

    /// Days since 1970-01-01 of a date.
    static func days(year: Int, month: Int, day: Int) -> Int {
        CookieDate.daysSince1970(year: year, month: month, day: day)
    }

    /// The date that is `days` after 1970-01-01 (Hinnant's `civil_from_days`).
    static func date(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension BinaryInteger {
    /// The quotient rounded toward negative infinity.
    func floorDivided(by divisor: Self) -> Self {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// The remainder of ``floorDivided(by:)``: between 0 and `divisor` for a positive divisor.
    func floorModulo(_ divisor: Self) -> Self {
        self - floorDivided(by: divisor) * divisor
    }
}
