import Targets

/// A JSON tree as block-style YAML. A string is written plain only when every YAML reader takes
/// it back as the same string (so `"200"`, `"true"`, `"1.0"` and `"a: b"` are quoted, as JSON
/// strings, which YAML reads as double-quoted scalars).
enum YAMLWriter {
    static func text(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: 0, into: &out)
        return out
    }

    private static func write(_ value: JSONValue, indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent)
        switch value {
        case .object(let members) where !members.isEmpty:
            for member in members {
                out += pad + scalar(member.key) + ":"
                writeNested(member.value, indent: indent + 2, into: &out)
            }
        case .array(let elements) where !elements.isEmpty:
            for element in elements {
                out += pad + "-"
                switch element {
                case .object(let members) where !members.isEmpty:
                    // The first member on the dash's line, the rest below it.
                    var first = ""
                    write(element, indent: indent + 2, into: &first)
                    out += " " + first.dropFirst(indent + 2)
                    _ = members
                default:
                    writeNested(element, indent: indent + 2, into: &out)
                }
            }
        default:
            out += pad + inline(value) + "\n"
        }
    }

    /// After `key:` or `-`: a scalar or empty container on the same line, else a block below.
    private static func writeNested(_ value: JSONValue, indent: Int, into out: inout String) {
        switch value {
        case .object(let members) where !members.isEmpty:
            out += "\n"
            write(value, indent: indent, into: &out)
        case .array(let elements) where !elements.isEmpty:
            out += "\n"
            write(value, indent: indent, into: &out)
        default:
            out += " " + inline(value) + "\n"
        }
    }

    private static func inline(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let literal): literal
        case .string(let text): scalar(text)
        case .array: "[]"
        case .object: "{}"
        }
    }

    private static let reserved: Set<String> = ["true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"]

    static func scalar(_ text: String) -> String {
        let safe = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9") || "_./-".unicodeScalars.contains(scalar)
        }
        guard safe, let first = text.unicodeScalars.first, (first >= "a" && first <= "z") || (first >= "A" && first <= "Z") || first == "/" || first == "_",
              !reserved.contains(text.lowercased()) else { return JSONValue.quoted(text) }
        return text
    }
}
