import Foundation

/// XML elements named like secrets (`<password>`, `<wsse:Password>`, `<apiKey>`): their text is a
/// credential in a request, in an answer, and wherever either is shown or written.
extension Redaction {
    /// Each element's local name (after a prefix) and the range of its text, up to the next tag; a
    /// `<![CDATA[...]]>` there is part of the text.
    static func xmlElementTexts(_ text: String) -> [(name: Substring, text: Range<String.Index>)] {
        var found: [(name: Substring, text: Range<String.Index>)] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            let name = rest.prefix { !" \t\r\n/>".contains($0) }
            // No `>` left: no element either, and looking again from each `<` would be quadratic.
            guard let close = rest.firstIndex(of: ">") else { break }
            // A closing tag's name is empty; `<!...>` and `<?...?>` are no elements.
            guard !name.isEmpty, !name.hasPrefix("!"), !name.hasPrefix("?"), rest[rest.index(before: close)] != "/" else { continue }
            let start = rest.index(after: close)
            var end = rest[start...].firstIndex(of: "<") ?? rest.endIndex
            if rest[end...].hasPrefix("<![CDATA["), let cdataEnd = rest[end...].range(of: "]]>") {
                end = cdataEnd.upperBound
                rest = rest[end...]
            }
            found.append((name.split(separator: ":").last ?? name, start..<end))
        }
        return found
    }

    /// The text of XML elements named as credentials (by the name after a prefix), as written and
    /// with the five predefined entities undone, or a CDATA section's content.
    func credentialElements(_ text: String) -> [(name: String, value: String)] {
        var found: [(name: String, value: String)] = []
        for element in Self.xmlElementTexts(text) {
            let name = String(element.name)
            guard isSensitiveKey(name), Self.isCredentialName(name) else { continue }
            var value = text[element.text].trimmingCharacters(in: .whitespacesAndNewlines)
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

    /// `text` with the text of elements named like secrets (``isSensitiveKey(_:)``, as a JSON
    /// member is masked by its name) as `***`.
    func maskedElements(_ text: String) -> String {
        var masked = ""
        var copied = text.startIndex
        for element in Self.xmlElementTexts(text) where element.text.lowerBound >= copied && isSensitiveKey(String(element.name)) {
            guard !text[element.text].allSatisfy(\.isWhitespace) else { continue }
            masked += text[copied..<element.text.lowerBound] + Self.placeholder
            copied = element.text.upperBound
        }
        return copied == text.startIndex ? text : masked + text[copied...]
    }

    /// Whether a body is XML by its type, or by its first byte that is not white space.
    static func looksLikeXML(_ body: Data, contentType: String?) -> Bool {
        if let contentType, MediaType.essence(of: contentType).hasSuffix("xml") { return true }
        return body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<")
    }
}
