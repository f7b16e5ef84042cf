import Foundation

/// XML elements named like secrets (`<password>`, `<wsse:Password>`, `<apiKey>`): their text is a
/// credential in a request, in an answer, and wherever either is shown or written. Read from the
/// bytes, in one pass, so that an answer in another ASCII-based encoding (ISO-8859-1) is masked
/// too, and a body a server shapes (`<a<a<a...`) costs no more than its length.
extension Redaction {
    /// Each element whose local name (after a prefix) `keeps` picks, with the range of its text, up
    /// to the next tag; a `<![CDATA[...]]>` there is part of the text. Byte offsets into `bytes`.
    static func xmlElementTexts(_ bytes: [UInt8], named keeps: (UnsafeBufferPointer<UInt8>) -> Bool) -> [(name: Range<Int>, text: Range<Int>)] {
        bytes.withUnsafeBufferPointer { bytes in
            let open = UInt8(ascii: "<"), close = UInt8(ascii: ">")
            let count = bytes.count
            func endsName(_ byte: UInt8) -> Bool {
                byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A || byte == UInt8(ascii: "/") || byte == close || byte == open
            }
            func next(_ byte: UInt8, from start: Int) -> Int {
                var index = start
                while index < count, bytes[index] != byte { index += 1 }
                return index
            }
            func startsCDATA(at index: Int) -> Bool {
                let mark: StaticString = "<![CDATA["
                guard index + mark.utf8CodeUnitCount <= count else { return false }
                return (0..<mark.utf8CodeUnitCount).allSatisfy { bytes[index + $0] == mark.utf8Start[$0] }
            }
            var found: [(name: Range<Int>, text: Range<Int>)] = []
            var index = next(open, from: 0)
            // Once a `<![CDATA[` has no end, none after it has either.
            var cdataEnds = true
            while index < count {
                let start = index
                var cursor = start + 1
                while cursor < count, !endsName(bytes[cursor]) { cursor += 1 }
                let name = (start + 1)..<cursor
                while cursor < count, bytes[cursor] != close, bytes[cursor] != open { cursor += 1 }
                guard cursor < count else { break }
                // A `<` before the `>`: no tag began at `start`; look again from that `<`.
                guard bytes[cursor] == close else {
                    index = cursor
                    continue
                }
                index = next(open, from: cursor + 1)
                // A closing tag's name is empty; `<!...>` and `<?...?>` are no elements; `<x/>` has no text.
                guard !name.isEmpty, bytes[name.lowerBound] != UInt8(ascii: "!"), bytes[name.lowerBound] != UInt8(ascii: "?"),
                      bytes[cursor - 1] != UInt8(ascii: "/") else { continue }
                var end = index
                if cdataEnds, startsCDATA(at: end) {
                    var probe = end + 9
                    while probe + 2 < count, !(bytes[probe] == UInt8(ascii: "]") && bytes[probe + 1] == UInt8(ascii: "]") && bytes[probe + 2] == close) {
                        probe += 1
                    }
                    if probe + 2 < count {
                        end = probe + 3
                        index = next(open, from: end)
                    } else {
                        cdataEnds = false
                    }
                }
                var prefixEnd = name.lowerBound
                for position in name where bytes[position] == UInt8(ascii: ":") { prefixEnd = position + 1 }
                let local = prefixEnd..<name.upperBound
                if keeps(UnsafeBufferPointer(rebasing: bytes[local])) { found.append((local, (cursor + 1)..<end)) }
            }
            return found
        }
    }

    /// The text of XML elements named as credentials (by the name after a prefix), as written and
    /// with the five predefined entities undone, or a CDATA section's content.
    func credentialElements(_ bytes: [UInt8]) -> [(name: String, value: String)] {
        var found: [(name: String, value: String)] = []
        for element in Self.xmlElementTexts(bytes, named: isSensitiveName) {
            let name = String(decoding: bytes[element.name], as: UTF8.self)
            guard Self.isCredentialName(name) else { continue }
            var value = String(decoding: bytes[element.text], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if value.hasPrefix("<![CDATA["), value.hasSuffix("]]>") {
                value = String(value.dropFirst(9).dropLast(3))
                found.append((name, value))
                continue
            }
            let unescaped = value.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
            found.append((name, value))
            if unescaped != value { found.append((name, unescaped)) }
        }
        return found
    }

    /// `bytes` with the text of elements named like secrets (``isSensitiveKey(_:)``, as a JSON
    /// member is masked by its name) as `***`; nil when there is none.
    func maskedElements(_ bytes: [UInt8]) -> [UInt8]? {
        var masked: [UInt8] = []
        var copied = 0
        let blank: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0A]
        for element in Self.xmlElementTexts(bytes, named: isSensitiveName) {
            guard !bytes[element.text].allSatisfy(blank.contains) else { continue }
            if masked.isEmpty { masked.reserveCapacity(bytes.count) }
            masked += bytes[copied..<element.text.lowerBound]
            masked += Self.placeholder.utf8
            copied = element.text.upperBound
        }
        guard copied > 0 else { return nil }
        return masked + bytes[copied...]
    }

    /// ``maskedElements(_:)-([UInt8])`` of a text.
    func maskedElements(_ text: String) -> String {
        maskedElements(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    /// ``isSensitiveKey(_:)`` of a name's bytes, read without a `String` when they are ASCII (a
    /// large document has an element name every few bytes).
    private func isSensitiveName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        if name.allSatisfy({ $0 < 0x80 }) { return Self.sensitiveKeyFinder.occurs(in: name) }
        return isSensitiveKey(String(decoding: name, as: UTF8.self))
    }

    /// Whether a body is XML by its type, or by its first byte (``firstByte(of:)``).
    static func looksLikeXML(_ body: Data, contentType: String?) -> Bool {
        if let contentType, MediaType.essence(of: contentType).hasSuffix("xml") { return true }
        return firstByte(of: body) == UInt8(ascii: "<")
    }
}
