import Testing
import Targets
@testable import Checks

/// What JSONPath refuses, and how it says so; the RFC's ill-typed examples; limits on nesting in
/// the query and on work; documents nested far deeper than any stack.
@Suite struct JSONPathErrorTests {
    @Test(arguments: [
        // The query's frame: `$` first, no whitespace around it.
        ("", "a query starts with '$', and this one is empty at 0"),
        (" $", "expected '$' at 0"),
        ("$ ", "unexpected whitespace at the end of the query at 1"),
        ("store.book", "expected '$' at 0"),
        ("$x", "unexpected 'x' at 1"),
        ("$.a b", "unexpected 'b' at 4"),
        ("$.a\t", "unexpected whitespace at the end of the query at 3"),
        ("$[?@.a]x", "unexpected 'x' at 7"),
        ("$.", "expected a member name or '*' after '.' at 2"),
        ("$. a", "expected a member name or '*' after '.' at 2"),
        ("$.1", "expected a member name or '*' after '.' at 2"),
        ("$..", "expected a member name, '*' or '[' after '..' at 3"),
        ("$...a", "expected a member name, '*' or '[' after '..' at 3"),
        // Brackets and selectors.
        ("$.store.book[0", "expected ']' at 14"),
        ("$[0 1]", "expected ']' at 4"),
        ("$[1:2:3:4]", "expected ']' at 7"),
        ("$[]", "expected a selector: a quoted name, an index, a slice, '*' or a filter '?' at 2"),
        ("$[a]", "expected a selector: a quoted name, an index, a slice, '*' or a filter '?' at 2"),
        ("$[0,]", "expected a selector: a quoted name, an index, a slice, '*' or a filter '?' at 4"),
        // Integers: no leading zeros, no -0, within I-JSON's ±(2^53 - 1).
        ("$[01]", "an integer cannot start with 0 at 2"),
        ("$[-0]", "'-0' is not an index; write 0 at 2"),
        ("$[-]", "expected a digit at 3"),
        ("$[9007199254740992]", "integer out of range: at most 9007199254740991 either side of 0 at 2"),
        ("$[-9007199254740992]", "integer out of range: at most 9007199254740991 either side of 0 at 2"),
        ("$[1:99999999999999999999]", "integer out of range: at most 9007199254740991 either side of 0 at 4"),
        ("$[::-0]", "'-0' is not an index; write 0 at 4"),
        // Strings.
        ("$['a", "unterminated string at 2"),
        (#"$['a\"']"#, #"invalid escape '\"' in a string at 4"#),
        (#"$["a\'"]"#, #"invalid escape '\'' in a string at 4"#),
        (#"$['\x41']"#, #"invalid escape '\x' in a string at 3"#),
        (#"$['\u12']"#, #"\u takes 4 hex digits at 3"#),
        (#"$['\uD83D']"#, #"\uD83D is a high surrogate; a \u escape of a low surrogate must follow at 3"#),
        (#"$['\uD83D\u0041']"#, #"\uD83D is a high surrogate; a \u escape of a low surrogate must follow at 3"#),
        (#"$['\uDE00']"#, #"\uDE00 is a low surrogate without a high surrogate before it at 3"#),
        ("$['\u{01}']", "a control character (U+0001) in a string must be escaped at 3"),
        ("$['\n']", "a control character (a line break) in a string must be escaped at 3"),
        // Filter syntax.
        ("$[?]", "expected a test or comparison, e.g. @.name or @.price < 10, not ']' at 3"),
        ("$[?(@.a == 1]", "expected ')' at 12"),
        ("$[?@.a = 1]", "use '==' to compare at 7"),
        ("$[?@.a == 1 == 2]", "comparisons cannot be chained; join them with && or || at 12"),
        ("$[?!@.a == 1]", "'!' cannot negate one side of a comparison; put the comparison in parentheses: !(... == ...) at 3"),
        ("$[?@.a == tru]", "unexpected 'tru'; a member of the current node is written @.tru at 10"),
        ("$[?@.a == 01]", "a number cannot start with 0 at 10"),
        ("$[?@.a == 1.]", "expected a digit after '.' at 12"),
        ("$[?@.a == 1e]", "expected a digit in the exponent at 12"),
        ("$[?@.a == {}]", "expected a test or comparison, e.g. @.name or @.price < 10, not '{' at 10"),
        ("$[?@.a & @.b]", "expected ']' at 7"),
        ("$[?length (@) > 1]", "expected '(' right after 'length' at 9"),
        ("$[?@ == 1 |]", "expected ']' at 10"),
        // Functions: names, argument counts.
        ("$[?lenght(@) > 1]", "unknown function 'lenght' (known: length, count, match, search, value) at 3"),
        ("$[?Length(@) > 1]", "unknown function 'Length' (known: length, count, match, search, value) at 3"),
        ("$[?length(@, 1) > 0]", "length() takes 1 argument, not 2 at 3"),
        ("$[?length() > 0]", "length() takes 1 argument, not 0 at 3"),
        ("$[?match(@)]", "match() takes 2 arguments, not 1 at 3"),
        ("$[?count(@.a", "expected ',' or ')' in the arguments of count() at 12"),
    ])
    func syntaxErrors(query: String, message: String) {
        #expect(throws: JSONPathError.self, "\(query)") { try JSONPath(query) }
        do {
            _ = try JSONPath(query)
        } catch {
            #expect(error.description == message, "\(query)")
        }
    }

    /// Section 2.4.9's ill-typed examples, and the other ways to break the typing rules.
    @Test(arguments: [
        ("$[?length(@.*) < 3]",
         "argument 1 of length() must be a single value, but this query may select several nodes: use names and indices only at 10"),
        ("$[?count(1) == 1]", "argument 1 of count() must be a query, such as @.items[*] at 9"),
        ("$[?match(@.timezone, 'Europe/.*') == true]", "match() gives true or false, which cannot be compared at 3"),
        ("$[?value(@..color)]", "value() gives a value, not true or false; compare it, as in value(...) == ... at 3"),
        ("$[?length(@)]", "length() gives a value, not true or false; compare it, as in length(...) == ... at 3"),
        ("$[?count(@.*)]", "count() gives a value, not true or false; compare it, as in count(...) == ... at 3"),
        ("$[?true]", "a literal cannot stand alone as a test; compare it, as in @.name == ... at 3"),
        ("$[?@.a || 'x']", "a literal cannot stand alone as a test; compare it, as in @.name == ... at 10"),
        ("$[?!null]", "a literal cannot stand alone as a test; compare it, as in @.name == ... at 4"),
        ("$[?@.* == 1]",
         "a query in a comparison must select at most one node: names and indices only, no '*', '..', slices or filters at 3"),
        ("$[?1 < @..a]",
         "a query in a comparison must select at most one node: names and indices only, no '*', '..', slices or filters at 7"),
        ("$[?@[0:1] == 1]",
         "a query in a comparison must select at most one node: names and indices only, no '*', '..', slices or filters at 3"),
        ("$[?(@.a == 1) == true]", "only a literal, a singular query or a function giving a value can be compared at 3"),
        ("$[?search(@, 'a') != false]", "search() gives true or false, which cannot be compared at 3"),
        ("$[?length(@.a == 1) > 0]",
         "argument 1 of length() must be a value: a literal, a singular query or a function giving a value at 10"),
        ("$[?count(length(@)) > 0]", "argument 1 of count() must be a query, such as @.items[*] at 9"),
        ("$[?value('x') == 'x']", "argument 1 of value() must be a query, such as @.items[*] at 9"),
        ("$[?match(@.a, @.*)]",
         "argument 2 of match() must be a single value, but this query may select several nodes: use names and indices only at 14"),
        ("$[?length(match(@, 'a')) > 0]", "match() gives true or false, which cannot be compared at 10"),
    ])
    func illTypedQueries(query: String, message: String) {
        do {
            _ = try JSONPath(query)
            Issue.record("\(query) parsed")
        } catch {
            #expect(error.description == message, "\(query)")
        }
    }

    @Test func errorsCarryTheMessageAndOffsetApart() {
        #expect(throws: JSONPathError(message: "expected ']'", offset: 14)) { try JSONPath("$.store.book[0") }
        #expect(JSONPathError(message: "the query visits too much").description == "the query visits too much")
    }

    @Test func offsetsCountUnicodeScalars() {
        #expect(throws: JSONPathError(message: "expected ']'", offset: 6)) { try JSONPath("$['😀' 1]") }
    }

    // MARK: Nesting in the query is bounded

    @Test func nestingUpTo64LevelsParsesAndEvaluates() throws {
        let filters = String(repeating: "[?@", count: 63) + String(repeating: "]", count: 63)
        let path = try JSONPath("$" + filters)
        var document = JSONValue.number("1")
        for _ in 0..<70 { document = .array([document]) }
        #expect(try path.values(in: document).count == 1)
        #expect(throws: Never.self) { try JSONPath("$[?" + String(repeating: "(", count: 63) + "@" + String(repeating: ")", count: 63) + "]") }
    }

    /// Deep nesting of each kind (filters, parentheses, calls, negations) fails at the 65th level
    /// (the filter's own bracket counts as one), however deep the query goes on.
    @Test func deeperNestingIsRefused() {
        let cases: [(String, String)] = [
            ("$" + String(repeating: "[?@", count: 100_000) + String(repeating: "]", count: 100_000),
             "nesting deeper than 64 levels at 193"),
            ("$[?" + String(repeating: "(", count: 1_000_000) + "@" + String(repeating: ")", count: 1_000_000) + "]",
             "nesting deeper than 64 levels at 66"),
            ("$[?" + String(repeating: "length(", count: 100_000) + "@" + String(repeating: ")", count: 100_000) + " > 1]",
             "nesting deeper than 64 levels at 450"),
            ("$[?" + String(repeating: "!(", count: 100_000) + "@" + String(repeating: ")", count: 100_000) + "]",
             "nesting deeper than 64 levels at 130"),
        ]
        for (query, message) in cases {
            do {
                _ = try JSONPath(query)
                Issue.record("\(query.prefix(20))... parsed")
            } catch {
                #expect(error.description == message, "\(query.prefix(20))...")
            }
        }
    }

    @Test func longFlatQueriesDoNotRecurse() throws {
        let names = try JSONPath("$" + String(repeating: ".a", count: 100_000))
        #expect(try names.values(in: .object([])) == [])
        let alternatives = try JSONPath("$[?" + Array(repeating: "@ == 1", count: 100_000).joined(separator: " || ") + "]")
        #expect(try alternatives.values(in: JSONValue.parse("[1, 2]")) == [.number("1")])
    }

    // MARK: Deep documents are walked without recursion

    @Test func deeplyNestedArraysAreWalkedIteratively() throws {
        let depth = 100_000
        var document = JSONValue.number("1")
        for _ in 0..<depth { document = .array([document]) }
        defer { Self.dismantle(&document) }
        do {
            let all = try JSONPath("$..*").values(in: document)
            #expect(all.count == depth)
            #expect(all.last == .number("1"))
            #expect(try JSONPath("$..[?@ == 1]").values(in: document) == [.number("1")])
            #expect(try JSONPath("$..[0]").values(in: document).count == depth)
            // Deep equality compares the whole chain, on a stack of its own.
            #expect(try JSONPath("$[?@ == $[0]]").values(in: document).count == 1)
            #expect(try JSONPath("$[?count(@..*) > 0]").values(in: document).count == 1)
        }
    }

    @Test func deeplyNestedObjectsAreWalkedIteratively() throws {
        let depth = 100_000
        var document = JSONValue.string("bottom")
        for _ in 0..<depth { document = .object([JSONMember(key: "x", value: document)]) }
        defer { Self.dismantle(&document) }
        do {
            let found = try JSONPath("$..x").values(in: document)
            #expect(found.count == depth)
            #expect(found.last == .string("bottom"))
            #expect(try JSONPath("$..*[?@ == 'bottom']").values(in: document) == [.string("bottom")])
        }
    }

    @Test func workIsBoundedByTheStepLimit() throws {
        var document = JSONValue.number("1")
        for _ in 0..<1_000 { document = .array([document]) }
        // Each of 1,000 nodes walks all of its descendants again: about a million steps.
        let quadratic = try JSONPath("$..*..*")
        #expect(throws: JSONPathError(message: "the query visits more than 100000 nodes of this document; narrow it down")) {
            try quadratic.values(in: document, stepLimit: 100_000)
        }
        #expect(try quadratic.values(in: document, stepLimit: 10_000_000).count == 1_000 * 999 / 2)
    }

    /// Ctrl-C: the caller's `shouldStop` is asked as the walk goes, and a yes ends it at once.
    @Test func anEvaluationStopsWhenItsCallerSaysSo() throws {
        var document = JSONValue.number("1")
        for _ in 0..<1_000 { document = .array([document]) }
        let quadratic = try JSONPath("$..*..*")
        var asked = 0
        do {
            _ = try quadratic.values(in: document, stepLimit: 10_000_000) {
                asked += 1
                return asked == 3
            }
            Issue.record("the evaluation was not stopped")
        } catch {
            #expect(error.isInterrupted)
        }
        // It was asked at the 16,384th node and each 16,384 after: the third time, it stopped.
        #expect(asked == 3)
        #expect(try quadratic.values(in: document, stepLimit: 10_000_000) { false }.count == 1_000 * 999 / 2)
    }

    /// Takes a value apart level by level: releasing a deeply nested value in one go recurses in
    /// the Swift runtime, once per level, and would overflow the stack.
    static func dismantle(_ value: inout JSONValue) {
        var current = value
        value = .null
        while true {
            switch current {
            case .array(var elements):
                current = .null
                guard let last = elements.popLast() else { return }
                elements.removeAll()
                current = last
            case .object(var members):
                current = .null
                guard let last = members.popLast() else { return }
                members.removeAll()
                current = last.value
            case .null, .bool, .number, .string:
                return
            }
        }
    }
}
