/// Any bytes as a POSIX `printf` format: printable ASCII as itself, `%` and `\` doubled, every
/// other byte as a three-digit octal escape. A body with NUL bytes, or bytes that are not UTF-8,
/// cannot be a command-line argument; `printf 'FORMAT' | curl --data-binary @-` sends it unchanged.
enum PrintfBytes {
    static func format<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var out = ""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "%"): out += "%%"
            case UInt8(ascii: "\\"): out += "\\\\"
            case 0x20...0x7E: out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let octal = String(byte, radix: 8)
                out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return out
    }
}
