import Targets
import Testing
@testable import Checks

/// Filters and the path walk on JSON values, with the exact errors a user sees.
@Suite struct QueryFiltersTests {
    private static func json(_ text: String) -> JSONValue {
        (try? JSONValue.parse(text)) ?? .string("unparsable: \(text)")
    }

    private static func apply(_ filters: [QueryFilter], to text: String) throws -> JSONValue {
        var value = json(text)
        for filter in filters { value = try QueryFilters.apply(filter, to: value) }
        return value
    }

    @Test(arguments: [
        ([QueryFilter.length], "[1,2,3]", "3"), ([.split("@"), .last, .upper], "\"kim@example.com\"", "\"EXAMPLE.COM\""),
        ([.replaceRegex("([0-9]+)-([0-9]+)", "$2/$1")], "\"12-34 and 5-6\"", "\"34/12 and 6/5\""),
        ([.replaceRegex("x*", "-")], "\"ab\"", "\"-a-b-\""), ([.regex("id=([0-9]+)")], "\"?id=42&x\"", "\"42\""),
        ([.toInt], "\"42.9\"", "42"), ([.keys], "{\"a\":1,\"b\":2}", "[\"a\",\"b\"]"), ([.nth(-1)], "[1,2,3]", "3"),
        ([.jsonpath("$.a[?@.n > 1].n")], "{\"a\":[{\"n\":1},{\"n\":2},{\"n\":3}]}", "[2,3]"),
        ([.jsonpath("$.a[0].n")], "{\"a\":[{\"n\":1}]}", "1"), ([.jsonpath("$.a")], "\"{\\\"a\\\": true}\"", "true"),
        ([.xpath("count(//li)")], "\"<ul><li>a</li><li>b</li></ul>\"", "2"),
        ([.xpath("//li")], "\"<html><body><ul><li>a<li>b</ul>\"", "[\"a\",\"b\"]"),
        ([.sha256], "\"\"", "\"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\""),
        // toFloat gives the nearest double, shortest: Hurl's `0.1000000000000000055511151231257827 == 0.1` holds.
        ([.toFloat], "0.1000000000000000055511151231257827", "0.1"), ([.toFloat], "\"3\"", "3.0"), ([.toFloat], "1e2", "100.0"),
    ])
    func filtersChain(filters: [QueryFilter], input: String, expected: String) throws {
        #expect(try Self.apply(filters, to: input) == Self.json(expected), "\(filters) on \(input)")
    }

    @Test(arguments: [
        (QueryFilter.upper, "[1]", "'| upper' needs a string, found an array: [1]"),
        (.nth(5), "[1,2]", "'| nth 5' is outside a list of 2"),
        (.toInt, "\"abc\"", "'| toInt' needs a number, or text that reads as one, found a string: abc"),
        (.replaceRegex("(", "x"), "\"a\"", "'| replaceRegex': '(' is not a valid regular expression"),
        (.jsonpath("$.a[?lenght(@)]"), "{}", "'| jsonpath': '$.a[?lenght(@)]' is not a JSONPath query: unknown function 'lenght'"),
        (.xpath("//["), "\"<a/>\"", "'| xpath': invalid XPath expression '//['"),
        (.first, "[]", "'| first' found an empty list"),
        (.regex("id=([0-9]+)"), "\"no ids\"", "'| regex id=([0-9]+)' found no match"),
        (.toFloat, "\"1e400\"", "'| toFloat' needs a number, or text that reads as one, within a double's range"),
    ])
    func aFilterThatCannotApplySaysWhy(filter: QueryFilter, input: String, message: String) {
        do {
            _ = try QueryFilters.apply(filter, to: Self.json(input))
            Issue.record("\(filter) on \(input) should fail")
        } catch let failure as QueryFilters.Failure {
            #expect(failure.message.hasPrefix(message), "\(failure.message)")
            // A regex with no match reached nothing, as a path that reaches nothing: `not exists` holds.
            #expect(failure.foundNothing == message.hasSuffix("found no match") || message.hasSuffix("empty list"), "\(failure)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func bytesTakeTheirOwnFilters() throws {
        let bytes: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0xff]
        #expect(try QueryFilters.apply(.length, toBytes: bytes) == .number("5"))
        #expect(try QueryFilters.apply(.hex, toBytes: bytes) == .string("89504e47ff"))
        #expect(try QueryFilters.apply(.base64Encode, toBytes: bytes) == .string("iVBOR/8="))
        #expect(throws: QueryFilters.Failure.self) { try QueryFilters.apply(.upper, toBytes: bytes) }
        #expect(try ByteLiteral.bytes("hex:89 50_4E", quoted: false, directory: "/") == [0x89, 0x50, 0x4e])
        #expect(try ByteLiteral.bytes("base64:iVBOR/8=", quoted: false, directory: "/") == bytes)
        #expect(try ByteLiteral.bytes("hex:12", quoted: true, directory: "/") == Array("hex:12".utf8))
        #expect(throws: ByteLiteral.Failure.self) { try ByteLiteral.bytes("hex:123", quoted: false, directory: "/") }
    }

    @Test func theWalkGoesOverListsAndKeepsWhatAConditionHolds() throws {
        let store = Self.json(#"{"books":[{"id":1,"price":9},{"id":2,"price":12},{"id":3}],"owner":{"id":7}}"#)
        let cheap: [QueryStep<Int>] = [.key("books"), .filter(10), .key("id")]
        let found = JSONWalk.walk(store, cheap) { limit, element in
            guard case .number(let price)? = element["price"], let value = Int(price) else { return false }
            return value < limit
        }
        #expect(found.value == Self.json("[1]"))
        let ids: [QueryStep<Int>] = [.descendants("id")]
        #expect(JSONWalk.walk(store, ids) { _, _ in false }.value == Self.json("[1,2,3,7]"))
        let missing: [QueryStep<Int>] = [.key("owner"), .key("idd")]
        #expect(JSONWalk.walk(store, missing) { _, _ in false }.missing == "no key 'idd' at .owner (did you mean 'id'?); keys: id")
    }
}
