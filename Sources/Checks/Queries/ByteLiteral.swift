import Foundation
import Targets

/// Bytes as the language writes them (LANGUAGE.md, "Values and types"): `hex:48690a`,
/// `base64:SGkK`, `@path/to/file` (relative to the current file), or text as its UTF-8 bytes.
public enum ByteLiteral {
    /// Why text is not bytes, in the user's terms.
    public struct Failure: Error {
        public var message: String
    }

    /// The bytes `text` stands for; `quoted` text is always its own UTF-8 bytes.
    public static func bytes(_ text: String, quoted: Bool, directory: String) throws(Failure) -> [UInt8] {
        guard !quoted else { return Array(text.utf8) }
        if text.hasPrefix("hex:") {
            let digits = Array(text.utf8.dropFirst(4)).filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "_") }
            guard digits.count.isMultiple(of: 2), let bytes = hexBytes(digits) else {
                throw Failure(message: "'\(text.shortened(40))' is not hex: an even number of digits 0-9, a-f")
            }
            return bytes
        }
        if text.hasPrefix("base64:") {
            guard let bytes = base64(String(text.dropFirst(7))) else {
                throw Failure(message: "'\(text.shortened(40))' is not base64")
            }
            return bytes
        }
        if text.hasPrefix("@"), text.count > 1 {
            let path = String(text.dropFirst())
            let full = path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
            guard let data = FileManager.default.contents(atPath: full) else {
                throw Failure(message: "cannot read '\(path)' (relative to \(directory.isEmpty ? "." : directory))")
            }
            return Array(data)
        }
        return Array(text.utf8)
    }

    /// Bytes as a literal that reads back as the same bytes: `hex:...`.
    public static func text(_ bytes: some Collection<UInt8>) -> String {
        "hex:" + hex(bytes)
    }

    /// Lower-case hex digits, two per byte.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexBytes(_ digits: [UInt8]) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index + 1 < digits.count {
            guard let high = hexDigitValue(digits[index]), let low = hexDigitValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}

extension ByteLiteral {
    /// The bytes of standard base64 text (RFC 4648: groups of four of A-Z a-z 0-9 + /, `=` only
    /// to pad the last), as Python's `b64decode(validate=True)` and Hurl read it; nil for anything
    /// else. Foundation's reader took `====` as one zero byte and `QQ=x` as `AA`.
    static func base64(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard bytes.count % 4 == 0 else { return nil }
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2, padding < bytes.count || bytes.isEmpty else { return nil }
        let isBase64: (UInt8) -> Bool = { byte in
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
        }
        guard bytes.dropLast(padding).allSatisfy(isBase64), let data = Data(base64Encoded: text) else { return nil }
        return Array(data)
    }
}
