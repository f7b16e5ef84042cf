/// Words of a wsh declaration as the shell's lexer reads them back (LANGUAGE.md, "Lexical rules").
enum DeclarationText {
    /// `text` bare when the lexer reads it back as one word unchanged, else in `"..."` with escapes.
    static func word(_ text: String) -> String {
        let plain = !text.isEmpty && !text.hasPrefix("#") && text.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x20 && scalar.value != 0x7F && !"\"';{}#$\\|>".unicodeScalars.contains(scalar)
        }
        if plain { return text }
        // JSON reads best raw: `'tags:=["a","b"]'`.
        if !text.contains("'"), !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "'" + text + "'" }
        return quoted(text)
    }

    /// `"..."` with the escapes `\" \\ \n \r \t \$`.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "$": result += "\\$"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += hexEscape(scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// A body (JSON text) raw in `'...'` when it holds no `'` or line break, which reads best; else quoted.
    static func literal(_ text: String) -> String {
        if !text.isEmpty, !text.contains("'"), !text.contains("\n"), !text.contains("\r") { return "'" + text + "'" }
        return quoted(text)
    }

    /// A path: bare when its only special characters are a template's braces.
    static func path(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x20 && scalar.value != 0x7F && !"\"';#$\\|>".unicodeScalars.contains(scalar)
        }
        return plain ? text : quoted(text)
    }
}

/// `\uXXXX` for a control character.
private func hexEscape(_ value: UInt32) -> String {
    let hex = String(value, radix: 16, uppercase: true)
    return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
