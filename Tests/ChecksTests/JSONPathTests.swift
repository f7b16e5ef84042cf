import Testing
import Targets
@testable import Checks

/// RFC 9535's own examples, section by section, and the corners of each feature. Expected nodes
/// are written as compact JSON text, in the order the query must give them.
@Suite struct JSONPathTests {
    /// Section 1.5, Figure 1.
    static let bookstoreText = """
        { "store": {
            "book": [
              { "category": "reference", "author": "Nigel Rees",
                "title": "Sayings of the Century", "price": 8.95 },
              { "category": "fiction", "author": "Evelyn Waugh",
                "title": "Sword of Honour", "price": 12.99 },
              { "category": "fiction", "author": "Herman Melville",
                "title": "Moby Dick", "isbn": "0-553-21311-3", "price": 8.99 },
              { "category": "fiction", "author": "J. R. R. Tolkien",
                "title": "The Lord of the Rings", "isbn": "0-395-19395-8", "price": 22.99 }
            ],
            "bicycle": { "color": "red", "price": 399 }
          }
        }
        """

    static let book0 = #"{"category":"reference","author":"Nigel Rees","title":"Sayings of the Century","price":8.95}"#
    static let book1 = #"{"category":"fiction","author":"Evelyn Waugh","title":"Sword of Honour","price":12.99}"#
    static let book2 = #"{"category":"fiction","author":"Herman Melville","title":"Moby Dick","isbn":"0-553-21311-3","price":8.99}"#
    static let book3 = #"{"category":"fiction","author":"J. R. R. Tolkien","title":"The Lord of the Rings","isbn":"0-395-19395-8","price":22.99}"#
    static let bicycle = #"{"color":"red","price":399}"#
    static let books = "[\(book0),\(book1),\(book2),\(book3)]"

    /// Evaluates `query` on the document text, as compact JSON texts.
    func run(_ query: String, on document: String) throws -> [String] {
        try JSONPath(query).values(in: JSONValue.parse(document)).map(\.compactText)
    }

    // MARK: Section 1.5, Table 2

    @Test(arguments: [
        ("$.store.book[*].author", [#""Nigel Rees""#, #""Evelyn Waugh""#, #""Herman Melville""#, #""J. R. R. Tolkien""#]),
        ("$..author", [#""Nigel Rees""#, #""Evelyn Waugh""#, #""Herman Melville""#, #""J. R. R. Tolkien""#]),
        ("$.store.*", [books, bicycle]),
        ("$.store..price", ["8.95", "12.99", "8.99", "22.99", "399"]),
        ("$..book[2]", [book2]),
        ("$..book[2].author", [#""Herman Melville""#]),
        ("$..book[2].publisher", []),
        ("$..book[-1]", [book3]),
        ("$..book[0,1]", [book0, book1]),
        ("$..book[:2]", [book0, book1]),
        ("$..book[?@.isbn]", [book2, book3]),
        ("$..book[?@.price<10]", [book0, book2]),
        ("$.store.book[?@.price < 10].title", [#""Sayings of the Century""#, #""Moby Dick""#]),
        ("$..book[?@.author == 'Evelyn Waugh' || @.price > 20].title", [#""Sword of Honour""#, #""The Lord of the Rings""#]),
    ])
    func bookstore(query: String, expected: [String]) throws {
        #expect(try run(query, on: Self.bookstoreText) == expected, "\(query)")
    }

    @Test func allMembersAndElementsOfTheBookstore() throws {
        let all = try run("$..*", on: Self.bookstoreText)
        // The store, its book array and bicycle, 4 books of 4 or 5 members each, the bicycle's 2.
        #expect(all.count == 1 + 2 + 4 + 4 + 4 + 5 + 5 + 2)
        let store = try #require(try JSONValue.parse(Self.bookstoreText)["store"])
        #expect(Array(all.prefix(3)) == [store.compactText, Self.books, Self.bicycle])
        #expect(try run("$", on: Self.bookstoreText) == [try JSONValue.parse(Self.bookstoreText).compactText])
        #expect(all.last == "399")
    }

    // MARK: Section 2.3: selectors

    @Test(arguments: [
        // 2.3.1.3, name selector
        ("$.o['j j']", [#"{"k.k":3}"#]),
        ("$.o['j j']['k.k']", ["3"]),
        (#"$.o["j j"]["k.k"]"#, ["3"]),
        (#"$["'"]["@"]"#, ["2"]),
        ("$.o.absent", []),
        ("$['o']", [#"{"j j":{"k.k":3}}"#]),
    ])
    func nameSelector(query: String, expected: [String]) throws {
        #expect(try run(query, on: #"{"o": {"j j": {"k.k": 3}}, "'": {"@": 2}}"#) == expected, "\(query)")
    }

    @Test(arguments: [
        // 2.3.2.3, wildcard selector
        ("$[*]", [#"{"j":1,"k":2}"#, "[5,3]"]),
        ("$.o[*]", ["1", "2"]),
        ("$.o[*, *]", ["1", "2", "1", "2"]),
        ("$.a[*]", ["5", "3"]),
        ("$.*", [#"{"j":1,"k":2}"#, "[5,3]"]),
        ("$.a.*.*", []),
    ])
    func wildcardSelector(query: String, expected: [String]) throws {
        #expect(try run(query, on: #"{"o": {"j": 1, "k": 2}, "a": [5, 3]}"#) == expected, "\(query)")
    }

    @Test(arguments: [
        // 2.3.3.3, index selector
        ("$[1]", [#""b""#]),
        ("$[-2]", [#""a""#]),
        ("$[0]", [#""a""#]),
        ("$[2]", []),
        ("$[-3]", []),
        ("$[0, 0, -1]", [#""a""#, #""a""#, #""b""#]),
        ("$[9007199254740991]", []),
        ("$[-9007199254740991]", []),
    ])
    func indexSelector(query: String, expected: [String]) throws {
        #expect(try run(query, on: #"["a", "b"]"#) == expected, "\(query)")
    }

    @Test func indexAndSliceSelectNothingFromObjectsAndPrimitives() throws {
        #expect(try run("$[0]", on: #"{"0": 1}"#) == [])
        #expect(try run("$[:]", on: #"{"0": 1}"#) == [])
        #expect(try run("$.a[0]", on: #"{"a": "text"}"#) == [])
        #expect(try run("$[0]", on: "7") == [])
    }

    @Test(arguments: [
        // 2.3.4.3, array slice selector
        ("$[1:3]", ["b", "c"]),
        ("$[5:]", ["f", "g"]),
        ("$[1:5:2]", ["b", "d"]),
        ("$[5:1:-2]", ["f", "d"]),
        ("$[::-1]", ["g", "f", "e", "d", "c", "b", "a"]),
        // Defaults, negative bounds, clamping, a zero step.
        ("$[:]", ["a", "b", "c", "d", "e", "f", "g"]),
        ("$[::]", ["a", "b", "c", "d", "e", "f", "g"]),
        ("$[-2:]", ["f", "g"]),
        ("$[:-5]", ["a", "b"]),
        ("$[-100:2]", ["a", "b"]),
        ("$[5:100]", ["f", "g"]),
        ("$[3:1]", []),
        ("$[::0]", []),
        ("$[::3]", ["a", "d", "g"]),
        ("$[-1:-4:-1]", ["g", "f", "e"]),
        ("$[:2:-1]", ["g", "f", "e", "d"]),
        ("$[100:-100:-3]", ["g", "d", "a"]),
        ("$[1 : 3 : 1]", ["b", "c"]),
        ("$[-9007199254740991:9007199254740991:9007199254740991]", ["a"]),
        ("$[::-9007199254740991]", ["g"]),
        ("$[0:2, 5]", ["a", "b", "f"]),
    ])
    func sliceSelector(query: String, expected: [String]) throws {
        let document = #"["a", "b", "c", "d", "e", "f", "g"]"#
        #expect(try run(query, on: document) == expected.map { "\"\($0)\"" }, "\(query)")
    }

    static let filterDocument = """
        { "a": [3, 5, 1, 2, 4, 6, {"b": "j"}, {"b": "k"}, {"b": {}}, {"b": "kilo"}],
          "o": {"p": 1, "q": 2, "r": 3, "s": 5, "t": {"u": 6}},
          "e": "f" }
        """

    @Test(arguments: [
        // 2.3.5.3, filter selector
        ("$.a[?@.b == 'kilo']", [#"{"b":"kilo"}"#]),
        ("$.a[?(@.b == 'kilo')]", [#"{"b":"kilo"}"#]),
        ("$.a[?@>3.5]", ["5", "4", "6"]),
        ("$.a[?@.b]", [#"{"b":"j"}"#, #"{"b":"k"}"#, #"{"b":{}}"#, #"{"b":"kilo"}"#]),
        ("$[?@.*]", [#"[3,5,1,2,4,6,{"b":"j"},{"b":"k"},{"b":{}},{"b":"kilo"}]"#, #"{"p":1,"q":2,"r":3,"s":5,"t":{"u":6}}"#]),
        ("$[?@[?@.b]]", [#"[3,5,1,2,4,6,{"b":"j"},{"b":"k"},{"b":{}},{"b":"kilo"}]"#]),
        ("$.o[?@<3, ?@<3]", ["1", "2", "1", "2"]),
        (#"$.a[?@<2 || @.b == "k"]"#, ["1", #"{"b":"k"}"#]),
        (#"$.a[?match(@.b, "[jk]")]"#, [#"{"b":"j"}"#, #"{"b":"k"}"#]),
        (#"$.a[?search(@.b, "[jk]")]"#, [#"{"b":"j"}"#, #"{"b":"k"}"#, #"{"b":"kilo"}"#]),
        ("$.o[?@>1 && @<4]", ["2", "3"]),
        ("$.o[?@.u || @.x]", [#"{"u":6}"#]),
        ("$.a[?@.b == $.x]", ["3", "5", "1", "2", "4", "6"]),
        ("$.a[?@ == @]", ["3", "5", "1", "2", "4", "6", #"{"b":"j"}"#, #"{"b":"k"}"#, #"{"b":{}}"#, #"{"b":"kilo"}"#]),
        // Negation, precedence (&& binds tighter than ||), parentheses, the root inside a filter.
        ("$.a[?!@.b]", ["3", "5", "1", "2", "4", "6"]),
        ("$.a[?!(@.b == 'j' || @.b == 'k') && @.b]", [#"{"b":{}}"#, #"{"b":"kilo"}"#]),
        ("$.a[?@ == 1 || @ == 2 && @ == 3]", ["1"]),
        ("$.a[?(@ == 1 || @ == 2) && @ < 2]", ["1"]),
        ("$.a[?@ == $.o.r]", ["3"]),
        ("$.a[?$.e == 'f' && @ == 6]", ["6"]),
        ("$.e[?@]", []),
        // Whitespace where the RFC allows it.
        ("$.a[? @ > 5 ]", ["6"]),
        ("$.a[?\t(\n@ > 5\r)]", ["6"]),
        ("$.a[?! @.b]", ["3", "5", "1", "2", "4", "6"]),
        ("$.a[?@ == 1||@ == 2]", ["1", "2"]),
        ("$ .o [ 'p' , 'q' ]", ["1", "2"]),
        ("$.a[?@ .b == 'j']", [#"{"b":"j"}"#]),
        ("$.a[?length( @.b ) == 4]", [#"{"b":"kilo"}"#]),
    ])
    func filterSelector(query: String, expected: [String]) throws {
        #expect(try run(query, on: Self.filterDocument) == expected, "\(query)")
    }

    /// Section 2.3.5.3, Table 11: each comparison is the whole filter, so it selects both of the
    /// root's children when true and none when false.
    @Test(arguments: [
        ("$.absent1 == $.absent2", true), ("$.absent1 <= $.absent2", true), ("$.absent == 'g'", false),
        ("$.absent1 != $.absent2", false), ("$.absent != 'g'", true), ("1 <= 2", true), ("1 > 2", false),
        ("13 == '13'", false), ("'a' <= 'b'", true), ("'a' > 'b'", false), ("$.obj == $.arr", false),
        ("$.obj != $.arr", true), ("$.obj == $.obj", true), ("$.obj != $.obj", false), ("$.arr == $.arr", true),
        ("$.arr != $.arr", false), ("$.obj == 17", false), ("$.obj != 17", true), ("$.obj <= $.arr", false),
        ("$.obj < $.arr", false), ("$.obj <= $.obj", true), ("$.arr <= $.arr", true), ("1 <= $.arr", false),
        ("1 >= $.arr", false), ("1 > $.arr", false), ("1 < $.arr", false), ("true <= true", true), ("true > true", false),
        // Exact numbers: equal however written, different however close.
        ("1 == 1.0", true), ("1 == 1e0", true), ("100 == 1E2", true), ("0.1e1 == 1", true), ("-0 == 0", true),
        ("9007199254740993 == 9007199254740992", false), ("9007199254740993 > 9007199254740992", true),
        ("0.30000000000000001 == 0.3", false), ("1e400 > 1e399", true), ("-1 < -0.5", true),
        // Strings by Unicode scalars, no normalization; other types ordered neither way.
        ("'é' == 'e\u{0301}'", false), ("'Z' < 'a'", true), ("'' < 'a'", true), ("'ab' < 'abc'", true),
        ("null == null", true), ("null < null", false), ("null <= null", true), ("true == false", false),
        ("false != 0", true), ("$.obj.x == 'y'", true),
        ("$.arr[0] < $.arr[1]", true), ("$.arr == $.same", true), ("$.obj == $.reordered", true),
    ])
    func comparison(condition: String, holds: Bool) throws {
        let document = #"{"obj": {"x": "y", "z": [1, 2.0]}, "arr": [2, 3], "same": [2.0, 3e0], "reordered": {"z": [1.0, 2], "x": "y"}}"#
        let selected = try run("$[?\(condition)]", on: document)
        #expect(selected.count == (holds ? 4 : 0), "\(condition)")
    }

    // MARK: Section 2.4: function extensions

    @Test(arguments: [
        // 2.4.4 length: scalars of a string, elements, members; Nothing otherwise.
        ("$[?length(@.s) == 3].id", ["1"]),
        ("$[?length(@.a) == 2].id", ["1", "2"]),
        ("$[?length(@.o) == 1].id", ["2"]),
        ("$[?length(@.n) == 1].id", []),
        ("$[?length(@.missing) == $.none].id", ["1", "2"]),
        ("$[?length('😀') == 1].id", ["1", "2"]),
        ("$[?length(@) >= 5].id", ["1"]),
        // 2.4.5 count: nodes, whatever they are.
        ("$[?count(@.*) == 5].id", ["1"]),
        ("$[?count(@..*) == 7].id", ["1", "2"]),
        ("$[?count(@..x) == 1].id", ["2"]),
        ("$[?count(@.missing) == 0].id", ["1", "2"]),
        ("$[?count($[*]) == 2].id", ["1", "2"]),
        // 2.4.8 value: the value of a single node, Nothing for zero or several.
        ("$[?value(@..x) == 'red'].id", ["2"]),
        ("$[?value(@.a[*]) == 1].id", []),
        ("$[?value(@.s) == 'abc'].id", ["1"]),
        // Functions as arguments of functions.
        ("$[?length(value(@.s)) == 3].id", ["1"]),
        ("$[?count(@.a[*]) == length(@.a)].id", ["1", "2"]),
    ])
    func functions(query: String, expected: [String]) throws {
        let document = #"[{"id": 1, "s": "abc", "a": [1, 2], "n": 7, "b": true}, {"id": 2, "a": [{"x": "red"}, 9], "o": {"k": 1}}]"#
        #expect(try run(query, on: document) == expected, "\(query)")
    }

    @Test(arguments: [
        // 2.4.6 match is whole-string, 2.4.7 search finds a substring.
        (#"$[?match(@, "1974-05-..")]"#, ["1974-05-01", "1974-05-31"]),
        (#"$[?search(@, "[BR]ob")]"#, ["Bob", "Robert", "about Bob"]),
        (#"$[?match(@, "[BR]ob")]"#, ["Bob"]),
        (#"$[?match(@, "B.*")]"#, ["Bob"]),
        (#"$[?search(@, "^about")]"#, ["about Bob"]),
        (#"$[?match(@, "x")]"#, []),
        // An invalid I-Regexp is false, not an error; so is a non-string subject or pattern.
        (#"$[?search(@, "[")]"#, []),
        (#"$[?search(@, "\\d")]"#, []),
        (#"$[?search(@, "(?:o)")]"#, []),
        (#"$[?search(@, 1)]"#, []),
        // The pattern can come from the document.
        (#"$[?match(@, $[0])]"#, ["1974-05-01"]),
    ])
    func regularExpressions(query: String, expected: [String]) throws {
        let document = #"["1974-05-01", "1974-05-31", "1974-06-01", "Bob", "Robert", "about Bob", 7]"#
        #expect(try run(query, on: document) == expected.map { "\"\($0)\"" }, "\(query)")
    }

    @Test(arguments: [
        // I-Regexp's '.' is anything but \n and \r; \p{..} and \P{..} are Unicode categories.
        (#"$[?match(@, "a.c")]"#, ["abc", "a\u{2028}c", "a😀c", "a.c"]),
        (#"$[?match(@, "a[.]c")]"#, ["a.c"]),
        (#"$[?match(@, "a\\.c")]"#, ["a.c"]),
        (#"$[?match(@, "\\p{Lu}+")]"#, ["ABC", "ÄÖ"]),
        (#"$[?match(@, "\\P{L}+")]"#, ["123", "1 2"]),
        (#"$[?match(@, "[\\p{Ll}\\p{Nd}]+")]"#, ["abc", "123"]),
        (#"$[?match(@, "\\p{Xx}")]"#, []),
    ])
    func iRegexp(query: String, expected: [String]) throws {
        let document = #"["abc", "a\nc", "a\rc", "a\u2028c", "a😀c", "a.c", "ABC", "ÄÖ", "123", "1 2"]"#
        #expect(try run(query, on: document) == expected.map { JSONValue.quoted($0) }, "\(query)")
    }

    /// Section 2.4.9, Table 14: the well-typed examples (the ill-typed ones are in JSONPathErrorTests).
    @Test(arguments: [
        "$[?length(@) < 3]", "$[?count(@.*) == 1]", "$[?match(@.timezone, 'Europe/.*')]",
        #"$[?value(@..color) == "red"]"#, "$[?length(@.authors) >= 5]", "$[?count(@.*.author) >= 5]",
        #"$[?match(@.date, "1974-05-..")]"#, #"$[?search(@.author, "[BR]ob")]"#, "$[?!match(@.a, 'x')]",
        "$[?length(1) == 1]", "$[?length(null) == 1]", "$[?count($..*) > 0]",
    ])
    func wellTypedQueriesParse(query: String) {
        #expect(throws: Never.self, "\(query)") { try JSONPath(query) }
    }

    // MARK: Section 2.5: segments

    @Test(arguments: [
        // 2.5.1.3, child segment
        ("$[0, 3]", [#""a""#, #""d""#]),
        ("$[0:2, 5]", [#""a""#, #""b""#, #""f""#]),
        ("$[0, 0]", [#""a""#, #""a""#]),
    ])
    func childSegment(query: String, expected: [String]) throws {
        #expect(try run(query, on: #"["a", "b", "c", "d", "e", "f", "g"]"#) == expected, "\(query)")
    }

    @Test(arguments: [
        // 2.5.2.3, descendant segment: parents before children, arrays in order.
        ("$..j", ["1", "4"]),
        ("$..[0]", ["5", #"{"j":4}"#]),
        ("$..[*]", [#"{"j":1,"k":2}"#, #"[5,3,[{"j":4},{"k":6}]]"#, "1", "2", "5", "3", #"[{"j":4},{"k":6}]"#, #"{"j":4}"#, #"{"k":6}"#, "4", "6"]),
        ("$..*", [#"{"j":1,"k":2}"#, #"[5,3,[{"j":4},{"k":6}]]"#, "1", "2", "5", "3", #"[{"j":4},{"k":6}]"#, #"{"j":4}"#, #"{"k":6}"#, "4", "6"]),
        ("$..o", [#"{"j":1,"k":2}"#]),
        ("$.o..[*, *]", ["1", "2", "1", "2"]),
        ("$.a..[0, 1]", ["5", "3", #"{"j":4}"#, #"{"k":6}"#]),
        ("$..['j', 'k']", ["1", "2", "4", "6"]),
        ("$..[?@ > 4]", ["5", "6"]),
        ("$.a[2]..j", ["4"]),
        ("$..absent", []),
    ])
    func descendantSegment(query: String, expected: [String]) throws {
        let document = #"{"o": {"j": 1, "k": 2}, "a": [5, 3, [{"j": 4}, {"k": 6}]]}"#
        #expect(try run(query, on: document) == expected, "\(query)")
    }

    // MARK: Section 2.6: null semantics

    @Test(arguments: [
        ("$.a", ["null"]), ("$.a[0]", []), ("$.a.d", []), ("$.b[0]", ["null"]), ("$.b[*]", ["null"]),
        ("$.b[?@]", ["null"]), ("$.b[?@==null]", ["null"]), ("$.c[?@.d==null]", []), ("$.null", ["1"]),
    ])
    func nullSemantics(query: String, expected: [String]) throws {
        #expect(try run(query, on: #"{"a": null, "b": [null], "c": [{}], "null": 1}"#) == expected, "\(query)")
    }

    // MARK: Names and string literals

    @Test(arguments: [
        (#"$['\u00e9']"#, "1"), (#"$["\u00E9"]"#, "1"), ("$.é", "1"), (#"$['\uD83D\uDE00']"#, "2"), ("$.😀", "2"),
        (#"$['\'']"#, "3"), (#"$["\""]"#, "4"), (#"$['"']"#, "4"), (#"$["'"]"#, "3"), (#"$['\\']"#, "5"),
        (#"$['\/']"#, "6"), (#"$['\b\f\n\r\t']"#, "7"), ("$._x9", "8"), ("$['']", "9"), ("$[' ']", "10"),
    ])
    func namesAndEscapes(query: String, expected: String) throws {
        let document = #"""
            {"é": 1, "😀": 2, "'": 3, "\"": 4, "\\": 5, "/": 6, "\b\f\n\r\t": 7, "_x9": 8, "": 9, " ": 10}
            """#
        #expect(try run(query, on: document) == [expected], "\(query)")
    }

    @Test func namesMatchByScalarsWithoutNormalization() throws {
        #expect(try run("$['e\u{0301}']", on: #"{"é": 1}"#) == [])
        #expect(try run("$['é']", on: #"{"é": 1}"#) == ["1"])
    }

    /// A repeated name is one member, its last value (the parser reads it so, as jq does), by
    /// name and by wildcard alike: `$.*` gave both values while `$.k` gave the last.
    @Test func aRepeatedKeyGivesItsLastValueByNameAndByWildcard() throws {
        #expect(try run("$.k", on: #"{"k": 1, "k": 2}"#) == ["2"])
        #expect(try run("$.*", on: #"{"k": 1, "k": 2}"#) == ["2"])
    }

    @Test func aQueryParsesOnceAndEvaluatesOnManyDocuments() throws {
        let path = try JSONPath("$.items[?@.ok].id")
        #expect(path.expression == "$.items[?@.ok].id")
        #expect(try path.values(in: JSONValue.parse(#"{"items": [{"ok": true, "id": 1}, {"id": 2}]}"#)) == [.number("1")])
        #expect(try path.values(in: JSONValue.parse("[]")) == [])
    }
}
