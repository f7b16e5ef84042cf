/// Percent-encoding as `curl --data-urlencode` does it: the RFC 3986 unreserved characters
/// (`A-Z a-z 0-9 - . _ ~`) stay, every other UTF-8 byte becomes `%XX` (so a space is `%20`).
public enum PercentEncoding {
    /// `text` with every byte but the unreserved characters as `%XX`.
    public static func encode(_ text: String) -> String {
        // Most values need no escape; building a copy byte by byte was a visible part of each call.
        if text.allBytes(isUnreserved) { return text }
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                appendEscape(byte, to: &encoded)
            }
        }
        return encoded
    }

    /// What a query value may hold as it is: RFC 3986's query characters but `& = + #`, which
    /// would split it or be read as a space.
    public static let queryValueCharacters = Set("/:@!$'()*,;?".utf8)

    /// `text` with every byte but the unreserved characters and `kept` as `%XX`; with
    /// `keepingEscapes`, an escape already in it (`%2F`) is kept too, as a value written into a URL
    /// that holds its own escapes (a value the `.http` importer encoded) must not be encoded twice.
    public static func encode(_ text: String, keeping kept: Set<UInt8>, keepingEscapes: Bool = false) -> String {
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        let bytes = Array(text.utf8)
        for (index, byte) in bytes.enumerated() {
            let startsEscape = keepingEscapes && byte == UInt8(ascii: "%") && index + 2 < bytes.count
                && hexDigitValue(bytes[index + 1]) != nil && hexDigitValue(bytes[index + 2]) != nil
            if isUnreserved(byte) || kept.contains(byte) || startsEscape {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                appendEscape(byte, to: &encoded)
            }
        }
        return encoded
    }

    /// `url` with every byte that may not appear in a URL percent-encoded (spaces, non-ASCII, `"`, `<`, ...,
    /// and a `%` not starting an escape), leaving reserved characters, `kept` and existing escapes as they are.
    /// A URL with such bytes left in would be escaped again as a whole by the HTTP client, `%` included.
    /// `[` and `]` may stand only in a host (`http://[::1]/`): after a `scheme://host` they are escaped too
    /// (`?filter[name]=a` as `?filter%5Bname%5D=a`), which servers read as the same.
    public static func encodeIllegalURLCharacters(_ url: String, keeping kept: Set<UInt8> = []) -> String {
        if url.allBytes({ isUnreserved($0) || (isReserved($0) && !isBracket($0)) || kept.contains($0) }) { return url }
        let bytes = Array(url.utf8)
        let hostEnd = authorityEnd(bytes)
        var encoded = ""
        encoded.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            let startsEscape = byte == UInt8(ascii: "%") && index + 2 < bytes.count
                && hexDigitValue(bytes[index + 1]) != nil && hexDigitValue(bytes[index + 2]) != nil
            let bracketInPlace = isBracket(byte) && index < (hostEnd ?? Int.max)
            if isUnreserved(byte) || (isReserved(byte) && !isBracket(byte)) || bracketInPlace || kept.contains(byte) || startsEscape {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                appendEscape(byte, to: &encoded)
            }
        }
        return encoded
    }

    /// `text` with only the bytes of `escaped`, spaces and control characters as `%XX`; all else,
    /// non-ASCII too, as it is, as an IRI writes a URL.
    public static func encode(_ text: String, escapingOnly escaped: Set<UInt8>) -> String {
        var encoded = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII, scalar.value <= 0x20 || scalar.value == 0x7F || escaped.contains(UInt8(scalar.value)) {
                appendEscape(UInt8(scalar.value), to: &encoded)
            } else {
                encoded.unicodeScalars.append(scalar)
            }
        }
        return encoded
    }

    private static func isBracket(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
    }

    /// Where the authority of `scheme://authority/...` ends (at its first `/`, `?` or `#`, else the
    /// end); nil for text with no `://`.
    private static func authorityEnd(_ bytes: [UInt8]) -> Int? {
        let separator = Array("://".utf8)
        guard let start = bytes.indices.dropLast(2).first(where: { bytes[$0..<$0 + 3].elementsEqual(separator) }) else { return nil }
        let authorityStart = start + 3
        return bytes[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
    }

    /// `name=value&...` with both sides encoded, pairs in the order given.
    static func encodePairs(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }

    /// Undoes `%XX` escapes (and `+` as a space when `plusIsSpace`); malformed escapes stay as they are.
    public static func decode(_ text: Substring, plusIsSpace: Bool = true) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let high = hexDigitValue(utf8[utf8.startIndex]),
               let low = hexDigitValue(utf8[utf8.startIndex + 1]) {
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(2)
            } else if byte == UInt8(ascii: "+"), plusIsSpace {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// RFC 3986 gen-delims and sub-delims: `:/?#[]@!$&'()*+,;=`.
    private static func isReserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "["),
             UInt8(ascii: "]"), UInt8(ascii: "@"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
             UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            true
        default:
            false
        }
    }

    private static func appendEscape(_ byte: UInt8, to text: inout String) {
        text += "%"
        text.unicodeScalars.append(hexDigit(byte >> 4))
        text.unicodeScalars.append(hexDigit(byte & 0x0F))
    }

    private static func hexDigit(_ nibble: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10)
    }
}
