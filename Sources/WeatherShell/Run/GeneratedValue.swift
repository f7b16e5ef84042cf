import Foundation

/// Variables whose value is made anew each time one is read, unless a variable of the same name is
/// set: Hurl's functions and the dynamic variables of `.http` files.
///
/// - `$newUuid`, `$uuid`: a random (version 4) UUID in lowercase, as Hurl's `newUuid` writes it.
/// - `$newDate`: now, in UTC, as RFC 3339 with microseconds (`2026-11-28T23:35:00.123456Z`), as
///   Hurl's `newDate` is written; `| toDate` and `isIsoDate` read it.
/// - `$timestamp`: now, in whole seconds since 1970 (REST Client's `{{$timestamp}}`).
enum GeneratedValue {
    static let names = ["newUuid", "uuid", "newDate", "timestamp"]

    static func variable(_ name: String, now: Date = Date()) -> Variable? {
        switch name {
        case "newUuid", "uuid": Variable(typed: .string(UUID().uuidString.lowercased()))
        case "newDate": Variable(typed: .string(rfc3339(now)))
        case "timestamp": Variable(typed: .number(String(Int64(now.timeIntervalSince1970.rounded(.down)))))
        default: nil
        }
    }

    /// `date` as `YYYY-MM-DDTHH:MM:SS.ffffffZ`, in UTC.
    static func rfc3339(_ date: Date) -> String {
        let since1970 = date.timeIntervalSince1970
        let seconds = since1970.rounded(.down)
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let micros = Int32(min(999_999, ((since1970 - seconds) * 1_000_000).rounded(.down)))
        return "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))"
            + "T\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2)).\(padded(micros, 6))Z"
    }
}
