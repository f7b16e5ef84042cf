import Targets

/// Pretty JSON for a terminal: two-space indents, members in the order the server sent,
/// and, when colour is on, jq-like colours.
struct JSONPrinter {
    var color: Bool

    private enum Style: String {
        case key = "\u{1B}[34;1m", string = "\u{1B}[32m", number = "\u{1B}[36m", literal = "\u{1B}[33m", null = "\u{1B}[90m"
        static let reset = "\u{1B}[0m"
    }

    func render(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: 0, to: &out)
        return out
    }

    private func styled(_ text: String, _ style: Style) -> String {
        color ? style.rawValue + text + Style.reset : text
    }

    private func write(_ value: JSONValue, indent: Int, to out: inout String) {
        switch value {
        case .null: out += styled("null", .null)
        case .bool(let flag): out += styled(flag ? "true" : "false", .literal)
        case .number(let literal): out += styled(literal, .number)
        case .string(let text): out += styled(JSONValue.quoted(text), .string)
        case .array(let elements):
            guard !elements.isEmpty else { out += "[]"; return }
            out += "[\n"
            for (index, element) in elements.enumerated() {
                out += String(repeating: "  ", count: indent + 1)
                write(element, indent: indent + 1, to: &out)
                out += index == elements.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{\n"
            for (index, member) in members.enumerated() {
                out += String(repeating: "  ", count: indent + 1) + styled(JSONValue.quoted(member.key), .key) + ": "
                write(member.value, indent: indent + 1, to: &out)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "}"
        }
    }
}
