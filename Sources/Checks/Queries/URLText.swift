/// Percent-encoding for the `urlEncode` and `urlQueryParam` filters, on UTF-8 bytes.
enum URLText {
    /// `text` with every UTF-8 byte percent-encoded (`%3A`, upper-case digits) except RFC 3986's
    /// unreserved characters (`A-Z a-z 0-9 - . _ ~`) and `/`, which Hurl's `urlEncode` keeps too.
    static func encoded(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isKept(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
            true
        default:
            false
        }
    }

    /// The value of the first parameter called `name` in the query of `url` (the text between the
    /// first `?` and a `#`), both read as a form reads them: `+` is a space and `%XX` a byte of
    /// UTF-8 (bytes that are not UTF-8 become U+FFFD); a parameter without `=` has the value "".
    /// Nil when there is no such parameter, or no query.
    static func queryParameter(_ name: String, in url: String) -> String? {
        guard let question = url.firstIndex(of: "?") else { return nil }
        let query = url[url.index(after: question)...].prefix { $0 != "#" }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard formDecoded(parts[0]) == name else { continue }
            return parts.count > 1 ? formDecoded(parts[1]) : ""
        }
        return nil
    }

    /// `text` as `application/x-www-form-urlencoded` reads it: `+` is a space, `%XX` a byte; a `%`
    /// not followed by two hex digits stays as written.
    static func formDecoded(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 3
                continue
            }
            out.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
