import Checks
import Targets

/// An `expect` run in an `until` round that may not be the last, in its file, and why it failed,
/// if it did; or (not `isCheck`) an inner `until` that ran out of rounds in such a round.
struct CheckedExpectation {
    var expectation: Expectation
    var file: SourceFile
    var failure: Error?
    var isCheck = true
}

extension Run {
    /// `expect`: a failed check prints the expression and the actual value, and is exit code 4.
    /// The reporter sees every `expect` once: passed, failed, or failed because it could not be
    /// evaluated (no response yet, a body that is not JSON, a bad pattern).
    ///
    /// Inside an `until` round that may not be the last, the outcome is kept instead
    /// (``provisionalChecks``): ``settle(_:)`` reports it if the round turns out to be the last.
    func check(_ expectation: Expectation) throws {
        let failure: Error?
        do {
            try evaluate(expectation)
            failure = nil
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            failure = error
        }
        if provisionalChecks != nil {
            provisionalChecks?.append(CheckedExpectation(expectation: expectation, file: currentFile, failure: failure))
        } else {
            reportExpectation(expectation, in: currentFile, passed: failure == nil)
            if let failure { throw failure }
        }
    }

    /// The checks of an `until` round that was the last after all: reported (or kept for an
    /// enclosing `until`) as if they had run as final, the first failure stopping a run that bails.
    func settle(_ checks: [CheckedExpectation]) throws(Halt) {
        for checked in checks {
            if provisionalChecks != nil {
                provisionalChecks?.append(checked)
                continue
            }
            if checked.isCheck { reportExpectation(checked.expectation, in: checked.file, passed: checked.failure == nil) }
            switch checked.failure {
            case nil: break
            case let diagnostic as Diagnostic: try report(diagnostic)
            case let other?: try report(Diagnostic(.runtime, "\(other)", file: checked.file, span: checked.expectation.span))
            }
        }
    }

    private func reportExpectation(_ expectation: Expectation, in file: SourceFile, passed: Bool) {
        let source = file.text(expectation.span.start..<expectation.span.end)
        reporter?.report(.expect(ExpectationResult(source: source, file: file,
                                                   span: expectation.span, passed: passed)))
    }

    /// Whether the expression holds, for `if` and `until`; an expression that cannot be evaluated
    /// (no response yet, a body that is not JSON) is an error. In a `[? EXPR]`, `element` is the
    /// element EXPR decides on.
    func holds(_ expectation: Expectation, element: JSONValue? = nil) throws -> Bool {
        try outcome(of: expectation, element: element).passed
    }

    /// Throws the failure of `expectation`, if it fails; reports nothing.
    private func evaluate(_ expectation: Expectation) throws {
        let (passed, actual, expected, missing) = try outcome(of: expectation, asserting: true)
        guard !passed else { return }
        let source = currentFile.text(expectation.span.start..<expectation.span.end)
        func type(_ value: JSONValue) -> String {
            if case .string(let text) = value, isByteComparison(expectation), text.hasPrefix("hex:") {
                return "bytes: \(text.dropFirst(4).prefix { $0 != " " }.count / 2)"
            }
            if case .string(Redaction.placeholder) = value, isByteComparison(expectation) { return "bytes" }
            return TypedValues.typeName(value)
        }
        func shown(_ value: JSONValue) -> String {
            if isByteComparison(expectation), case .string(let text) = value { return text }
            return TypedValues.describe(maskedStrings(value))
        }
        // Masked before it is cut: a cut through a secret would leave its start unmatched and showing.
        var actualText = actual.map { mask(shown($0)).shortened(200) }
        var expectedText = expected.map { mask(shown($0)).shortened(200) }
        var differenceNote: String?
        // Two long values cut at their start may show the same: then both show around where they first differ.
        if let actual, let expected,
           let cut = Self.aroundFirstDifference(mask(shown(expected)), mask(shown(actual)), hexAfter: isByteComparison(expectation) ? 4 : nil) {
            (expectedText, actualText) = (cut.expected, cut.actual)
            if isByteComparison(expectation) {
                differenceNote = "they first differ at byte \((cut.offset - 4) / 2 + 1)"
            } else if case .string(let a) = actual, case .string(let e) = expected {
                let (e, a, offset) = Self.firstDifference(mask(e), mask(a))
                differenceNote = "they first differ at character \(offset + 1) (of \(e.count) expected, \(a.count) actual)"
            } else {
                differenceNote = "their texts first differ at character \(cut.offset + 1)"
            }
        }
        // Two strings that show the same (a composed `é` and `e` with a combining accent, a no-break space and a space) say where they differ.
        if differenceNote == nil, case .string(let a)? = actual, case .string(let e)? = expected, let shownA = actualText, let shownE = expectedText,
           Self.showAlike(shownA, shownE), !a.unicodeScalars.elementsEqual(e.unicodeScalars) {
            let (e, a, offset) = Self.firstDifference(mask(e), mask(a))
            func codes(_ scalars: [Unicode.Scalar]) -> String {
                scalars[min(offset, scalars.count)..<min(scalars.count, offset + 2)].map { scalar in
                    let digits = String(scalar.value, radix: 16, uppercase: true)
                    return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
                }.joined(separator: " ")
            }
            differenceNote = "they show alike but differ at character \(offset + 1): expected \(codes(e)), actual \(codes(a)) "
                + "(strings compare by Unicode scalars)"
        }
        let actualNote = actual.map { "actual:   " + (actualText ?? "") + " (\(type($0)))" }
            ?? "actual:   not found (\(missing.isEmpty ? "no value" : missing))"
        var notes = [actualNote]
        if let expected {
            notes.insert("expected: " + Self.expectedWording(expectation) + (expectedText ?? "") + " (\(type(expected)))", at: 0)
        }
        if let differenceNote { notes.append(differenceNote) }
        if let actual, !isByteComparison(expectation), let takes = Self.typeMismatch(expectation.op, actual) {
            notes.append(Self.typeMismatchNote(expectation.op, takes, actual) + ": it fails with 'not' as without it")
        }
        // Numbers compare exactly, digit by digit; Hurl compares them as doubles.
        if case .number(let a)? = actual, case .number(let b)? = expected, !TypedValues.equal(.number(a), .number(b)),
           let x = Double(a), x.isFinite, x == Double(b) {
            notes.append("numbers compare exactly; these two are the same double: '| toFloat' compares as doubles, as Hurl does")
        }
        throw failure("expectation failed: \(source)", at: expectation.span, notes: notes, kind: .expectation)
    }

    /// What the expected value is to the actual one, before it in a failure's note, as Hurl says
    /// it: `expected: not 42`, `expected: greater than 100` (`expected: 42` alone read as a match).
    static func expectedWording(_ expectation: Expectation) -> String {
        let wording: [Expectation.Operator: String] = [
            .notEqual: "not ", .less: "less than ", .lessOrEqual: "less than or equal to ", .greater: "greater than ",
            .greaterOrEqual: "greater than or equal to ", .contains: "containing ", .includes: "including ", .startsWith: "starting with ",
            .endsWith: "ending with ", .matches: "matching ",
        ]
        let text = wording[expectation.op] ?? ""
        guard expectation.negated else { return text }
        return expectation.op == .notEqual ? "" : "not " + text
    }

    /// Whether two texts look the same printed: canonically equivalent (a composed `é` and `e`
    /// with a combining accent), or so once each space character (U+00A0 no-break space, U+2009
    /// thin space ...) is a space and each invisible format character (U+200B zero width space,
    /// U+00AD soft hyphen, U+200D, U+FEFF ...) is left out.
    static func showAlike(_ left: String, _ right: String) -> Bool {
        func spaced(_ text: String) -> String {
            var view = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                switch scalar.properties.generalCategory {
                case .spaceSeparator: view.append(" ")
                case .format: continue
                default: view.append(scalar)
                }
            }
            return String(view)
        }
        return left == right || spaced(left) == spaced(right)
    }

    /// The Unicode scalars of two texts and how many of them they share at the start.
    nonisolated static func firstDifference(_ expected: String, _ actual: String) -> (expected: [Unicode.Scalar], actual: [Unicode.Scalar], offset: Int) {
        let (e, a) = (Array(expected.unicodeScalars), Array(actual.unicodeScalars))
        return (e, a, zip(e, a).prefix { $0 == $1 }.count)
    }

    /// Two texts shown in a failure, when one is too long to show whole and they first differ past
    /// what a cut at the start shows: each cut to 200 characters around that place (`…aaaXbbb…`), and
    /// the offset in Unicode scalars where they differ; nil when a cut at the start shows it. Hex
    /// after a prefix of `hexAfter` characters is cut on a byte.
    nonisolated static func aroundFirstDifference(_ expected: String, _ actual: String, limit: Int = 200, hexAfter prefix: Int? = nil)
        -> (expected: String, actual: String, offset: Int)? {
        let (e, a, offset) = firstDifference(expected, actual)
        guard e.count > limit || a.count > limit, offset > limit - 60 else { return nil }
        func window(_ scalars: [Unicode.Scalar]) -> String {
            var start = min(offset - 60, max(0, scalars.count - limit))
            // Hex after its prefix (`hex:`) is read in pairs: a window starts on a byte.
            if let prefix, start > prefix, (start - prefix) % 2 == 1 { start -= 1 }
            let end = min(scalars.count, start + limit)
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[start..<end])
            return (start > 0 ? "…" : "") + String(view) + (end < scalars.count ? "…" : "")
        }
        return (window(e), window(a), offset)
    }

    /// Whether `expectation` holds, with the actual value it looked at (or why there is none) and
    /// the expected one as typed. An `expect` (`asserting`) about a value that is not there fails,
    /// `not` or no `not`, unless it asks whether the value exists; in a condition (`if`, `until`,
    /// `[? ]`) a comparison with nothing is false, as in JSONPath, and `not` makes it true.
    private func outcome(of expectation: Expectation, asserting: Bool = false, element: JSONValue? = nil)
        throws -> (passed: Bool, actual: JSONValue?, expected: JSONValue?, missing: String) {
        if isByteComparison(expectation) { return try byteOutcome(of: expectation) }
        var actual: JSONValue?
        var missing = ""
        switch expectation.subject {
        case .query(let query):
            (actual, missing) = try lookUp(query, element: element, unmasked: true, asksWhetherItExists: expectation.op == .exists)
        // `expect $x exists` asks whether x is set: an undefined x is a value that is not there.
        case .word(let word) where expectation.op == .exists && word.loneVariable.map { variable(named: $0) == nil } == true:
            missing = "no variable '\(word.loneVariable ?? "")' is set"
        case .word(let word): actual = try typedValue(of: word)
        default:
            // `env NAME` is a secret: masked wherever a failure shows it, as after `let k = env NAME`.
            let evaluated = try evaluate(expectation.subject)
            if evaluated.isSecret { session.mask.add(evaluated.text) }
            actual = .string(evaluated.text)
        }
        let expectedPair = try expectation.expected.map { try comparedValue(of: $0) }
        var expectedValue = expectedPair?.value
        let expected = expectedPair?.text
        // After `| toFloat` the value is a double, and a number it is compared with is read as one
        // too: `.big | toFloat == 12345678901234567891` holds as it does in Hurl.
        if case .query(let query) = expectation.subject, query.filters.last == .toFloat, case .number(let literal)? = expectedValue,
           let double = Double(literal), double.isFinite {
            expectedValue = .number("\(double)")
        }
        // `==` and `!=` against the JSON text of a list or object (`== '["Bob"]'`, `== '{}'`) compare
        // with that list or object, which no string equals (a double-encoded `"{\"a\":1}"` is not
        // `{"a":1}`); text the answer gives as text (`body`, `header NAME`, `| toString`) is compared
        // with the text.
        let comparesAsList = (expectation.op == .equal || expectation.op == .notEqual) && expected != nil
        let quotedJSON = comparesAsList && expectation.expected?.isQuoted == true ? expected.flatMap { try? JSONValue.parse($0) } : nil
        if let quotedJSON, quotedJSON.isObjectOrArray, Self.givesJSONValue(expectation.subject) { expectedValue = quotedJSON }
        // A node list of one compares as its node, as Hurl compares a JSONPath that found one
        // (`$.users[?@.id==1].name == "Bob"`); `==` and `!=` against a list (`== ["Bob"]`, or its
        // JSON text `== '["Bob"]'`) compare it as a list.
        let comparesWithAList: Bool = {
            guard comparesAsList else { return false }
            if case .array? = quotedJSON { return true }
            if case .array? = expectedValue { return true }
            return false
        }()
        // `isEmpty`, `isList` and `isCollection` test the one value a `[? ]` picked and a key read
        // (`.users[? .id == 1].tags`); of a list a `[? ]` or `[*]` made (`.codes[? . == ""]`,
        // `.items[*].id`, `.users[*]`) they ask about the list, as 0.4.9 did. So does `isEmpty` when
        // that one value is a number, true/false or null, which are neither empty nor not:
        // `.users[? .role == "admin"].id not isEmpty` holds, whatever the count of admins.
        var isOneNode = false
        if case .query(let query) = expectation.subject, query.yieldsNodeList, case .array(let nodes)? = actual, nodes.count == 1,
           Self.comparesOneNode.contains(expectation.op)
            || (Self.testsThePickedValue.contains(expectation.op) && query.picksByFilter && query.endsOnAKeyOrIndex
                && (expectation.op != .isEmpty || Self.isTextOrCollection(nodes[0]))),
           !comparesWithAList {
            actual = nodes[0]
            isOneNode = true
        }
        // A list of two or more values is never a string (or a number ...): `isString` would fail and
        // `not isString` hold whatever the answer.
        if element == nil, expectation.op.isUnary, Self.comparesOneNode.contains(expectation.op),
           case .query(let query) = expectation.subject, query.yieldsNodeList, case .array(let nodes)? = actual, nodes.count > 1 {
            let test = (expectation.negated ? "not " : "") + expectation.op.rawValue
            let written = currentFile.text(query.span.start..<query.span.end).shortened()
            let each = "[? . \(expectation.negated ? "" : "not ")\(expectation.op.rawValue)] isEmpty"
            let note: String = if case .jsonPath = query.source {
                "to check each of them, keep those that are\(expectation.negated ? "" : " not") with a filter and check 'isEmpty'"
            } else {
                "to check each of them: \(written)\(each)"
            }
            throw failure("'\(test)' tests one value, and the query reached a list of \(nodes.count)", at: expectation.span, notes: [note])
        }
        // `contains` on the one value a `[? ]` picked (`.users[? .id == 1].name contains Bo`) asks two
        // things: whether `Bo` is in that text (or list), as Hurl reads it, or is the value
        // picked. Where they differ, either answer could pass a wrong check: an error says how to ask
        // each. After `[*]` it asks about the list, as `not contains` is the way to check each value.
        if element == nil, expectation.op == .contains, case .query(let query) = expectation.subject, query.picksByFilter,
           case .array(let nodes)? = actual, nodes.count == 1, Self.isTextOrList(nodes[0]),
           TypedValues.contains(.array(nodes), expected ?? "", typed: expectedValue ?? .null)
            != TypedValues.contains(nodes[0], expected ?? "", typed: expectedValue ?? .null) {
            let written = currentFile.text(query.span.start..<query.span.end).shortened()
            let value = expectation.expected.map { currentFile.text($0.span.start..<$0.span.end) }.map(mask)?.shortened() ?? "null"
            let not = expectation.negated ? "not " : ""
            throw failure("'contains' on the one value a '[? ]' picked asks two things, and here they differ: "
                          + "whether \(value) is in it, or is it",
                          at: expectation.span,
                          notes: ["to look in the value: \(written) | first \(not)contains \(value)",
                                  "to ask whether it is the value: \(written) \(not)includes \(value)"])
        }
        // An empty node list reached nothing (`..nope`, `.items[*].typo`, `headers X-Missing`), as in
        // Hurl: no check holds on it, `!=` and `not` included, but those that ask about its emptiness
        // on purpose (`isEmpty`, `== []`, `!= []`).
        let comparesWithEmptyList = comparesAsList && (quotedJSON == .array([]) || expectedValue == .array([]))
        if case .query(let query) = expectation.subject, query.yieldsNodeList, !isOneNode, actual == .array([]), !comparesWithEmptyList,
           expectation.op != .isEmpty {
            (actual, missing) = (nil, "the query reached no value: its list is empty" + (missing.isEmpty ? "" : ", \(missing)"))
        }
        var passed: Bool
        switch expectation.op {
        case .exists:
            passed = actual != nil
        case .isString, .isNumber, .isInteger, .isFloat, .isBool, .isNull, .isList, .isObject, .isEmpty, .isDate, .isIsoDate,
             .isCollection, .isUuid:
            passed = actual.map { value in TypedValues.Predicate(rawValue: expectation.op.rawValue).map { TypedValues.has(value, $0) } ?? false } ?? false
        case .equal, .notEqual:
            // A list of two or more values reached is never one value, so `!=` one (or `not ==`)
            // would hold whatever the answer: an error, as `<` is, but in a `[? ]`.
            if element == nil, (expectation.op == .notEqual) != expectation.negated, !comparesWithAList,
               case .query(let query) = expectation.subject, query.yieldsNodeList, case .array(let nodes)? = actual, nodes.count > 1 {
                let written = currentFile.text(query.span.start..<query.span.end)
                let value = mask(expectation.expected.map { currentFile.text($0.span.start..<$0.span.end) } ?? "null")
                throw failure("'\(expectation.negated ? "not ==" : "!=")' a value always holds on a list of \(nodes.count) values reached",
                              at: expectation.span,
                              notes: ["to check that none of them is \(value.shortened()): expect \(written.shortened()) not contains \(value.shortened()),"
                                      + " or keep those that are with '[? ]' and check 'isEmpty'"])
            }
            passed = actual.map { TypedValues.equal($0, expectedValue ?? .null) } ?? false
            // In a `[? ]` filter, nothing is unequal to anything, as in JSONPath (`[? .st != "ok"]` keeps
            // an element without `st`); in `if` and `until` and `expect`, a value that is not there is unequal to nothing.
            if expectation.op == .notEqual { passed = element != nil ? !passed : actual != nil && !passed }
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let actual else { passed = false; break }
            guard let order = TypedValues.order(actual, expectedValue ?? .null) else {
                if element != nil { passed = false; break }
                let note = TypedValues.orderNote(actual, expectedValue ?? .null)
                throw failure("'\(expectation.op.rawValue)' compares two numbers, two dates or two strings" + (note == nil ? "" : " that are not numbers"),
                              at: expectation.span,
                              notes: ["actual: \(mask(TypedValues.describe(maskedStrings(actual))).shortened(200)) (\(TypedValues.typeName(actual))), "
                                      + "expected: \(mask(expectedValue.map { TypedValues.describe(maskedStrings($0)) } ?? "").shortened(200)) "
                                      + "(\(expectedValue.map(TypedValues.typeName) ?? "nothing"))"]
                                  + (note.map { [$0] } ?? []))
            }
            passed = switch expectation.op {
            case .less: order < 0
            case .lessOrEqual: order <= 0
            case .greater: order > 0
            default: order >= 0
            }
        case .contains:
            passed = actual.map { TypedValues.contains($0, expected ?? "", typed: expectedValue ?? .null) } ?? false
        case .includes:
            if case .array(let elements)? = actual { passed = elements.contains { TypedValues.equal($0, expectedValue ?? .null) } } else { passed = false }
        // Tests of text hold only on text: `null`, `123` and `false` are not text that starts with `nu`, `12` or `f`.
        case .startsWith:
            passed = actual?.string.map { ScalarText.starts($0, with: expected ?? "") } ?? false
        case .endsWith:
            passed = actual?.string.map { ScalarText.ends($0, with: expected ?? "") } ?? false
        case .matches:
            passed = try matches(actual?.string, expected ?? "", expectation)
        }
        if expectation.negated { passed.toggle() }
        if asserting, actual == nil, expectation.op != .exists { passed = false }
        // In `expect`, a test of a type the value is not fails, `not` or no `not`. In `if`, `until`
        // and `[? ]` it is false and `not` makes it true, as JSONPath's `!` does: a condition asks
        // of a field that may be `0`, `false` or text whether it is the text looked for.
        if asserting, let found = actual, Self.typeMismatch(expectation.op, found) != nil { passed = false }
        // Compared as they are, shown as everything shows them: URLs and cookies named like secrets masked.
        if case .query(let query) = expectation.subject, query.readsMaskedValues, let found = actual {
            actual = try shownMasked(found, of: query, element: element)
        }
        return (passed, actual, expectedValue, missing)
    }

    /// `value` with each string and key masked, before it is quoted to be shown: quoting escapes
    /// a `"` or `\` again (`Zebra\"Horse42` cut from JSON text shows as `"Zebra\\\"Horse42"`),
    /// a form of the secret the mask does not know.
    private func maskedStrings(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(mask(text))
        case .array(let elements): .array(elements.map(maskedStrings))
        case .object(let members): .object(members.map { JSONMember(key: mask($0.key), value: maskedStrings($0.value)) })
        case .null, .bool, .number: value
        }
    }

    /// What a check shows of `value`, which `query` (`url`, `cookie NAME`) found unmasked: the
    /// value as every output shows it; filtered, what the filters made of the true value (`cookie
    /// token | length` is its length, not that of `***`), its strings `***` when that value shows masked.
    private func shownMasked(_ value: JSONValue, of query: Query, element: JSONValue?) throws -> JSONValue? {
        guard !query.filters.isEmpty else { return try lookUp(query, element: element).value }
        var unfiltered = query
        unfiltered.filters = []
        unfiltered.filterTemplates = []
        let shown = try lookUp(unfiltered, element: element).value
        return try shown == lookUp(unfiltered, element: element, unmasked: true).value ? value : Self.placeholderStrings(value)
    }

    /// `value` with every string `***`: what a filter made of a secret.
    private static func placeholderStrings(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string: .string(Redaction.placeholder)
        case .array(let elements): .array(elements.map(placeholderStrings))
        case .object(let members): .object(members.map { JSONMember(key: $0.key, value: placeholderStrings($0.value)) })
        case .null, .bool, .number: value
        }
    }

    /// Whether the left side of a check is a value of the answer's JSON or a variable's typed
    /// value (``Query/givesJSONValue``, `$name`), not text (`body`, `"$a-$b"`).
    static func givesJSONValue(_ subject: ValueExpression) -> Bool {
        switch subject {
        case .query(let query): query.givesJSONValue
        case .word(let word): word.loneVariable != nil
        case .env: false
        }
    }

    /// The tests a node list of one (`.users[?@.id==1].name`) takes as that one value, as Hurl
    /// does. `contains`, `isEmpty`, `isList` and `isCollection` ask about the list itself (whether
    /// one of the values reached is 6, whether any was reached), but for ``testsThePickedValue``.
    static let comparesOneNode: Set<Expectation.Operator> = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual,
                                                              .startsWith, .endsWith, .matches, .isString, .isNumber, .isInteger,
                                                              .isFloat, .isBool, .isNull, .isObject, .isDate, .isIsoDate, .isUuid]

    /// The tests that take the one value a `[? ]` picked and a key or index read
    /// (`.users[? .id == 1].tags isList`) as that value: a value is an object or a list, not both,
    /// and `""` is empty. A list `[*]` or a last `[? ]` made is a list to them.
    static let testsThePickedValue: Set<Expectation.Operator> = [.isEmpty, .isList, .isCollection]

    /// Whether `value` is text, a list or an object: what `isEmpty` asks about.
    static func isTextOrCollection(_ value: JSONValue) -> Bool {
        switch value {
        case .string, .array, .object: true
        default: false
        }
    }

    static func isTextOrList(_ value: JSONValue) -> Bool {
        switch value {
        case .string, .array: true
        default: false
        }
    }

    /// `'startsWith' tests text, and the value is a number (compare ...)`.
    static func typeMismatchNote(_ op: Expectation.Operator, _ takes: String, _ value: JSONValue) -> String {
        let kind = TypedValues.typeName(value)
        let note = "'\(op.rawValue)' tests \(takes), and the value is \(kind == "null" ? "null" : (kind == "object" ? "an " : "a ") + kind)"
        guard case .number = value else { return note }
        return note + " (compare a number with '<' and '>=', or write '| toString' first)"
    }

    /// What a test takes, when `value` is not of it: `startsWith` text, not the number 503. Such a
    /// check fails with `not` as without it, as in Hurl (a type mismatch), so that
    /// `expect status not startsWith 5` does not hold on a 503. Nil when the test applies.
    static func typeMismatch(_ op: Expectation.Operator, _ value: JSONValue) -> String? {
        switch (op, value) {
        case (.startsWith, .string), (.endsWith, .string), (.matches, .string), (.isIsoDate, .string), (.isUuid, .string): nil
        case (.startsWith, _), (.endsWith, _), (.matches, _), (.isIsoDate, _), (.isUuid, _): "text"
        case (.contains, .string), (.contains, .array), (.contains, .object): nil
        case (.contains, _): "text, a list or an object"
        case (.includes, .array): nil
        case (.includes, _): "a list"
        case (.isEmpty, .string), (.isEmpty, .array), (.isEmpty, .object): nil
        case (.isEmpty, _): "text, a list or an object"
        default: nil
        }
    }

    /// `matches`: in time linear in the text (``LinearRegex``), stopped by Ctrl-C.
    private func matches(_ text: String?, _ pattern: String, _ expectation: Expectation) throws -> Bool {
        let span = expectation.expected?.span ?? expectation.span
        let regex: LinearRegex
        do {
            regex = try LinearRegex(pattern)
        } catch {
            throw failure("'\(mask(pattern).shortened())' is not a valid regular expression: \(error.description)", at: span)
        }
        // The pattern is checked first, as Hurl does: a bad one is an error whatever the value.
        guard let text else { return false }
        do {
            return try regex.matches(text, shouldStop: { Task.isCancelled })
        } catch .interrupted {
            throw CancellationError()
        } catch .tooCostly {
            throw failure("regular expression too costly for a text of \(text.unicodeScalars.count) characters", at: span,
                          notes: ["a match may visit at most \(LinearRegex.stepBudget) instructions of the pattern's program"])
        }
    }
}
