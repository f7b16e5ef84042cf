import Foundation

/// Byte-level searches for the per-call text work (URLs, log lines): they scan the contiguous
/// UTF-8 directly, where a String's characters or its `utf8` view go through generic index code.
extension String {
    /// The offset in UTF-8 bytes of the first `byte`, or `nil`.
    func utf8Offset(of byte: UInt8) -> Int? {
        var text = self
        return text.withUTF8 { $0.firstIndex(of: byte) }
    }

    /// Whether the UTF-8 of this string contains `byte`.
    func containsByte(_ byte: UInt8) -> Bool {
        utf8Offset(of: byte) != nil
    }

    /// Whether every UTF-8 byte satisfies `predicate`.
    func allBytes(_ predicate: (UInt8) -> Bool) -> Bool {
        firstByte(where: { !predicate($0) }) == nil
    }

    /// The first UTF-8 byte that satisfies `predicate`, or `nil`.
    func firstByte(where predicate: (UInt8) -> Bool) -> UInt8? {
        var text = self
        return text.withUTF8 { $0.first(where: predicate) }
    }

    /// The text before and after the first `separator`, an ASCII byte; `nil` after when there is none.
    func split(once separator: UInt8) -> (String, String?) {
        guard let offset = utf8Offset(of: separator) else { return (self, nil) }
        let index = utf8.index(utf8.startIndex, offsetBy: offset)
        return (String(self[..<index]), String(self[utf8.index(after: index)...]))
    }

    /// Whether the string starts with `prefix`, ignoring the case of ASCII letters.
    /// `prefix` is lowercase ASCII.
    func hasASCIIPrefixIgnoringCase(_ prefix: StaticString) -> Bool {
        var text = self
        return text.withUTF8 { bytes in
            guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
            for offset in 0..<prefix.utf8CodeUnitCount {
                let byte = bytes[offset]
                let lowered = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
                if lowered != prefix.utf8Start[offset] { return false }
            }
            return true
        }
    }
}

extension [UInt8] {
    /// Appends the text's UTF-8 in one copy (through `utf8`, a byte at a time, it cost four times as much).
    public mutating func appendUTF8(of text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}

extension Slice<UnsafeBufferPointer<UInt8>> {
    /// These UTF-8 bytes as text, without leading and trailing spaces and tabs (HTTP's OWS, RFC
    /// 6265's WSP).
    var textTrimmingSpacesAndTabs: String {
        String(decoding: trimmingSpacesAndTabs, as: UTF8.self)
    }

    /// These bytes without leading and trailing spaces and tabs.
    var trimmingSpacesAndTabs: Self {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var part = self
        while let first = part.first, isSpace(first) { part = part.dropFirst() }
        while let last = part.last, isSpace(last) { part = part.dropLast() }
        return part
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (HTTP's OWS, RFC 6265's WSP): exactly those
    /// two, where Foundation's `.whitespaces` takes every Unicode space.
    var trimmingSpacesAndTabs: String {
        var text = String(self)
        return text.withUTF8 { $0[...].textTrimmingSpacesAndTabs }
    }
}
