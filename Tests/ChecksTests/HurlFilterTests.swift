import Targets
import Testing
@testable import Checks

/// The filters Hurl documents, held to the outputs Hurl's own documentation and tests give: each
/// expected value names where it comes from, in Orange-OpenSource/hurl: docs/filters.md (its table
/// and examples), integration/hurl/tests_ok/filter/filter.hurl, or a unit test of a filter in
/// packages/hurl/src/runner/filter/.
@Suite struct HurlFilterTests {
    private static func apply(_ filters: [QueryFilter], to value: JSONValue) throws -> JSONValue {
        var value = value
        for filter in filters { value = try QueryFilters.apply(filter, to: value) }
        return value
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
}
