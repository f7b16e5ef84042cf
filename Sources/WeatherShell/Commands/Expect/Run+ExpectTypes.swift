import Checks
import Targets

/// Checks whose types do not fit the value, and lists of one value reached that a negated test
/// reads two ways: each a failure or an error that says what to write, never a silent choice.
extension Run {
    /// Why `op` cannot test `actual`, as Hurl's type mismatch: `startsWith`, `endsWith` and
    /// `matches` on a value that is no string; `contains` on a number, a boolean or null, or on a
    /// non-empty list none of whose elements has the expected value's type (`[1,2,3] contains
    /// "2"`); `isEmpty` on a number, a boolean or null. Nil when the types fit.
    static func typeMismatch(_ op: Expectation.Operator, _ actual: JSONValue, _ expected: JSONValue?) -> String? {
        let said = "the types do not fit, so it fails with 'not' or without: "
        switch (op, actual) {
        case (.startsWith, .string), (.endsWith, .string), (.matches, .string):
            return nil
        case (.startsWith, _), (.endsWith, _), (.matches, _):
            return said + "'\(op.rawValue)' tests a string, and the value is \(Self.withArticle(actual))"
        case (.contains, .number), (.contains, .bool), (.contains, .null):
            return said + "'contains' looks in a string, a list or an object, and the value is \(Self.withArticle(actual))"
        case (.contains, .array(let elements)):
            guard let expected, !elements.isEmpty,
                  !elements.contains(where: { TypedValues.typeName($0) == TypedValues.typeName(expected) }) else { return nil }
            let types = Set(elements.map(TypedValues.typeName)).sorted().joined(separator: " and ")
            return said + "the list holds \(types) values, and the value looked for is \(Self.withArticle(expected))"
        case (.isEmpty, .number), (.isEmpty, .bool), (.isEmpty, .null):
            return said + "'isEmpty' asks about a string, a list or an object, and the value is \(Self.withArticle(actual))"
        default:
            return nil
        }
    }

    /// `a number`, `an object`, `null`.
    static func withArticle(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .object: "an object"
        default: "a " + TypedValues.typeName(value)
        }
    }

    /// What to write instead of a check whose types do not fit `actual` (``typeMismatch(_:_:_:)``).
    func mismatchAdvice(_ expectation: Expectation, _ actual: JSONValue, expected: JSONValue?) -> String {
        let subject = mask(currentFile.text(expectation.subject.span.start..<expectation.subject.span.end)).shortened()
        let value = mask(expectation.expected.map { currentFile.text($0.span.start..<$0.span.end) } ?? "").shortened()
        let not = expectation.negated ? "not " : ""
        switch (expectation.op, actual) {
        case (.startsWith, .number), (.endsWith, .number), (.matches, .number), (.startsWith, .bool), (.endsWith, .bool), (.matches, .bool):
            var advice = "; to test its text write 'expect \(subject) | toString \(not)\(expectation.op.rawValue) \(value)'"
            if case .number = actual {
                let status: String? = if case .query(let query) = expectation.subject, query.source == .status, query.filters.isEmpty,
                                         expectation.op == .startsWith, let digit = Int(value.trimmingCharacters(in: ["\""])), (1...5).contains(digit) {
                    expectation.negated ? "expect status < \(digit)00" : "expect status >= \(digit)00"
                } else { nil }
                advice += status.map { ", or compare the number: '\($0)'" } ?? ", or compare the number ('<', '>=')"
            }
            return advice
        case (.startsWith, .array), (.endsWith, .array), (.matches, .array):
            return "; 'contains' looks for an element, '| first' or '| nth N' takes one"
        case (.contains, .number), (.contains, .bool):
            return "; to compare it write 'expect \(subject) \(expectation.negated ? "!=" : "==") \(value)'"
        case (.contains, .array(let elements)):
            if case .string(let text)? = expected, ExactNumber(text) != nil, elements.contains(where: { TypedValues.typeName($0) == "number" }) {
                return "; a number is written bare: 'expect \(subject) \(not)contains \(mask(text).shortened())'"
            }
            if expected.map(TypedValues.typeName) != "string", elements.contains(where: { TypedValues.typeName($0) == "string" }) {
                return "; text is written quoted: 'expect \(subject) \(not)contains \"\(value)\"'"
            }
            return ""
        case (.isEmpty, .null):
            return "; to check that it is there and not null: 'expect \(subject) not isNull'"
        case (.isEmpty, .number):
            return "; to compare it write 'expect \(subject) \(expectation.negated ? "!=" : "==") 0'"
        default:
            return ""
        }
    }

    /// The negated tests that read a list of one value reached and its value apart: `contains`,
    /// `isEmpty` and the type predicates (`==`, `<`, `startsWith` ... compare its value).
    static func readsListAndValueApart(_ op: Expectation.Operator) -> Bool {
        op == .contains || (op.isUnary && op != .exists)
    }

    /// The error for a negated test on a list of one value reached that holds on one of the list
    /// and its value and fails on the other: it names the form for each.
    func oneValueAmbiguity(_ expectation: Expectation, query: Query, list: JSONValue, value: JSONValue, holdsOnList: Bool) -> Error {
        let written = mask(currentFile.text(query.span.start..<query.span.end)).shortened()
        let expected = expectation.expected.map { mask(currentFile.text($0.span.start..<$0.span.end)).shortened() }
        let test = "not " + expectation.op.rawValue + (expected.map { " " + $0 } ?? "")
        let shown = mask(TypedValues.describe(maskedStrings(value))).shortened(80)
        let listForm = switch expectation.op {
        case .contains: "its one value is not \(expected ?? ""): 'expect \(written) | first != \(expected ?? "")'"
        case .isEmpty: "it holds a value: 'expect \(written) | length > 0'"
        default: "it is a list: 'expect \(written) isList', or count it: 'expect \(written) | length == 1'"
        }
        return failure("'\(test)' on a list of one value reached reads two ways: it \(holdsOnList ? "holds" : "fails") on the list "
                       + "and \(holdsOnList ? "fails" : "holds") on its value \(shown)",
                       at: expectation.span,
                       notes: ["for the value, write: 'expect \(written) | first \(test)'", "for the list, say what it means: " + listForm])
    }
}
