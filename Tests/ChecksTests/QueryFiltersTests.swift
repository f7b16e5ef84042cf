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
        ([.toInt], "42.9", "42"), ([.toInt], "-42.9", "-42"), ([.toInt], "\"-007\"", "-7"), ([.toInt], "\"+12\"", "12"), ([.keys], "{\"a\":1,\"b\":2}", "[\"a\",\"b\"]"), ([.nth(-1)], "[1,2,3]", "3"),
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
        (.toInt, "\"abc\"", "'| toInt' needs a number, or text that is an integer (digits, a sign before them at most), found a string: \"abc\""),
        // Text is an integer or an error, as Hurl reads it: never the number it starts with.
        (.toInt, "\"12.5\"", "'| toInt' needs a number, or text that is an integer (digits, a sign before them at most), found a string: \"12.5\"; '| toFloat' reads"),
        (.toInt, "\" 12 \"", "'| toInt' needs a number, or text that is an integer (digits, a sign before them at most), found a string: \" 12 \"; '| toFloat'"),
        (.toInt, "\"1e3\"", "'| toInt' needs a number, or text that is an integer"), (.toInt, "\"-\"", "'| toInt' needs a number, or text that is an integer"),
        (.toInt, "\"\"", "'| toInt' needs a number, or text that is an integer"), (.toInt, "\"0x1F\"", "'| toInt' needs a number, or text that is an integer"),
        (.replaceRegex("(", "x"), "\"a\"", "'| replaceRegex': '(' is not a valid regular expression"),
        (.jsonpath("$.a[?lenght(@)]"), "{}", "'| jsonpath': '$.a[?lenght(@)]' is not a JSONPath query: unknown function 'lenght'"),
        (.xpath("//["), "\"<a/>\"", "'| xpath': invalid XPath expression '//['"),
        // A number no JSON number is: an error, not the strings "NaN" and "Infinity".
        (.xpath("0 div 0"), "\"<a/>\"", "'| xpath': '0 div 0' gave NaN (number() of text that is no number, or 0 div 0), which no JSON number is"),
        (.xpath("number(//a)"), "\"<a>n/a</a>\"", "'| xpath': 'number(//a)' gave NaN"),
        (.xpath("1 div 0"), "\"<a/>\"", "'| xpath': '1 div 0' gave Infinity (a division by zero)"),
        (.xpath("-1 div 0"), "\"<a/>\"", "'| xpath': '-1 div 0' gave -Infinity"),
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

/// The filters Hurl documents, held to the outputs Hurl's own documentation and tests give: each
/// expected value names where it comes from, in Orange-OpenSource/hurl: docs/filters.md (its table
/// and examples), integration/hurl/tests_ok/filter/filter.hurl, or a unit test of a filter in
/// packages/hurl/src/runner/filter/.
@Suite struct HurlFilterTests {
    /// The filters in one chain, as a query applies them.
    private static func apply(_ filters: [QueryFilter], to value: JSONValue) throws -> JSONValue {
        try QueryFilters.apply(filters, to: value)
    }

    private static func failure(_ filters: [QueryFilter], on value: JSONValue) -> String? {
        do {
            _ = try apply(filters, to: value)
            return nil
        } catch let failure as QueryFilters.Failure {
            return failure.message
        } catch {
            return "unexpected \(error)"
        }
    }

    /// Hurl's mozilla.org example, with Cyrillic text in the query.
    private static let url = "https://mozilla.org/?x=шеллы"

    @Test func urlEncodeKeepsTheUnreservedCharactersAndTheSlash() throws {
        // docs/filters.md, urlEncode; filter.hurl: `jsonpath "$.url" urlEncode == ...`.
        #expect(try Self.apply([.urlEncode], to: .string(Self.url))
                == .string("https%3A//mozilla.org/%3Fx%3D%D1%88%D0%B5%D0%BB%D0%BB%D1%8B"))
        // RFC 3986, 2.3: unreserved characters are never encoded.
        #expect(try Self.apply([.urlEncode], to: .string("AZaz09-._~/ +&=%")) == .string("AZaz09-._~/%20%2B%26%3D%25"))
        // filter.hurl: `variable "url" urlEncode urlDecode == "{{url}}"`.
        #expect(try Self.apply([.urlEncode, .urlDecode], to: .string(Self.url)) == .string(Self.url))
    }

    @Test func htmlEscapeWritesTheFiveCharactersAsReferences() throws {
        // filter.hurl: `jsonpath "$.text" htmlEscape == "a &gt; b &amp;&amp; a &lt; c"`.
        #expect(try Self.apply([.htmlEscape], to: .string("a > b && a < c")) == .string("a &gt; b &amp;&amp; a &lt; c"))
        // docs/filters.md, htmlEscape: `htmlEscape == "a &gt; b"`.
        #expect(try Self.apply([.htmlEscape], to: .string("a > b")) == .string("a &gt; b"))
        // html/escape.rs (the filter's implementation and test): quotes too, as Python's html.escape.
        #expect(try Self.apply([.htmlEscape], to: .string(#"string with double quote: "baz" and 'q'"#))
                == .string("string with double quote: &quot;baz&quot; and &#x27;q&#x27;"))
        // filter.hurl: `variable "text" htmlEscape htmlUnescape == "{{text}}"`.
        #expect(try Self.apply([.htmlEscape, .htmlUnescape], to: .string(#"a > b && a < c "q" 'r'"#)) == .string(#"a > b && a < c "q" 'r'"#))
    }

    @Test(arguments: [
        // filter.hurl, escaped_html[0..2]; docs/filters.md, htmlUnescape.
        ("a &gt; b &amp;&amp; a &lt; c", "a > b && a < c"),
        ("Foo &#xA9; bar &#x1D306; baz &#x2603; qux", "Foo © bar 𝌆 baz ☃ qux"),
        ("&#65 foo", "A foo"),
        // The WHATWG HTML standard, "numeric character reference end state": without `;`, leading
        // zeros, upper-case X, 0 and surrogates and numbers past U+10FFFF as U+FFFD, 0x80-0x9F as windows-1252.
        ("&#0000065;&#x41X&#X41", "AAXA"), ("&#0;&#xD800;&#x110000;&#99999999999999999999", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
        ("&#x80;&#150;&#x81;", "€–\u{81}"),
        // Legacy names without `;` (HTML5), the longest first; text that is no reference stays.
        ("&copy 2026 &ampx &amp;amp; &lt3", "© 2026 &x &amp; <3"),
        ("& &# &#x &#xy &nosuch; &apos &euro;", "& &# &#x &#xy &nosuch; &apos €"),
    ])
    func htmlUnescapeReadsReferencesAsHTML5Does(input: String, expected: String) throws {
        #expect(try Self.apply([.htmlUnescape], to: .string(input)) == .string(expected))
    }

    @Test func base64FiltersGiveBytesToTheNextFilter() throws {
        // filter.hurl: "file": "0YjQtdC70LvRiw==" and "text_encoded": "PDw_Pz8-Pg".
        let file = JSONValue.string("0YjQtdC70LvRiw==")
        #expect(try Self.apply([.base64Decode, .toHex], to: file) == .string("d188d0b5d0bbd0bbd18b"))
        #expect(try Self.apply([.base64Decode, .base64Encode], to: file) == .string("0YjQtdC70LvRiw=="))
        #expect(try Self.apply([.base64Decode, .base64UrlSafeEncode], to: file) == .string("0YjQtdC70LvRiw"))
        let encoded = JSONValue.string("PDw_Pz8-Pg")
        #expect(try Self.apply([.base64UrlSafeDecode, .toHex], to: encoded) == .string("3c3c3f3f3f3e3e"))
        #expect(try Self.apply([.base64UrlSafeDecode, .base64Encode], to: encoded) == .string("PDw/Pz8+Pg=="))
        #expect(try Self.apply([.base64UrlSafeDecode, .base64UrlSafeEncode], to: encoded) == .string("PDw_Pz8-Pg"))
        // docs/filters.md, base64Encode and base64UrlSafeEncode, on the bytes 3c3c3f3f3f3e3e.
        let bytes: [UInt8] = [0x3c, 0x3c, 0x3f, 0x3f, 0x3f, 0x3e, 0x3e]
        #expect(try QueryFilters.apply(.base64Encode, toBytes: bytes) == .string("PDw/Pz8+Pg=="))
        #expect(try QueryFilters.apply(.base64UrlSafeEncode, toBytes: bytes) == .string("PDw_Pz8-Pg"))
        // docs/filters.md, toHex: `bytes toHex == "d188d0b5d0bbd0bbd18b"`, the UTF-8 of шеллы.
        #expect(try QueryFilters.apply(.toHex, toBytes: Array("шеллы".utf8)) == .string("d188d0b5d0bbd0bbd18b"))
        // Bytes that are not UTF-8 keep every byte (0xff, 0xfb): in hex, and as hex: text at the end.
        #expect(try Self.apply([.base64Decode, .toHex], to: .string("iVBOR/8=")) == .string("89504e47ff"))
        #expect(try Self.apply([.base64UrlSafeDecode, .length], to: .string("-_8=")) == .number("2"))
        #expect(try Self.apply([.base64UrlSafeDecode], to: .string("-_8")) == .string("hex:fbff"))
        // A query that ends in UTF-8 bytes gives their text, as base64Decode always has.
        #expect(try Self.apply([.base64Decode], to: .string("QWRh")) == .string("Ada"))
        #expect(try Self.apply([.base64Decode, .upper], to: .string("QWRh")) == .string("ADA"))
    }

    /// Text that is no base64 is refused, as Python's `b64decode(validate=True)`, GNU base64 and
    /// Hurl refuse it: Foundation read `====` as one zero byte and `QQ=x` as `AA`, so `expect .f |
    /// base64Decode == hex:00` held on `"===="`.
    @Test(arguments: ["====", "QQ=x", "QQ==QQ==", "Q===", "QQ=", "=QQ=", "QQ", "Q Q="])
    func base64DecodeAndTheByteLiteralRefuseWhatIsNoBase64(_ text: String) throws {
        #expect(Self.failure([.base64Decode], on: .string(text))?.hasPrefix("'| base64Decode' needs base64 text") == true, "\(text)")
        #expect(throws: ByteLiteral.Failure.self) { try ByteLiteral.bytes("base64:" + text, quoted: false, directory: "/") }
    }

    @Test func base64UrlSafeDecodeRefusesAnotherAlphabet() throws {
        // base64_url_safe_decode.rs: "!@#" is not base64. `+` and `/` belong to the other alphabet.
        #expect(Self.failure([.base64UrlSafeDecode], on: .string("!@#"))?.hasPrefix("'| base64UrlSafeDecode' needs base64url text") == true)
        #expect(Self.failure([.base64UrlSafeDecode], on: .string("PDw/Pz8+Pg")) != nil)
        #expect(Self.failure([.base64UrlSafeDecode], on: .string("PDw_Pz8-Pg=")) != nil)
        // RFC 4648, section 5: padding may be written; Hurl refuses it, wsh reads it.
        #expect(try Self.apply([.base64UrlSafeDecode, .toHex], to: .string("PDw_Pz8-Pg==")) == .string("3c3c3f3f3f3e3e"))
    }

    @Test func utf8EncodeAndDecode() throws {
        // docs/filters.md, utf8Decode: `base64Decode utf8Decode == "Hello World"`.
        #expect(try Self.apply([.base64Decode, .utf8Decode], to: .string("SGVsbG8gV29ybGQ=")) == .string("Hello World"))
        // utf8_decode.rs: what is not UTF-8 becomes U+FFFD ("Hello \xF0\x90\x80World").
        #expect(try Self.apply([.base64Decode, .utf8Decode], to: .string("SGVsbG8g8JCAV29ybGQ=")) == .string("Hello \u{FFFD}World"))
        #expect(try QueryFilters.apply(.utf8Decode, toBytes: [0xF0, 0x9F, 0x8D, 0x8E, 0xF0, 0x9F, 0x8D, 0x8C]) == .string("🍎🍌"))
        // docs/filters.md, utf8Encode: `utf8Encode toHex == "636166C3A9"` for café; Hurl's toHex
        // writes lower-case digits (its filter.hurl: "d188d0b5d0bbd0bbd18b"), as wsh's hex does.
        #expect(try Self.apply([.utf8Encode, .toHex], to: .string("café")) == .string("636166c3a9"))
        #expect(try Self.apply([.utf8Encode, .length], to: .string("café")) == .number("5"))
        #expect(try Self.apply([.length], to: .string("café")) == .number("4"))
        // Text filters read bytes as UTF-8 text only when they are.
        #expect(Self.failure([.base64Decode, .upper], on: .string("iVBOR/8="))
                == "'| upper' needs text, found bytes that are not UTF-8: hex:89504e47ff; utf8Decode or charsetDecode NAME makes text of them")
        // utf8Decode takes bytes, as Hurl's does; a string is text already.
        #expect(Self.failure([.utf8Decode], on: .string("abc"))?.hasPrefix("'| utf8Decode' needs bytes") == true)
    }

    @Test func charsetDecodeReadsBytesInACharset() throws {
        // charset_decode.rs: 你好世界 in UTF-8 and in gb2312.
        let chinese: [UInt8] = [0xe4, 0xbd, 0xa0, 0xe5, 0xa5, 0xbd, 0xe4, 0xb8, 0x96, 0xe7, 0x95, 0x8c]
        #expect(try QueryFilters.apply(.charsetDecode("utf-8"), toBytes: chinese) == .string("你好世界"))
        #expect(try QueryFilters.apply(.charsetDecode("gb2312"), toBytes: [0xc4, 0xe3, 0xba, 0xc3, 0xca, 0xc0, 0xbd, 0xe7]) == .string("你好世界"))
        #expect(try Self.apply([.base64Decode, .charsetDecode("GB2312")], to: .string("xOO6w8rAvec=")) == .string("你好世界"))
        // WHATWG Encoding: latin1 is windows-1252, whose 0x80 is the euro sign.
        #expect(try QueryFilters.apply(.charsetDecode("latin1"), toBytes: [0x63, 0x61, 0x66, 0xe9, 0x80]) == .string("café€"))
        // charset_decode.rs: an unknown encoding, bytes that are not gb2312, a string.
        #expect(throws: QueryFilters.Failure.self) { try QueryFilters.apply(.charsetDecode("xxx"), toBytes: []) }
        do {
            _ = try QueryFilters.apply(.charsetDecode("gb2312"), toBytes: [0xc4, 0x00])
            Issue.record("0xc4 0x00 is not gb2312")
        } catch let failure as QueryFilters.Failure {
            #expect(failure.message == "'| charsetDecode gb2312': byte 0 starts no gb2312 character (hex:c400...)")
        }
        #expect(Self.failure([.charsetDecode("utf-8")], on: .string("café"))?.hasPrefix("'| charsetDecode' needs bytes") == true)
        #expect(Self.failure([.charsetDecode("nosuch")], on: .string("QQ==")) != nil)
        // iconv would read an empty name as the locale's charset.
        #expect(throws: QueryFilters.Failure.self) { try QueryFilters.apply(.charsetDecode(""), toBytes: [0x41]) }
        #expect(Self.failure([.base64Decode, .charsetDecode("nosuch")], on: .string("QQ=="))
                == "'| charsetDecode': 'nosuch' is not a charset this system knows (utf-8, latin1, gb2312, shift_jis, ...)")
    }

    @Test func countIsHurlsNameForLength() throws {
        // filter.hurl: `jsonpath "$.list" count == 3`, `jsonpath "$.ips" split ", " count == 3`.
        #expect(try Self.apply([.count], to: .array([.number("1"), .number("2"), .number("3")])) == .number("3"))
        #expect(try Self.apply([.split(", "), .count], to: .string("192.168.2.1, 10.0.0.20, 10.0.0.10")) == .number("3"))
        #expect(QueryFilter(name: "count", arguments: []) == .count)
        // As Hurl's count, a string is refused: a list that became the text "abc" must not count 3.
        #expect(Self.failure([.count], on: .string("abc")) == "'| count' needs a list or object (a string's length is '| length'), found a string: abc")
        #expect(try Self.apply([.length], to: .string("abc")) == .number("3"))
        #expect(QueryFilter(name: "toHex", arguments: []) == .toHex)
        #expect(try Self.apply([.toHex], to: .string("Ada")) == Self.apply([.hex], to: .string("Ada")))
    }

    @Test func urlQueryParamGivesAParametersDecodedValue() throws {
        // filter.hurl: `urlQueryParam "x" == "шеллы"` on the URL as written and percent-encoded.
        #expect(try Self.apply([.urlQueryParam("x")], to: .string(Self.url)) == .string("шеллы"))
        #expect(try Self.apply([.urlQueryParam("x")], to: .string("https://mozilla.org/?x=%D1%88%D0%B5%D0%BB%D0%BB%D1%8B")) == .string("шеллы"))
        // url_query_param.rs.
        #expect(try Self.apply([.urlQueryParam("text")], to: .string("http://localhost:8000/api/v1/doc?text=你好世界")) == .string("你好世界"))
        // As a form reads a query (WHATWG URL, application/x-www-form-urlencoded): `+` is a space,
        // the first of a repeated name counts, a name alone has "", the fragment is not the query.
        let url = JSONValue.string("/next?a=1&b=x+y%2Bz&a=2&flag&c=3#c=4")
        #expect(try Self.apply([.urlQueryParam("a")], to: url) == .string("1"))
        #expect(try Self.apply([.urlQueryParam("b")], to: url) == .string("x y+z"))
        #expect(try Self.apply([.urlQueryParam("flag")], to: url) == .string(""))
        #expect(try Self.apply([.urlQueryParam("c")], to: url) == .string("3"))
        // filter.hurl: `urlQueryParam "y" not exists`: a miss, as a missing key is.
        do {
            _ = try Self.apply([.urlQueryParam("y")], to: .string(Self.url))
            Issue.record("there is no y")
        } catch let failure as QueryFilters.Failure {
            #expect(failure.foundNothing)
            #expect(failure.message == "'| urlQueryParam y' found no parameter 'y' in https://mozilla.org/?x=шеллы")
        }
        #expect(Self.failure([.urlQueryParam("x")], on: .number("1")) == "'| urlQueryParam' needs a string, found a number: 1")
    }

    @Test func toDateReadsFractionsOfASecondAndKeepsThem() throws {
        // docs/filters.md, toDate: "2023-01-23T18:25:43.511Z" read with %.f and with %+ is a Monday.
        let published = JSONValue.string("2023-01-23T18:25:43.511Z")
        #expect(try Self.apply([.toDate("%Y-%m-%dT%H:%M:%S%.fZ"), .dateFormat("%A")], to: published) == .string("Monday"))
        #expect(try Self.apply([.toDate("%+"), .dateFormat("%A")], to: published) == .string("Monday"))
        #expect(try Self.apply([.toDate("%Y-%m-%dT%H:%M:%S%.fZ")], to: published) == published)
        #expect(try Self.apply([.toDate(nil)], to: published) == published)
        #expect(try Self.apply([.toDate(nil), .format("%H:%M:%S%.3f %.6f %9f")], to: published) == .string("18:25:43.511 .511000 511000000"))
        // chrono's %.f: 0, 3, 6 or 9 digits, as many as the fraction needs; nine digits are kept exactly.
        #expect(try Self.apply([.toDate(nil)], to: .string("2026-11-25T08:00:00.1+01:00")) == .string("2026-11-25T07:00:00.100Z"))
        #expect(try Self.apply([.toDate(nil)], to: .string("2026-11-25T08:00:00.123456789Z")) == .string("2026-11-25T08:00:00.123456789Z"))
        #expect(try Self.apply([.toDate("%d.%m.%Y %H:%M:%S%.f")], to: .string("25.11.2026 08:00:00.0001")) == .string("2026-11-25T08:00:00.000100Z"))
    }

    @Test(arguments: [
        // docs/filters.md, toDate: an Expires header.
        ("Wed, 21 Oct 2015 07:28:00 GMT", "%a, %d %b %Y %H:%M:%S GMT", "2015-10-21T07:28:00Z"),
        // to_date.rs: with an offset, without one, a date alone.
        ("2020-08-27 09:07:46 +02:00", "%Y-%m-%d %H:%M:%S %:z", "2020-08-27T07:07:46Z"),
        ("2020-08-27 09:07:46", "%Y-%m-%d %H:%M:%S", "2020-08-27T09:07:46Z"),
        ("2020-08-27", "%Y-%m-%d", "2020-08-27T00:00:00Z"),
        // chrono's reading: names in any case, %B the long name or three letters, numbers of one
        // digit, any blanks for a blank, %p, %j, %s, %Z as UTC or GMT, offsets with or without a colon.
        ("thursday 27 AUGUST 2020", "%A %d %B %Y", "2020-08-27T00:00:00Z"), ("27 Aug 2020", "%d %B %Y", "2020-08-27T00:00:00Z"),
        ("7/8/2001  9:05 pm", "%m/%d/%Y %I:%M %p", "2001-07-08T21:05:00Z"), ("12:30 AM 2001-189", "%I:%M %p %Y-%j", "2001-07-08T00:30:00Z"),
        ("994552499", "%s", "2001-07-08T00:34:59Z"), ("2001-07-08 00:34:59 UTC", "%F %T %Z", "2001-07-08T00:34:59Z"),
        ("2001-07-08T09:34:59+0900", "%FT%T%z", "2001-07-08T00:34:59Z"), ("2001-07-08T00:34:59Z", "%FT%T%z", "2001-07-08T00:34:59Z"),
        ("20010708", "%Y%m%d", "2001-07-08T00:00:00Z"), ("2001-07-08t00:34:59-00:30", "%+", "2001-07-08T01:04:59Z"),
    ])
    func toDateReadsAFormatAsChronoDoes(text: String, format: String, expected: String) throws {
        #expect(try Self.apply([.toDate(format)], to: .string(text)) == .string(expected))
    }

    @Test(arguments: [
        // to_date.rs: "ymd" does not read 2020-08-27. Then: a weekday that is not the date's
        // (13 Jan 2021 is a Wednesday), %b's three letters, no such day, trailing text, a zone
        // name that is not UTC (an abbreviation names no one offset), no year.
        ("2020-08-27", "ymd"), ("Thu, 13 Jan 2021", "%a, %d %b %Y"), ("13 January 2021", "%d %b %Y"),
        ("2021-02-29", "%Y-%m-%d"), ("2021-02-28 x", "%Y-%m-%d"), ("2021-02-28 08:00 CET", "%Y-%m-%d %H:%M %Z"), ("02-28", "%m-%d"),
        // More digits than a timestamp can hold, or an hour past 23, do not fit (and stop nothing).
        ("99999999999999999999", "%s"), ("2021-02-28 24:00", "%Y-%m-%d %H:%M"), ("2021-02-28 13:00 pm", "%Y-%m-%d %I:%M %p"),
    ])
    func toDateFailsOnTextThatDoesNotFit(text: String, format: String) {
        #expect(Self.failure([.toDate(format)], on: .string(text)) == "'| toDate' needs a date in the format '\(format)', found a string: \(text)")
    }

    @Test func dateFormatWritesChronosCodes() throws {
        // docs/filters.md, dateFormat (formerly format): the LSID cookie's expiry.
        #expect(try Self.apply([.dateFormat("%a, %d %b %Y %H:%M:%S")], to: .string("2021-01-13T22:23:01Z")) == .string("Wed, 13 Jan 2021 22:23:01"))
        // format.rs: 2025-01-01 as %m/%d/%Y.
        #expect(try Self.apply([.format("%m/%d/%Y")], to: .string("2025-01-01T00:00:00Z")) == .string("01/01/2025"))
        // chrono's table of specifiers (format::strftime), for Sunday 2001-07-08 00:34:59.026490 UTC.
        let date = JSONValue.string("2001-07-08T00:34:59.026490Z")
        let written: [(String, String)] = [
            ("%Y %C %y %m %b %B %h", "2001 20 01 07 Jul July Jul"), ("%d %e %a %A %w %u", "08  8 Sun Sunday 0 7"),
            ("%U %W %G %g %V %j", "27 27 2001 01 27 189"), ("%D|%x|%F|%v", "07/08/01|07/08/01|2001-07-08| 8-Jul-2001"),
            ("%H %k %I %l %P %p %M %S", "00  0 12 12 am AM 34 59"), ("%f|%.f|%.3f|%.6f|%.9f|%3f|%6f|%9f", "026490000|.026490|.026|.026490|.026490000|026|026490|026490000"),
            ("%R|%T|%X|%r", "00:34|00:34:59|00:34:59|12:34:59 AM"), ("%Z %z %:z %::z %:::z", "UTC +0000 +00:00 +00:00:00 +00"),
            ("%c", "Sun Jul  8 00:34:59 2001"), ("%+", "2001-07-08T00:34:59.026490+00:00"), ("%s", "994552499"),
            ("%t|%n|%%", "\t|\n|%"), ("%-d %-j %_m %0e %-H", "8 189  7 08 0"),
        ]
        for (format, expected) in written {
            #expect(try Self.apply([.format(format)], to: date) == .string(expected), "\(format)")
        }
        // ISO 8601's week-numbering year: 2027-01-01 is in week 53 of 2026.
        #expect(try Self.apply([.format("%G-W%V-%u %U %W")], to: .string("2027-01-01")) == .string("2026-W53-5 00 00"))
    }

    @Test func anUnknownStrftimeCodeIsAnErrorNamingIt() {
        // format.rs: "%%%" is an invalid format specifier; so is any code chrono does not have.
        let known = StrftimeFormat.codes
        #expect(Self.failure([.format("%Q")], on: .string("2026-11-25")) == "'| format': '%Q' is not a strftime code; the codes are \(known)")
        #expect(Self.failure([.dateFormat("%Y-%Q")], on: .string("2026-11-25")) == "'| dateFormat': '%Q' is not a strftime code; the codes are \(known)")
        #expect(Self.failure([.toDate("%d %Q")], on: .string("25 x")) == "'| toDate': '%Q' is not a strftime code; the codes are \(known)")
        #expect(Self.failure([.format("%%%")], on: .string("2026-11-25"))
                == "'| format': the format ends in '%', a code cut short (write %% for a percent sign)")
        #expect(Self.failure([.format("%.2f")], on: .string("2026-11-25"))?.hasPrefix("'| format': '%.2' is not a strftime code") == true)
        #expect(Self.failure([.format("%-Z")], on: .string("2026-11-25")) == "'| format': '%-Z': only a number takes a padding modifier (%-d, %_H, %0e)")
        #expect(QueryFilter.format("%Q").argumentProblem == "'%Q' is not a strftime code; the codes are \(known)")
        #expect(QueryFilter.toDate("%F %T%.f").argumentProblem == nil)
        #expect(QueryFilter.toDate(nil).argumentProblem == nil)
    }

    @Test func theCalendarAgreesWithItselfOverFourHundredYears() {
        // The proleptic Gregorian calendar repeats every 400 years (146 097 days): each day's date
        // read back is the same day, and each next day is the next date.
        var previous = CivilTime.date(fromDays: -1)
        for days in 0..<146_097 {
            let date = CivilTime.date(fromDays: days)
            let next = date.day > 1 ? (previous.year, previous.month, previous.day + 1)
                : date.month > 1 ? (previous.year, previous.month + 1, 1) : (previous.year + 1, 1, 1)
            if date != next || CivilTime.days(year: date.year, month: date.month, day: date.day) != days {
                Issue.record("\(date) after \(previous) is not day \(days)")
                break
            }
            previous = date
        }
        #expect(CivilTime.date(fromDays: 0) == (1970, 1, 1))
        let before = CivilTime(Moment(seconds: -1, nanoseconds: 0))
        #expect((before.year, before.month, before.day, before.hour, before.minute, before.second) == (1969, 12, 31, 23, 59, 59))
    }
}

/// Strings are cut and counted by Unicode scalars, as jq and RFC 9535 do: `\r\n` is two, and a
/// decomposed `é` holds an `e` (by Swift's characters, `"a\r\nb" | split "\n"` found no `\n`).
@Suite struct ScalarTextTests {
    @Test func lengthSplitAndReplaceGoByScalars() throws {
        #expect(try QueryFilters.apply([.length], to: .string("a\r\nb")) == .number("4"))
        #expect(try QueryFilters.apply([.length], to: .string("cafe\u{301}")) == .number("5"))
        #expect(try QueryFilters.apply([.split("\n"), .length], to: .string("a\r\nb")) == .number("2"))
        #expect(try QueryFilters.apply([.split("e")], to: .string("cafe\u{301}")) == .array([.string("caf"), .string("\u{301}")]))
        #expect(try QueryFilters.apply([.replace("e", "E")], to: .string("cafe\u{301}!")) == .string("cafE\u{301}!"))
        #expect(try QueryFilters.apply([.split(",")], to: .string(",a,,b,")) == .array(["", "a", "", "b", ""].map(JSONValue.string)))
    }
}
