/// A JSON value that keeps what was sent: object members in their order and numbers as their
/// literal text, so `1.50` and `1e3` print back exactly as received. A name repeated in an object
/// is read once, as jq, Python and JavaScript read it: the last value, in the first one's place.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its literal text.
    case number(String)
    /// A string, escapes decoded.
    case string(String)
    /// An array, elements in order.
    case array([JSONValue])
    /// An object, members in the order they were written.
    case object([JSONMember])

    /// Parses one JSON text (RFC 8259), allowing surrounding whitespace and a leading UTF-8 byte order mark.
    /// The error says where parsing stopped, as line, column and byte offset.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(Array(bytes))
        return try parser.parseDocument()
    }

    /// How deep lists and objects may nest in a text `parse` reads.
    public static let maximumDepth = JSONParser.maximumDepth

    /// Parses one JSON text keeping every member of a repeated name, as sent: for redaction,
    /// which must see each value a request sends under a credential's name.
    public static func parseKeepingDuplicates(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(Array(bytes), keepingDuplicates: true)
        return try parser.parseDocument()
    }

    /// Parses JSON text given as a string.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// The number's value as a `Double`; `nil` for anything but a number.
    public var double: Double? {
        if case .number(let literal) = self { Double(literal) } else { nil }
    }

    /// The text of a string; `nil` for anything else.
    public var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The value of `true` or `false`; `nil` for anything else.
    public var bool: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// A whole number's value as an `Int`; `nil` for anything else, or one out of `Int`'s range.
    public var int: Int? {
        if case .number(let literal) = self { Int(literal) } else { nil }
    }

    /// The value of an object's member named `key` (the last one, if the key repeats, as JavaScript and jq read it),
    /// matched by Unicode scalars as JSON compares names (a decomposed `é` is not the composed one);
    /// `nil` when there is none or this is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }?.value
    }

    /// The element of an array at `index`, counting from the end when negative (`-1` is the last);
    /// `nil` when out of range or this is not an array.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self else { return nil }
        let position = index < 0 ? elements.count + index : index
        return elements.indices.contains(position) ? elements[position] : nil
    }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Equatable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: JSONValue

    /// Makes a member.
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}
