/// Splits a command line as `sh` (and bash, for `$'...'`) would, without running anything:
/// 'single', "double" (`\"`, `\\`, `\$`, `` \` `` and a backslash-newline are escapes), `$'...'`
/// with ANSI-C escapes (Chrome's "Copy as cURL" writes some headers that way), backslash escapes
/// outside quotes, and a backslash-newline between words. `$VAR` is kept as written: nothing is expanded.
enum ShellCommandWords {
    struct Failure: Error {
        var message: String
    }

    static func split(_ text: String) throws(Failure) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        var inWord = false
        let bytes = Array(text.utf8)
        var index = 0
        func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                if inWord { words.append(String(decoding: current, as: UTF8.self)) }
                current = []
                inWord = false
                index += 1
            case UInt8(ascii: "\\"):
                index += 1
                if peek(0) == UInt8(ascii: "\r"), peek(1) == UInt8(ascii: "\n") { index += 2; continue }
                guard let next = peek(0) else { break }
                index += 1
                if next == UInt8(ascii: "\n") { continue }
                current.append(next)
                inWord = true
            case UInt8(ascii: "'"):
                guard let end = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "'")) else {
                    throw Failure(message: "a ' quote is not closed")
                }
                current += bytes[(index + 1)..<end]
                inWord = true
                index = end + 1
            case UInt8(ascii: "\""):
                index += 1
                var closed = false
                while index < bytes.count {
                    let inner = bytes[index]
                    if inner == UInt8(ascii: "\"") { closed = true; index += 1; break }
                    if inner == UInt8(ascii: "\\"), let next = peek(1), "\"\\$`\n".utf8.contains(next) {
                        if next != UInt8(ascii: "\n") { current.append(next) }
                        index += 2
                        continue
                    }
                    current.append(inner)
                    index += 1
                }
                guard closed else { throw Failure(message: "a \" quote is not closed") }
                inWord = true
            case UInt8(ascii: "$") where peek(1) == UInt8(ascii: "'"):
                index += 2
                current += try ansiC(bytes, &index)
                inWord = true
            default:
                current.append(byte)
                inWord = true
                index += 1
            }
        }
        if inWord { words.append(String(decoding: current, as: UTF8.self)) }
        return words
    }

    /// The body of a `$'...'` string up to its closing quote, escapes replaced (bash's list).
    private static func ansiC(_ bytes: [UInt8], _ index: inout Int) throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "'") { return out }
            guard byte == UInt8(ascii: "\\"), index < bytes.count else {
                out.append(byte)
                continue
            }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "a"): out.append(0x07)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "e"), UInt8(ascii: "E"): out.append(0x1B)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "v"): out.append(0x0B)
            case UInt8(ascii: "x"):
                out.append(UInt8(number(bytes, &index, radix: 16, maxDigits: 2) ?? 0))
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                let value = number(bytes, &index, radix: 16, maxDigits: escape == UInt8(ascii: "u") ? 4 : 8) ?? 0
                out += Array(String(Unicode.Scalar(UInt32(truncatingIfNeeded: value)) ?? "\u{FFFD}").utf8)
            case UInt8(ascii: "c"):
                guard index < bytes.count else { break }
                out.append(bytes[index] & 0x1F)
                index += 1
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                index -= 1
                out.append(UInt8(truncatingIfNeeded: number(bytes, &index, radix: 8, maxDigits: 3) ?? 0))
            default:
                // `\\`, `\'`, `\"`, `\?` are the character; an unknown escape stays as written, as in bash.
                if !"\\'\"?".utf8.contains(escape) { out.append(UInt8(ascii: "\\")) }
                out.append(escape)
            }
        }
        throw Failure(message: "a $' quote is not closed")
    }

    private static func number(_ bytes: [UInt8], _ index: inout Int, radix: Int, maxDigits: Int) -> Int? {
        var value = 0
        var digits = 0
        while digits < maxDigits, index < bytes.count, let digit = Int(String(UnicodeScalar(bytes[index])), radix: radix) {
            value = value * radix + digit
            index += 1
            digits += 1
        }
        return digits == 0 ? nil : value
    }
}
