/// JSON text with the escapes of its strings read, for a scan of what the text says: `\u006b` is
/// `k`, `\"` is `"`, a surrogate pair is its character. An escape cut short or not JSON's is kept
/// as written; the text need not be a whole document (the first megabyte of one).
enum JSONEscapes {
    static func read<Bytes: Collection<UInt8>>(_ text: Bytes) -> [UInt8] {
        let bytes = Array(text)
        var read: [UInt8] = []
        read.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                read.append(byte)
                index += 1
                continue
            }
            let next = bytes[index + 1]
            if let simple = JSONParser.simpleEscapes[next] {
                read.append(simple)
                index += 2
            } else if next == UInt8(ascii: "u"), let (scalar, length) = codePoint(bytes, at: index) {
                read.append(contentsOf: String(scalar).utf8)
                index += length
            } else {
                read.append(byte)
                index += 1
            }
        }
        return read
    }

    /// The character of the `\uXXXX` at `index` (with the low half of a surrogate pair after it),
    /// and how many bytes it took; a lone surrogate is U+FFFD, as the parser reads it.
    private static func codePoint(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        guard let high = hex4(bytes, at: index + 2) else { return nil }
        if (0xD800...0xDBFF).contains(high), index + 12 <= bytes.count, bytes[index + 6] == UInt8(ascii: "\\"),
           bytes[index + 7] == UInt8(ascii: "u"), let low = hex4(bytes, at: index + 8), (0xDC00...0xDFFF).contains(low) {
            return (Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}", 12)
        }
        return (Unicode.Scalar(high) ?? "\u{FFFD}", 6)
    }

    private static func hex4(_ bytes: [UInt8], at index: Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            guard let digit = hexDigitValue(byte) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
