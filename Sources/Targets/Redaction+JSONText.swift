extension Redaction {
    /// `text` with every secret value masked (``mask(_:)``), also where JSON escapes hide one: in
    /// JSON text, each string literal that holds an escape is decoded, and when its value holds a
    /// secret (`AbC\u002BdEf` as System.Text.Json writes `+`, `pa\\\"ss` in httpbin's `data`, a
    /// body echoed as a string) the literal is replaced in place by its masked value, written as a
    /// literal again; a value that is itself JSON text is read so too. Only values are masked, never
    /// a member by its name, and everything else stays byte for byte: white space, key order,
    /// numbers, and every literal that holds no secret.
    public func maskedDecodingJSON(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        return mask(maskedStringLiterals(text, depth: 0))
    }

    /// How many strings holding JSON deep a secret is looked for: an echo of an echo is two.
    private static let stringLiteralDepth = 4

    /// `text` with each escaped string literal whose value holds a secret replaced as
    /// ``maskedDecodingJSON(_:)`` says, wherever one stands: in a JSON document, and in text that
    /// holds JSON (an event stream's `data: {...}` lines, NDJSON, a JSON document cut short).
    private func maskedStringLiterals(_ text: String, depth: Int) -> String {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        guard depth < Self.stringLiteralDepth, text.utf8.contains(backslash) else { return text }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        var copied = 0
        var start = 0
        while start < bytes.count {
            guard bytes[start] == quote else {
                start += 1
                continue
            }
            var end = start + 1
            var escaped = false
            while end < bytes.count, bytes[end] != quote {
                if bytes[end] == backslash {
                    escaped = true
                    end += 1
                }
                end += 1
            }
            guard end < bytes.count else { break }
            // A literal without an escape is its value: the mask of the whole text finds a secret in it.
            if escaped, case .string(let value)? = try? JSONValue.parse(bytes[start...end]) {
                let masked = mask(maskedStringLiterals(value, depth: depth + 1))
                if masked != value {
                    output += bytes[copied..<start]
                    output += Array(JSONValue.string(masked).compactText.utf8)
                    copied = end + 1
                }
            }
            start = end + 1
        }
        guard copied > 0 else { return text }
        output += bytes[copied...]
        return String(decoding: output, as: UTF8.self)
    }
}
