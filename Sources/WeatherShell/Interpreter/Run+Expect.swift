import Checks
import Targets

extension Run {
    /// `expect`: a failed check prints the expression and the actual value, and is exit code 4.
    /// The reporter sees every `expect` once: passed, failed, or failed because it could not be
    /// evaluated (no response yet, a body that is not JSON, a bad pattern).
    func check(_ expectation: Expectation) throws {
        // Inside `until`, before its last round: a failed check is not a failure yet, and not reported.
        if expectationsAreProvisional {
            _ = try? outcome(of: expectation)
            return
        }
        do {
            try evaluate(expectation)
        } catch let diagnostic as Diagnostic where diagnostic.kind != .expectation {
            reportExpectation(expectation, passed: false)
            throw diagnostic
        }
    }

    private func reportExpectation(_ expectation: Expectation, passed: Bool) {
        let source = currentFile.text(expectation.span.start..<expectation.span.end)
        reporter?.report(.expect(ExpectationResult(source: source, file: currentFile,
                                                   span: expectation.span, passed: passed)))
    }

    /// Whether the expression holds, for `if` and `until`; an expression that cannot be evaluated
    /// (no response yet, a body that is not JSON) is an error.
    func holds(_ expectation: Expectation) throws -> Bool {
        try outcome(of: expectation).passed
    }

    private func evaluate(_ expectation: Expectation) throws {
        let (passed, actual, expected, missing) = try outcome(of: expectation)
        reportExpectation(expectation, passed: passed)
        guard !passed else { return }
        let source = currentFile.text(expectation.span.start..<expectation.span.end)
        func type(_ value: JSONValue) -> String {
            if case .string(let text) = value, isByteComparison(expectation), text.hasPrefix("hex:") { return "bytes: \((text.utf8.count - 4) / 2)" }
            return Self.typeName(value)
        }
        func shown(_ value: JSONValue) -> String {
            if isByteComparison(expectation), case .string(let text) = value { return text }
            return Self.describe(value)
        }
        // Masked before it is cut: a cut through a secret would leave its start unmatched and showing.
        let actualNote = actual.map { "actual:   " + mask(shown($0)).shortened(200) + " (\(type($0)))" }
            ?? "actual:   nothing (\(missing.isEmpty ? "no value" : missing))"
        var notes = [actualNote]
        if let expected {
            notes.insert("expected: " + mask(shown(expected)).shortened(200) + " (\(type(expected)))", at: 0)
        }
        throw failure("expectation failed: \(source)", at: expectation.span, notes: notes, kind: .expectation)
    }

    /// Whether `expectation` holds, with the actual value it looked at (or why there is none) and
    /// the expected one as typed.
    private func outcome(of expectation: Expectation)
        throws -> (passed: Bool, actual: JSONValue?, expected: JSONValue?, missing: String) {
        if isByteComparison(expectation) { return try byteOutcome(of: expectation) }
        var actual: JSONValue?
        var missing = ""
        switch expectation.subject {
        case .query(let query): (actual, missing) = try lookUp(query)
        case .word(let word): actual = try typedValue(of: word)
        default: actual = .string(try evaluate(expectation.subject).text)
        }
        let expectedValue = try expectation.expected.map { try typedValue(of: $0) }
        let expected = try expectation.expected.map { try expand($0).text }
        var passed: Bool
        switch expectation.op {
        case .exists:
            passed = actual != nil
        case .isString, .isNumber, .isInteger, .isFloat, .isBool, .isNull, .isList, .isObject, .isEmpty, .isDate, .isIsoDate:
            passed = actual.map { Self.hasType($0, expectation.op) } ?? false
        case .equal, .notEqual:
            passed = actual.map { Self.equal($0, expectedValue ?? .null) } ?? false
            if expectation.op == .notEqual { passed = actual != nil && !passed }
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let actual else { passed = false; break }
            guard let order = Self.order(actual, expectedValue ?? .null) else {
                if filteredElement != nil { passed = false; break }
                throw failure("'\(expectation.op.rawValue)' compares two numbers or two strings", at: expectation.span,
                              notes: ["actual: \(mask(Self.describe(actual)).shortened(200)) (\(Self.typeName(actual))), "
                                      + "expected: \(mask(expected ?? "").shortened(200)) (\(expectedValue.map(Self.typeName) ?? "nothing"))"])
            }
            passed = switch expectation.op {
            case .less: order < 0
            case .lessOrEqual: order <= 0
            case .greater: order > 0
            default: order >= 0
            }
        case .contains:
            passed = actual.map { Self.contains($0, expected ?? "", typed: expectedValue ?? .null) } ?? false
        case .startsWith:
            passed = actual.map { Self.text($0).hasPrefix(expected ?? "") } ?? false
        case .endsWith:
            passed = actual.map { Self.text($0).hasSuffix(expected ?? "") } ?? false
        case .matches:
            passed = try actual.map { try matches(Self.text($0), expected ?? "", expectation) } ?? false
        }
        if expectation.negated { passed.toggle() }
        return (passed, actual, expectedValue, missing)
    }

    /// `matches`: in time linear in the text (``LinearRegex``), stopped by Ctrl-C.
    private func matches(_ text: String, _ pattern: String, _ expectation: Expectation) throws -> Bool {
        let span = expectation.expected?.span ?? expectation.span
        let regex: LinearRegex
        do {
            regex = try LinearRegex(pattern)
        } catch {
            throw failure("'\(mask(pattern).shortened())' is not a valid regular expression: \(error.description)", at: span)
        }
        do {
            return try regex.matches(text, shouldStop: { Task.isCancelled })
        } catch .interrupted {
            throw CancellationError()
        } catch .tooCostly {
            throw failure("regular expression too costly for a text of \(text.unicodeScalars.count) characters", at: span,
                          notes: ["a match may visit at most \(LinearRegex.stepBudget) instructions of the pattern's program"])
        }
    }

    /// A value's type as LANGUAGE.md names them: string, number, bool, null, list, object.
    static func typeName(_ value: JSONValue) -> String {
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
    private static func hasType(_ value: JSONValue, _ predicate: Expectation.Operator) -> Bool {
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
        default:
            return false
        }
    }

    /// Typed equality: a string never equals a number (`"3" != 3`), numbers compare exactly
    /// (``ExactNumber``: `9007199254740993` is not `9007199254740992`, `1.0 == 1`); a list or object equals the JSON text written for it.
    private static func equal(_ value: JSONValue, _ expected: JSONValue) -> Bool {
        switch (value, expected) {
        case (.number(let left), .number(let right)):
            guard let left = ExactNumber(left), let right = ExactNumber(right) else { return left == right }
            return left == right
        case (.array, .string(let text)), (.object, .string(let text)):
            return value.compactText == text || ((try? JSONValue.parse(text))?.compactText == value.compactText)
        default:
            return value == expected
        }
    }

    /// How `value` orders against `expected`: numbers exactly, strings by Unicode scalar values;
    /// nil for any other pair.
    private static func order(_ value: JSONValue, _ expected: JSONValue) -> Int? {
        switch (value, expected) {
        case (.number(let left), .number(let right)):
            guard let left = ExactNumber(left), let right = ExactNumber(right) else { return nil }
            return left < right ? -1 : left == right ? 0 : 1
        case (.string(let left), .string(let right)):
            let (a, b) = (Array(left.unicodeScalars), Array(right.unicodeScalars))
            return a.lexicographicallyPrecedes(b) ? -1 : a == b ? 0 : 1
        default:
            return nil
        }
    }

    /// A literal as LANGUAGE.md types it: quoted text is a string; a bare word is a number when it
    /// reads as one, `true`, `false` and `null` are themselves, anything else is a string.
    nonisolated static func typedLiteral(_ text: String, quoted: Bool) -> JSONValue {
        guard !quoted else { return .string(text) }
        if ExactNumber(text) != nil { return .number(text) }
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default: return .string(text)
        }
    }

    /// A list contains an element equal to the value (typed); an object, a key; text, the text.
    private static func contains(_ value: JSONValue, _ expected: String, typed: JSONValue) -> Bool {
        switch value {
        case .array(let elements): elements.contains { equal($0, typed) }
        case .object(let members): members.contains { $0.key == expected }
        default: text(value).contains(expected)
        }
    }

    /// A value as an expectation failure shows it: strings quoted, so "" and " " can be told apart.
    private static func describe(_ value: JSONValue) -> String {
        if case .string(let text) = value { return JSONValue.quoted(text) }
        return value.compactText
    }
}
