import Targets
import Testing
@testable import Checks

/// Typed literals, typed equality and order, and the type predicates, as LANGUAGE.md gives them.
@Suite struct TypedValuesTests {
    private static func json(_ text: String) -> JSONValue {
        (try? JSONValue.parse(text)) ?? .string("unparsable: \(text)")
    }

    @Test(arguments: [
        ("3", false, "3"), ("-3.5", false, "-3.5"), ("1e3", false, "1e3"), ("true", false, "true"), ("null", false, "null"),
        ("Suwon", false, "\"Suwon\""), ("3", true, "\"3\""), ("true", true, "\"true\""), ("", false, "\"\""), ("0x1F", false, "\"0x1F\""),
    ])
    func literalsAreTypedByHowTheyAreWritten(text: String, quoted: Bool, expected: String) {
        #expect(TypedValues.literal(text, quoted: quoted) == Self.json(expected))
    }

    @Test(arguments: [
        ("9007199254740993", "9007199254740993", true), ("9007199254740993", "9007199254740992", false),
        ("1.0", "1", true), ("\"3\"", "3", false), ("3", "\"3\"", false), ("[1,2]", "\"[1, 2]\"", true),
        ("{\"a\":1}", "\"{\\\"a\\\": 1}\"", true), ("null", "null", true), ("false", "\"false\"", false),
    ])
    func equalityIsTyped(actual: String, expected: String, equal: Bool) {
        #expect(TypedValues.equal(Self.json(actual), Self.json(expected)) == equal, "\(actual) == \(expected)")
    }

    @Test(arguments: [
        ("1", "2", -1), ("2.50", "2.5", 0), ("-1e3", "-999", -1), ("\"b\"", "\"a\"", 1), ("\"Z\"", "\"a\"", -1),
        ("\"é\"", "\"z\"", 1), ("\"ab\"", "\"abc\"", -1),
    ])
    func orderIsExactForNumbersAndByScalarsForStrings(left: String, right: String, order: Int) {
        #expect(TypedValues.order(Self.json(left), Self.json(right)) == order, "\(left) vs \(right)")
    }

    @Test(arguments: [("1", "\"1\""), ("true", "false"), ("[1]", "[1]"), ("null", "0")])
    func otherPairsDoNotOrder(left: String, right: String) {
        #expect(TypedValues.order(Self.json(left), Self.json(right)) == nil)
    }

    @Test(arguments: [
        ("3", TypedValues.Predicate.isInteger, true), ("3.0", .isInteger, false), ("3.0", .isFloat, true), ("1e2", .isFloat, true),
        ("\"3\"", .isNumber, false), ("\"\"", .isEmpty, true), ("[]", .isEmpty, true), ("{}", .isEmpty, true), ("0", .isEmpty, false),
        ("\"2026-11-25\"", .isDate, true), ("\"2026-11-25T08:00:00+09:00\"", .isIsoDate, true), ("\"25/11/2026\"", .isDate, false),
        // Foundation's parser took a date at the start and ignored the rest.
        ("\"2026-11-25garbage\"", .isDate, false), ("\"2026-11-25X08:00:00Z\"", .isIsoDate, false),
        ("\"2026-11-25T08:00:00Zjunk\"", .isIsoDate, false), ("\"2026-11-25T08:00\"", .isDate, true),
        ("\"2026-11-25T08:00:00.123-0500\"", .isIsoDate, true), ("\"2026-11-25T08:00:00.\"", .isIsoDate, false),
        ("null", .isNull, true), ("[1]", .isList, true), ("{\"a\":1}", .isObject, true), ("true", .isBool, true),
        // Hurl's isCollection and isUuid.
        ("[]", .isCollection, true), ("{}", .isCollection, true), ("\"[]\"", .isCollection, false),
        ("\"3F2B8A9E-1c4d-4e5f-9a7b-0c1d2e3f4a5b\"", .isUuid, true), ("\"3f2b8a9e1c4d4e5f9a7b0c1d2e3f4a5b\"", .isUuid, false),
        ("\"3f2b8a9e-1c4d-4e5f-9a7b-0c1d2e3f4a5g\"", .isUuid, false),
    ])
    func predicatesTellTypes(value: String, predicate: TypedValues.Predicate, holds: Bool) {
        #expect(TypedValues.has(Self.json(value), predicate) == holds, "\(value) \(predicate)")
    }

    @Test func containsLooksForATypedElementAKeyOrText() {
        #expect(TypedValues.contains(Self.json("[1,2]"), "2", typed: .number("2")))
        #expect(!TypedValues.contains(Self.json("[1,2]"), "2", typed: .string("2")))
        #expect(TypedValues.contains(Self.json("{\"id\":1}"), "id", typed: .string("id")))
        #expect(TypedValues.contains(.string("application/json"), "json", typed: .string("json")))
        // Every text contains "", as it starts and ends with it.
        #expect(TypedValues.contains(.string("abc"), "", typed: .string("")))
        #expect(TypedValues.contains(.string(""), "", typed: .string("")))
    }
}
