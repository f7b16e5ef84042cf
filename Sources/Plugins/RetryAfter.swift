import Foundation

/// The `Retry-After` header (RFC 9110, 10.2.3): a number of seconds, or an HTTP-date.
public enum RetryAfter {
    /// How long `value` asks to wait from `now`: `120` is two minutes; `Wed, 21 Oct 2015 07:28:00 GMT`
    /// is the time until then, zero when it has passed. The obsolete date forms of RFC 850 and asctime
    /// are read too. `nil` when the value is neither.
    public static func delay(_ value: String, now: Date = Date()) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) {
            return Int64(text).map { .seconds($0) } ?? .seconds(Int64.max / 1_000_000_000_000)
        }
        guard let date = httpDate(text) else { return nil }
        let seconds = max(0, date.timeIntervalSince(now))
        return .milliseconds(double: seconds * 1000)
    }

    /// The date in one of the three HTTP-date forms, or `nil`.
    static func httpDate(_ text: String) -> Date? {
        let formats = [
            "EEE',' dd MMM yyyy HH':'mm':'ss 'GMT'",  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
            "EEEE',' dd'-'MMM'-'yy HH':'mm':'ss 'GMT'",  // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
            "EEE MMM d HH':'mm':'ss yyyy",  // asctime: Sun Nov  6 08:49:37 1994
        ]
        let squeezed = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: squeezed) { return date }
        }
        return nil
    }
}
