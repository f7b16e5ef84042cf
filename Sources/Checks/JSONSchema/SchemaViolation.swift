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

    /// A value as a violation shows it: compact JSON, cut at 80 characters, with its JSON type.
    static func show(_ value: JSONValue) -> String {
        let text = value.compactText
        let cut = text.count > 80 ? String(text.prefix(79)) + "…" : text
        return "\(cut) (\(JSONSchemaValidator.typeName(value)))"
    }
}
