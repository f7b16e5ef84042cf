extension JSONValue {
    /// The value as text where text is wanted (a variable, a query item, `print`): a string as it
    /// is, anything else as compact JSON.
    public var plainText: String {
        if case .string(let text) = self { return text }
        return compactText
    }

    /// The value as compact JSON text: no whitespace, members in order, numbers as their literals,
    /// strings escaped only where JSON requires it.
    public var compactText: String {
        var text = ""
        write(to: &text)
        return text
    }

    /// The value as indented JSON text, two spaces a level, one member or element a line; empty
    /// arrays and objects stay `[]` and `{}`.
    public var prettyText: String {
        var text = ""
        writePretty(indent: 0, to: &text)
        return text
    }

    private func writePretty(indent: Int, to text: inout String) {
        let inner = String(repeating: "  ", count: indent + 1)
        switch self {
        case .array(let elements) where !elements.isEmpty:
            text += "[\n"
            for (index, element) in elements.enumerated() {
                text += inner
                element.writePretty(indent: indent + 1, to: &text)
                text += index == elements.count - 1 ? "\n" : ",\n"
            }
            text += String(repeating: "  ", count: indent) + "]"
        case .object(let members) where !members.isEmpty:
            text += "{\n"
            for (index, member) in members.enumerated() {
                text += inner + Self.quoted(member.key) + ": "
                member.value.writePretty(indent: indent + 1, to: &text)
                text += index == members.count - 1 ? "\n" : ",\n"
            }
            text += String(repeating: "  ", count: indent) + "}"
        default:
            write(to: &text)
        }
    }

    private func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let literal): text += literal
        case .string(let value): text += Self.quoted(value)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                element.write(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { text += "," }
                text += Self.quoted(member.key)
                text += ":"
                member.value.write(to: &text)
            }
            text += "}"
        }
    }

    /// `text` as a JSON string literal, quotes included.
    public static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case "\u{08}": quoted += "\\b"
            case "\u{0C}": quoted += "\\f"
            // DEL and C1 controls too: valid JSON either way, and an echo line or pretty body
            // written to a terminal cannot carry a control sequence.
            case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}":
                let hex = String(scalar.value, radix: 16, uppercase: false)
                quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
