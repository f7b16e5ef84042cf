import Targets

/// Values as LANGUAGE.md types and compares them ("Values and types", "Expectations"): typed
/// literals, exact numbers, strings ordered by Unicode scalars, and the type predicates.
public enum TypedValues {
    /// The type predicates of `expect`.
    public enum Predicate: String, Sendable, CaseIterable {
        case isString, isNumber, isInteger, isFloat, isBool, isNull, isList, isObject, isEmpty, isDate, isIsoDate
        /// Hurl's: a list or an object; a UUID in its 8-4-4-4-12 hex form (any version, either case).
        case isCollection, isUuid
    }

    /// A value's type as LANGUAGE.md names them: string, number, bool, null, list, object.
    public static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .string: "string"
        case .number: "number"
        case .bool: "bool"
        case .null: "null"
        case .array: "list"
        case .object: "object"
        }
    }

    /// The type predicates: `isInteger` is a number written without a fraction or exponent
    /// (`3`, not `3.0`, as Hurl reads them); `isDate` and `isIsoDate` a string in ISO 8601
    /// (`2026-11-25`, `2026-11-25T08:00:00Z`, with fractions or an offset).
    public static func has(_ value: JSONValue, _ predicate: Predicate) -> Bool {
        switch (predicate, value) {
        case (.isString, .string), (.isNumber, .number), (.isBool, .bool), (.isNull, .null), (.isList, .array), (.isObject, .object):
            return true
        case (.isInteger, .number(let literal)):
            return !literal.contains(where: { ".eE".contains($0) })
        case (.isFloat, .number(let literal)):
            return literal.contains(where: { ".eE".contains($0) })
        case (.isEmpty, .string(let text)): return text.isEmpty
        case (.isEmpty, .array(let elements)): return elements.isEmpty
        case (.isEmpty, .object(let members)): return members.isEmpty
        case (.isDate, .string(let text)), (.isIsoDate, .string(let text)):
            return ISODate.parse(text) != nil
        case (.isCollection, .array), (.isCollection, .object):
            return true
        case (.isUuid, .string(let text)):
            return isUUID(text)
        default:
            return false
        }
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, hex digits in either case.
    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20) else { return false }
            }
        }
        return true
    }

    /// Typed equality: a string never equals a number (`"3" != 3`), numbers compare exactly
    /// (``ExactNumber``: `9007199254740993` is not `9007199254740992`, `1.0 == 1`), strings by
    /// their Unicode scalars as JSON and jq compare them (`"\u{212A}"`, the Kelvin sign, is not
    /// `K`; a decomposed `é` is not the composed one), objects whatever their members' order; a
    /// list or object equals the JSON text written for it.
    public static func equal(_ value: JSONValue, _ expected: JSONValue) -> Bool {
        switch (value, expected) {
        case (.number(let left), .number(let right)):
            guard let left = ExactNumber(left), let right = ExactNumber(right) else { return left == right }
            return left == right
        case (.string(let left), .string(let right)):
            return ScalarText.equal(left, right)
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { equal($0, $1) }
        case (.object(let left), .object(let right)):
            // Each member matched in the other object, both ways: `{"k":1,"k":1}` is not `{"k":1,"z":2}`.
            func within(_ some: [JSONMember], _ other: [JSONMember]) -> Bool {
                some.allSatisfy { member in other.contains { ScalarText.equal($0.key, member.key) && equal(member.value, $0.value) } }
            }
            return left.count == right.count && within(left, right) && within(right, left)
        case (.array, .string(let text)), (.object, .string(let text)):
            return (try? JSONValue.parse(text)).map { equal(value, $0) } ?? false
        default:
            return value == expected
        }
    }

    /// How `value` orders against `expected`: numbers exactly; two ISO 8601 dates as the moments
    /// they name (as text, `05.500Z` would come before `05Z`); other strings by Unicode scalar
    /// values. Nil for any other pair, and for two strings that both read as numbers, whose text
    /// order is not their order (`"10000" < "5000"`): ``orderNote(_:_:)`` says what to write.
    public static func order(_ value: JSONValue, _ expected: JSONValue) -> Int? {
        switch (value, expected) {
        case (.number(let left), .number(let right)):
            guard let left = ExactNumber(left), let right = ExactNumber(right) else { return nil }
            return left < right ? -1 : left == right ? 0 : 1
        case (.string(let left), .string(let right)):
            if ExactNumber(left) != nil, ExactNumber(right) != nil { return nil }
            if let a = DateText.readISO(left), let b = DateText.readISO(right) {
                return (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds) ? -1 : a == b ? 0 : 1
            }
            let (a, b) = (Array(left.unicodeScalars), Array(right.unicodeScalars))
            return a.lexicographicallyPrecedes(b) ? -1 : a == b ? 0 : 1
        default:
            return nil
        }
    }

    /// What to write instead, when ``order(_:_:)`` cannot order a string that reads as a number
    /// (a header's value) against a number or another such string.
    public static func orderNote(_ value: JSONValue, _ expected: JSONValue) -> String? {
        switch (value, expected) {
        case (.string(let text), .number), (.string(let text), .string):
            guard ExactNumber(text) != nil else { return nil }
            if case .string(let other) = expected, ExactNumber(other) == nil { return nil }
            return "as text, \"10000\" comes before \"5000\": read the value as a number with '| toInt' or '| toFloat' (header Content-Length | toInt < 5000)"
        default:
            return nil
        }
    }

    /// A literal as LANGUAGE.md types it: quoted text is a string; a bare word is a number when it
    /// reads as one, `true`, `false` and `null` are themselves, a list or an object when it is
    /// one written in JSON (`[1,2]`, `{}`), anything else is a string.
    public static func literal(_ text: String, quoted: Bool) -> JSONValue {
        guard !quoted else { return .string(text) }
        if ExactNumber(text) != nil { return .number(text) }
        if text.hasPrefix("[") || text.hasPrefix("{"), let parsed = try? JSONValue.parse(text) { return parsed }
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default: return .string(text)
        }
    }

    /// A list contains an element equal to the value (typed); an object, a key; text, the text.
    /// A number, a boolean or null contains nothing: `contains` is not a test of their digits.
    public static func contains(_ value: JSONValue, _ expected: String, typed: JSONValue) -> Bool {
        switch value {
        case .array(let elements): elements.contains { equal($0, typed) }
        case .object(let members): members.contains { ScalarText.equal($0.key, expected) }
        case .string(let text): ScalarText.holds(text, expected)
        case .number, .bool, .null: false
        }
    }

    /// A value as an expectation failure shows it: strings quoted, so "" and " " can be told apart.
    public static func describe(_ value: JSONValue) -> String {
        if case .string(let text) = value { return JSONValue.quoted(text) }
        return value.compactText
    }
}
