import Targets

/// One way a JSON value differs from its schema: where (a JSON pointer into the value), what
/// the schema expected, and what the value is.
public struct SchemaViolation: Sendable, Equatable, CustomStringConvertible {
    /// The place in the checked value (`/items/0/id`); empty for the value itself.
    public var pointer: String
    /// What the schema asks, in words: `integer`, `a property "id"`, `one of "a", "b"`.
    public var expected: String
    /// What is there: `"7" (string)`, `nothing`.
    public var actual: String

    public init(pointer: String, expected: String, actual: String) {
        self.pointer = pointer
        self.expected = expected
        self.actual = actual
    }

    /// `/items/0/id: expected integer, actual "7" (string)`; the value itself is `(root)`.
    public var description: String {
        "\(pointer.isEmpty ? "(root)" : pointer): expected \(expected), actual \(actual)"
    }

    /// A value as a violation shows it: compact JSON with its members named like credentials as
    /// `***`, cut at 80 characters, with its JSON type. A cut never falls inside a string: the
    /// string goes whole, so that no part of a secret is shown that masking by its whole value,
    /// later, could not find. A long string alone is shown by its length.
    static func show(_ value: JSONValue) -> String {
        let text = maskingCredentials(value).compactText
        let type = JSONSchemaValidator.typeName(value)
        guard text.count > 80 else { return "\(text) (\(type))" }
        let cut = String(text[..<cutBeforeString(text, at: 79)])
        return cut.isEmpty ? "… (\(type) of \(text.count - 2) characters)" : "\(cut)… (\(type))"
    }

    /// Where to cut `text`, compact JSON, at `limit` characters or before the string open there.
    private static func cutBeforeString(_ text: String, at limit: Int) -> String.Index {
        var inString = false, escaped = false
        var stringStart = text.startIndex
        var index = text.startIndex
        for _ in 0..<limit {
            let character = text[index]
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
                stringStart = index
            }
            index = text.index(after: index)
        }
        return inString ? stringStart : index
    }

    /// `value` with the value of each member named like a credential (`password`, `access_token`) `***`.
    private static func maskingCredentials(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            let redaction = Redaction()
            return .object(members.map { member in
                JSONMember(key: member.key, value: redaction.isSensitiveName(member.key) ? .string(Redaction.placeholder) : maskingCredentials(member.value))
            })
        case .array(let items):
            return .array(items.map(maskingCredentials))
        default:
            return value
        }
    }
}
