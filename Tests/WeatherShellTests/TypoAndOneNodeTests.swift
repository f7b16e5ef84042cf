import Foundation
import TestSupport
import Testing
@testable import WeatherShell

/// Wrong answers a checks tester found passing (report test-checks2, C3, C6, C11, C12): JSONPath
/// typos after a filter, a union or a stepped slice, or in `| jsonpath`; emptiness and list tests
/// on the one value a `[? ]` picked; invisible format characters; XPath element-name typos.
@Suite struct TypoAndOneNodeTests {
    static let routes: [String: StaticRoute] = [
        "/items": StaticRoute(body: #"{"items":[{"id":1,"name":"a","tags":["x"]},{"id":2,"name":"b","tags":[]}],"data":{"items":[{"id":1,"name":"a"}]},"error":null}"#),
        "/users": StaticRoute(body: #"{"users":[{"id":1,"name":"Bob","e":"","tags":[]},{"id":2,"name":"Ann","e":"x","tags":"x"}],"codes":["a",""]}"#),
        "/zw": StaticRoute(body: #"{"s":"a\u200bb","h":"ab\u00adc","j":"a\u200db","b":"\ufeffab"}"#),
        "/page": StaticRoute(contentType: "text/html", body: "<html><head><title>Home</title></head><body><p>x</p><ul><li>1</li></ul></body></html>"),
    ]

    static func run(_ path: String, _ script: String, on server: TestServer) async -> (halt: Halt?, stderr: String) {
        await WrongAnswerTests.run(path, script, on: server)
    }

    /// A JSONPath typo after a filter, a union or a stepped slice, or in `| jsonpath`, is the
    /// error its wsh-path spelling is (tester C3, reviewer R4): `isEmpty` held whatever the answer.
    @Test func aJSONPathTypoAfterAFilterOrAUnionIsAnError() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            for script in [#"expect $.items[?@.nmae == "a"] isEmpty"#, "expect $.items[?@.id==1].nmae isEmpty",
                           "if $.items[?@.id==1].nmae isEmpty { echo taken }", "expect $.items[0,1].nmae isEmpty",
                           "expect $.items[::2].nmae isEmpty", #"expect body | jsonpath "$.items[*].nmae" isEmpty"#,
                           #"expect . | jsonpath "$.items[*].nmae" isEmpty"#, "for x in $.items[?@.id==1].nmae { echo $x }",
                           #"expect $.items[?match(@.nmae, "a")] isEmpty"#, "expect $.items[?@.id==1].nmae | length == 0",
                           #"expect .data | jsonpath "$.items[?@.id==1].nmae" == []"#,
                           // Every key a filter reads, not only its first (review-checks4 L3).
                           #"expect $.items[?@.id==1 && @.nmae == "a"] isEmpty"#, #"expect $.items[?@.id==7 || @.nmae == "a"] isEmpty"#,
                           #"expect $.items[?@.id == @.nmae] isEmpty"#] {
                let result = await Self.run("/items", script, on: server)
                #expect(result.halt != nil && result.stderr.contains("(did you mean 'name'?)"), "\(script): \(result.stderr)")
                if case .failure(.expectation)? = result.halt { Issue.record("\(script) failed as a check, not as an error") }
            }
            // A key missing before the query fans out is nothing there, as `.itmes[*].name` is: the check fails, naming the key.
            for (script, close) in [("expect $.itmes[*].name isEmpty", "items"), ("expect $.dta.items[*].name isEmpty", "data"),
                                    ("expect $.itmes[*].name == []", "items"), (#"expect body | jsonpath "$.itmes[*]" isEmpty"#, "items")] {
                let result = await Self.run("/items", script, on: server)
                guard case .failure(.expectation)? = result.halt else { Issue.record("'\(script)' did not fail as a check: \(result.stderr)"); continue }
                #expect(result.stderr.contains("(did you mean '\(close)'?)"), "\(script): \(result.stderr)")
            }
        }
    }

    /// A key absent where none is close, or where the close one is its singular or plural in the
    /// JSONPath forms 0.4.10 first checks (`$.errors[*]` beside `error`, `[?@.tag == "x"]` beside
    /// `tags`), is an answer, not a typo (reviewer R1). A wsh path's (`.items[*].tag`) is a typo, as in 0.4.9.
    @Test func anAbsentKeyOrItsPluralIsNoTypo() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            for script in ["expect $.errors[*].message isEmpty", "expect $.errors[*] | length == 0", "for e in $.errors[*].message { exit 4 }",
                           "let n = $.errors[*] | length\nexpect $n == 0",
                           #"expect $.items[?@.tag == "x"] isEmpty"#, #"expect body | jsonpath "$.errors[*]" isEmpty"#, "expect $.items[?@.id==1].nope isEmpty",
                           "expect $.items[?@.deleted == true] isEmpty", "expect $.items[?@.id==9].nmae isEmpty",
                           #"expect $.items[*].nmae not exists"#, #"expect . | jsonpath "$.items[*].nmae" not exists"#] {
                let result = await Self.run("/items", script, on: server)
                #expect(result.halt == nil, "\(script): \(result.stderr)")
            }
        }
    }

    /// `isEmpty`, `isList` and `isCollection` on the one value a `[? ]` picked and a key read test
    /// that value, as `isObject` and `==` do (tester C6): `.users[? .id == 1].e not isEmpty` held
    /// on `""`. A list a `[? ]` or `[*]` ends with is still a list to them (review M1), and a list
    /// of none is an empty list.
    @Test func emptinessAndListTestsOnOneValueTestTheValue() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            for check in ["expect .users[? .id == 1].e not isEmpty", "expect .users[? .id == 2].tags isList",
                          "expect $.users[?@.id == 2].tags isCollection", "expect .users[? .id == 1] not isList",
                          "expect .users[? .id == 2].tags isEmpty", #"expect .codes[? . == ""] isEmpty"#,
                          #"expect .users[? .e == ""] isEmpty"#, "expect $.users[?@.id == 1].e not isEmpty"] {
                let result = await Self.run("/users", check, on: server)
                guard case .failure(.expectation)? = result.halt else { Issue.record("'\(check)' did not fail as a check: \(result.stderr)"); continue }
            }
            for check in ["expect .users[? .id == 1].tags isEmpty", "expect .users[? .id == 1].e isEmpty", "expect .users[? .id == 9] isEmpty",
                          "expect .users[? .id == 1] isObject", "expect .users[? .id == 1] isList", "expect .users[? .id == 1].tags isList",
                          "expect .users[? .id == 1] | length == 1", "expect $.users[?@.id == 1].tags isEmpty", #"expect .users[? .e == "zz"] isEmpty"#,
                          #"expect .codes[? . == ""] not isEmpty"#, "expect .users[*] not isEmpty", "expect .users[*].e not isEmpty"] {
                let result = await Self.run("/users", check, on: server)
                #expect(result.halt == nil, "\(check): \(result.stderr)")
            }
            // A list `[*]` made is a list to `isList` (review M1), as in 0.4.9.
            let two = await Self.run("/users", "expect .users[*].tags isList", on: server)
            #expect(two.halt == nil, "\(two.stderr)")
        }
    }

    /// Strings that differ by an invisible format character (U+200B, U+00AD, U+200D, U+FEFF)
    /// show alike: the failure says where they differ (tester C11).
    @Test func invisibleFormatCharactersSayWhereTheyDiffer() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            for (check, note) in [(#"expect .s == "ab""#, "differ at character 2: expected U+0062, actual U+200B U+0062"),
                                  (#"expect .h == "abc""#, "differ at character 3: expected U+0063, actual U+00AD U+0063"),
                                  (#"expect .j == "ab""#, "differ at character 2: expected U+0062, actual U+200D U+0062"),
                                  (#"expect .b == "ab""#, "differ at character 1: expected U+0061 U+0062, actual U+FEFF U+0061")] {
                let result = await Self.run("/zw", check, on: server)
                guard case .failure(.expectation)? = result.halt else { Issue.record("'\(check)' did not fail: \(result.stderr)"); continue }
                #expect(result.stderr.contains("they show alike but " + note), "\(check): \(result.stderr)")
            }
        }
    }

    /// An XPath element name that appears nowhere in the page while a close one does is an error
    /// naming it (tester C12): `xpath "//tittle" isEmpty` held on any page.
    @Test func anXPathElementNameTypoIsAnError() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            for script in [#"expect body | xpath "//tittle" isEmpty"#,
                           #"expect body | xpath "//tittle" | count == 0"#, #"expect body | xpath "/html/head/tittle/text()" isEmpty"#,
                           #"expect body | xpath "//html/bodyy/p" isEmpty"#] {
                let result = await Self.run("/page", script, on: server)
                #expect(result.halt != nil && result.stderr.contains("did you mean '"), "\(script): \(result.stderr)")
                if case .failure(.expectation)? = result.halt { Issue.record("\(script) failed as a check, not as an error") }
            }
            for script in [#"expect body | xpath "//h1" isEmpty"#, #"expect body | xpath "//nav" not exists"#, #"expect body | xpath "//tittle" not exists"#, #"expect body | xpath "//title" == "Home""#,
                           #"expect body | xpath "//li[. = 5]" isEmpty"#, #"expect body | xpath "//ol/li" isEmpty"#, #"expect body | xpath "//lis" isEmpty"#] {
                let result = await Self.run("/page", script, on: server)
                #expect(result.halt == nil, "\(script): \(result.stderr)")
            }
        }
    }
}
