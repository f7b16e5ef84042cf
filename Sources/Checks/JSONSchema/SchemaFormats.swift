/// The string formats schemas are checked for: `date-time` (RFC 3339), `uuid` (RFC 9562's
/// 8-4-4-4-12 hex digits) and `email` (a light check: one `@`, no blanks, a dot in the domain).
enum SchemaFormats {
    /// Whether `text` has the format; nil for a format that is not checked.
    static func check(_ format: String, _ text: String) -> Bool? {
        switch format {
        case "date-time": dateTime(Array(text.utf8))
        case "uuid": uuid(Array(text.utf8))
        case "email": email(text)
        default: nil
        }
    }

    private static func digits(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        guard range.upperBound <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[range] {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// `2024-05-01T12:30:00Z`, `...T12:30:00.123+09:00`; `t`, `z` and a blank for `T` accepted as RFC 3339 allows.
    private static func dateTime(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 20, digits(bytes, 0..<4) != nil, bytes[4] == UInt8(ascii: "-"),
              let month = digits(bytes, 5..<7), (1...12).contains(month), bytes[7] == UInt8(ascii: "-"),
              let day = digits(bytes, 8..<10), (1...31).contains(day),
              [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(bytes[10]),
              let hour = digits(bytes, 11..<13), hour < 24, bytes[13] == UInt8(ascii: ":"),
              let minute = digits(bytes, 14..<16), minute < 60, bytes[16] == UInt8(ascii: ":"),
              let second = digits(bytes, 17..<19), second <= 60 else { return false }
        var index = 19
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > start else { return false }
        }
        guard index < bytes.count else { return false }
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") { return index + 1 == bytes.count }
        guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"), index + 6 == bytes.count,
              let offsetHour = digits(bytes, index + 1..<index + 3), offsetHour < 24, bytes[index + 3] == UInt8(ascii: ":"),
              let offsetMinute = digits(bytes, index + 4..<index + 6), offsetMinute < 60 else { return false }
        return true
    }

    private static func uuid(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                let hex = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
                guard hex else { return false }
            }
        }
        return true
    }

    private static func email(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].count >= 3, !text.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" }) else { return false }
        let domain = parts[1]
        return domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".") && !domain.contains("..")
    }
}
