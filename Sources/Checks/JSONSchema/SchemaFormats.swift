import Foundation
import Targets

/// The string formats schemas are checked for, as draft 2020-12's format-assertion vocabulary
/// names them: `date-time`, `date` and `time` (RFC 3339), `uuid` (RFC 9562's 8-4-4-4-12 hex
/// digits), `email` (RFC 5321's Mailbox), `uri` and
/// `uri-reference` (RFC 3986's characters, one `#`, brackets only around an IP literal host,
/// one `@` in the authority; `uri` with a scheme), `ipv4`, `ipv6` and `hostname`
/// (RFC 1123 labels); in an OpenAPI document also `int32`, `int64` and `byte`
/// (``checkOpenAPI(_:_:)``). Any other format is an annotation, as the specification has it: not checked.
enum SchemaFormats {
    /// Whether `text` has the format; nil for a format that is not checked.
    static func check(_ format: String, _ text: String) -> Bool? {
        switch format {
        case "date-time": dateTime(Array(text.utf8))
        case "date": text.utf8.count == 10 && date(Array(text.utf8))
        case "time": time(Array(text.utf8), from: 0)
        case "uuid": uuid(Array(text.utf8))
        case "email": email(text)
        case "uri": uri(text, absolute: true)
        case "uri-reference": uri(text, absolute: false)
        case "ipv4": ipv4(text)
        case "ipv6": ipv6(text)
        case "hostname": hostname(text)
        default: nil
        }
    }

    /// OpenAPI's own formats, checked in an OpenAPI document as openapi-core checks them:
    /// `int32` and `int64` (a whole number within the signed range), `byte` (base64: RFC 4648's
    /// alphabet, padded to a multiple of 4). Nil for another format, or a value of another type.
    static func checkOpenAPI(_ format: String, _ value: JSONValue) -> Bool? {
        switch (format, value) {
        case ("int32", .number(let text)): whole(text, within: "-2147483648", "2147483647")
        case ("int64", .number(let text)): whole(text, within: "-9223372036854775808", "9223372036854775807")
        case ("byte", .string(let text)): base64(Array(text.utf8))
        default: nil
        }
    }

    /// The range an `int32` or `int64` takes, as the expected text of a violation.
    static func range(_ format: String) -> String {
        format == "int32" ? "-2147483648 to 2147483647" : "-9223372036854775808 to 9223372036854775807"
    }

    /// Whether a whole number is within `low...high`; a fractional one is left to `type`.
    private static func whole(_ text: String, within low: String, _ high: String) -> Bool {
        guard let number = ExactNumber(text), number.isInteger, let low = ExactNumber(low), let high = ExactNumber(high) else { return true }
        return !(number < low) && !(high < number)
    }

    private static func base64(_ bytes: [UInt8]) -> Bool {
        guard bytes.count % 4 == 0 else { return false }
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { return false }
        return bytes.dropLast(padding).allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
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

    /// `2024-05-01T12:30:00Z`, `...T12:30:00.123+09:00`; `t` and `z` accepted, as RFC 3339's
    /// ABNF (section 5.6) has them, but not a blank: its note allows one "for the sake of
    /// readability", outside the grammar JSON Schema's `date-time` names (and python-jsonschema,
    /// rfc3339-validator, refuse it).
    private static func dateTime(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 20, date(bytes), [UInt8(ascii: "T"), UInt8(ascii: "t")].contains(bytes[10]) else { return false }
        return time(bytes, from: 11)
    }

    /// `2024-05-01` at the start of `bytes`, its day within its month.
    private static func date(_ bytes: [UInt8]) -> Bool {
        guard let year = digits(bytes, 0..<4), bytes.count >= 10, bytes[4] == UInt8(ascii: "-"),
              let month = digits(bytes, 5..<7), (1...12).contains(month), bytes[7] == UInt8(ascii: "-"),
              let day = digits(bytes, 8..<10), day >= 1 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return day <= days
    }

    /// `12:30:00Z`, `12:30:00.123+09:00` from `start` to the end of `bytes`.
    private static func time(_ bytes: [UInt8], from start: Int) -> Bool {
        guard let hour = digits(bytes, start..<start + 2), hour < 24, bytes.count > start + 8, bytes[start + 2] == UInt8(ascii: ":"),
              let minute = digits(bytes, start + 3..<start + 5), minute < 60, bytes[start + 5] == UInt8(ascii: ":"),
              let second = digits(bytes, start + 6..<start + 8), second <= 60 else { return false }
        var index = start + 8
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fraction = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > fraction else { return false }
        }
        guard index < bytes.count else { return false }
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
            return index + 1 == bytes.count && (second < 60 || (hour == 23 && minute == 59))
        }
        guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"), index + 6 == bytes.count,
              let offsetHour = digits(bytes, index + 1..<index + 3), offsetHour < 24, bytes[index + 3] == UInt8(ascii: ":"),
              let offsetMinute = digits(bytes, index + 4..<index + 6), offsetMinute < 60 else { return false }
        guard second == 60 else { return true }
        // A leap second is the last second of a UTC day: 23:59:60Z, or 15:59:60-08:00.
        let offset = (offsetHour * 60 + offsetMinute) * (bytes[index] == UInt8(ascii: "+") ? 1 : -1)
        return ((hour * 60 + minute - offset) % 1440 + 1440) % 1440 == 1439
    }

    /// RFC 3986's characters (unreserved, reserved, `%` with two hex digits) in its structure
    /// (``structured(_:)``); with `absolute`, a scheme first (`https:`).
    private static func uri(_ text: String, absolute: Bool) -> Bool {
        let bytes = Array(text.utf8)
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=".utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, hexDigitValue(bytes[index + 1]) != nil, hexDigitValue(bytes[index + 2]) != nil else { return false }
                index += 3
                continue
            }
            guard allowed.contains(bytes[index]) else { return false }
            index += 1
        }
        let delimiters: Set<UInt8> = [UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")]
        let end = bytes.firstIndex { delimiters.contains($0) } ?? bytes.count
        var rest = bytes[...]
        if let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")), colon > 0, isLetter(bytes[0]),
           bytes[1..<colon].allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) || [UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: ".")].contains($0) }) {
            rest = bytes[(colon + 1)...]
        } else if absolute {
            return false
        }
        return structured(rest)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// RFC 3986's structure after the scheme, where its characters alone let wrong ones through
    /// (as rfc3987, python-jsonschema's reader, refuses them): one `#`; `[` and `]` only around an
    /// IP literal that is the whole host (`//[::1]:80`); one `@` in the authority.
    private static func structured(_ rest: ArraySlice<UInt8>) -> Bool {
        guard rest.filter({ $0 == UInt8(ascii: "#") }).count <= 1 else { return false }
        var authority: ArraySlice<UInt8> = []
        var path = rest
        if rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            let start = rest.startIndex + 2
            let end = rest[start...].firstIndex { [UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains($0) } ?? rest.endIndex
            authority = rest[start..<end]
            path = rest[end...]
        }
        let brackets: Set<UInt8> = [UInt8(ascii: "["), UInt8(ascii: "]")]
        // In the query and fragment they are taken, as browsers send them: JSON:API's links are
        // `?page[offset]=2`, though RFC 3986 would have them percent-encoded.
        let pathOnly = path.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        guard !pathOnly.contains(where: { brackets.contains($0) }), authority.filter({ $0 == UInt8(ascii: "@") }).count <= 1 else { return false }
        let host = authority.split(separator: UInt8(ascii: "@"), omittingEmptySubsequences: false).last ?? []
        guard host.contains(where: { brackets.contains($0) }) else { return true }
        // An IP literal: `[` first, one `]`, then nothing or `:port`.
        guard host.first == UInt8(ascii: "["), let close = host.firstIndex(of: UInt8(ascii: "]")),
              host.filter({ brackets.contains($0) }).count == 2 else { return false }
        let after = host[(close + 1)...]
        return after.isEmpty || (after.first == UInt8(ascii: ":") && after.dropFirst().allSatisfy { (0x30...0x39).contains($0) })
    }

    /// Four decimal octets, 0 to 255, without leading zeros.
    private static func ipv4(_ text: String) -> Bool {
        let octets = text.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.allSatisfy { octet in
            !octet.isEmpty && octet.count <= 3 && octet.allSatisfy(\.isASCII) && octet.allSatisfy(\.isNumber)
                && (octet.count == 1 || octet.first != "0") && (Int(octet) ?? 256) <= 255
        }
    }

    /// What the system's own reader of IPv6 addresses takes (`inet_pton`), with no zone.
    private static func ipv6(_ text: String) -> Bool {
        var address = in6_addr()
        return !text.contains("%") && inet_pton(AF_INET6, text, &address) == 1
    }

    /// Labels of letters, digits and `-`, 1 to 63 characters, not starting or ending with `-`;
    /// 253 characters at most.
    private static func hostname(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253 else { return false }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                && label.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == UInt8(ascii: "-") }
        }
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

    /// RFC 5321's Mailbox, as JSON Schema's test suite reads `email`: a dot-atom or a quoted local
    /// part of at most 64 characters, `@`, then a hostname (one label is one) or an address
    /// literal (`[127.0.0.1]`, `[IPv6:::1]`).
    private static func email(_ text: String) -> Bool {
        guard let at = text.lastIndex(of: "@") else { return false }
        let local = text[..<at]
        let domain = text[text.index(after: at)...]
        guard local.utf8.count <= 64, localPart(local) else { return false }
        if domain.hasPrefix("["), domain.hasSuffix("]") {
            let literal = domain.dropFirst().dropLast()
            return literal.hasPrefix("IPv6:") ? ipv6(String(literal.dropFirst(5))) : ipv4(String(literal))
        }
        return hostname(String(domain))
    }

    /// A dot-atom (atext, single dots between atoms) or a quoted string (printable ASCII, `\`
    /// escaping one character).
    private static func localPart(_ local: Substring) -> Bool {
        let scalars = Array(local.unicodeScalars)
        if scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" {
            var escaped = false
            for scalar in scalars.dropFirst().dropLast() {
                guard (32...126).contains(scalar.value) else { return false }
                if escaped { escaped = false } else if scalar == "\\" { escaped = true } else if scalar == "\"" { return false }
            }
            return !escaped
        }
        let special = Set("!#$%&'*+-/=?^_`{|}~".unicodeScalars)
        return local.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { atom in
            !atom.isEmpty && atom.unicodeScalars.allSatisfy { scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || special.contains(scalar)
            }
        }
    }
}
