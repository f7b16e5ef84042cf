import Checks
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

    /// `date` as `YYYY-MM-DDTHH:MM:SS.ffffffZ`, in UTC, as the date filters write it.
    static func rfc3339(_ date: Date) -> String {
        DateText.iso(date, fractionDigits: 6)
    }
}
