/// Text from a server made safe for a terminal: control characters shown as `\x1b`, so a body
/// cannot set the window title, clear the screen or move the cursor. Into a pipe or a file, bytes
/// go as they came; only what reaches a terminal is escaped.
public enum TerminalText {
    /// `text` with C0 controls (but newline and tab; a carriage return only when a newline follows),
    /// DEL and C1 controls written as `\xHH`.
    public static func escaped(_ text: String) -> String {
        guard needsEscaping(text) else { return text }
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var next = scalars.next()
        while let scalar = next {
            next = scalars.next()
            let isLineEnd = scalar == "\r" && next == "\n"
            if isControl(scalar), !isLineEnd {
                let hex = String(scalar.value, radix: 16)
                result.append(contentsOf: "\\x\(hex.count == 1 ? "0" : "")\(hex)".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Bytes as text for a terminal: UTF-8 decoded (invalid sequences as U+FFFD), then escaped.
    public static func escaped(bytes: some Collection<UInt8>) -> String {
        escaped(String(decoding: bytes, as: UTF8.self))
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F, 0x80...0x9F: true
        default: false
        }
    }

    /// A scan of the bytes: most text has no control characters and is returned as it is.
    private static func needsEscaping(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte < 0x20, byte != 0x0A, byte != 0x09 { return true }
            if byte == 0x7F { return true }
            if previous == 0xC2, (0x80...0x9F).contains(byte) { return true }
            previous = byte
        }
        return false
    }
}
