import Foundation
import TestSupport
import Testing
@testable import WeatherShell

/// `body "TEXT"` writes each variable for where it stands (issue 39.1): a value holding `"`, `\n`,
/// `&` or `<` cannot break the body or add fields to it. Each body is sent to the loopback
/// server's `/echo`, and what the server received is parsed as the body's kind.
@Suite struct BodyTemplateTests {
    /// The body the server received for a POST of target `t`, declared with `fields` after `lets`.
    @ShellActor private static func received(_ lets: String, _ fields: String, on server: TestServer, header: String? = nil) async throws -> String {
        let shell = ShellHarness()
        let query = header.map { "$.headers[?@[0] == '\($0)'][1] | first" } ?? ".body"
        let halt = await shell.run("""
            set output quiet
            \(lets)
            target t { base \(server.baseURL); path /echo; method POST; \(fields) }
            call t
            let sent = "none"
            if \(query) exists { let sent = \(query) }
            echo $sent
            """)
        #expect(halt == nil, "\(shell.stderr)")
        return String(shell.stdout.dropLast())
    }

    static let hostile = #"let v = "a\"b\nc\\"; let n = 3"#

    @Test func inAJSONBodyAValueIsAStringInsideQuotesAndJSONOfItsTypeOutside() async throws {
        try await TestServer.with { server in
            let body = try await Self.received(Self.hostile, #"body "{\"name\": \"$v\", \"n\": $n, \"s\": $v}""#, on: server)
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body)")
            #expect(parsed["name"] as? String == "a\"b\nc\\")
            #expect(parsed["s"] as? String == "a\"b\nc\\")
            #expect(parsed["n"] as? Int == 3)
            #expect(parsed.count == 3, "no field added: \(body)")
        }
    }

    @Test func aValueCannotAddAFieldToAJSONBody() async throws {
        try await TestServer.with { server in
            let body = try await Self.received(#"let v = "x\", \"admin\": true, \"y\": \"""#, #"body "{\"name\": \"$v\"}""#, on: server)
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body)")
            #expect(parsed.keys.sorted() == ["name"], "\(body)")
        }
    }

    @Test func theContentTypeHeaderSaysTheKind() async throws {
        try await TestServer.with { server in
            let form = try await Self.received(Self.hostile, #"header Content-Type:application/x-www-form-urlencoded; body "q=$v&n=$n""#, on: server)
            #expect(form == "q=a%22b%0Ac%5C&n=3")
            let json = try await Self.received(Self.hostile, #"header "Content-Type: application/vnd.api+json ; charset=utf-8"; body "[$v]""#, on: server)
            #expect(json == #"["a\"b\nc\\"]"#)
        }
    }

    /// A number kept as written that JSON cannot hold (`--var s=00123`) goes as a string: no value
    /// breaks the body.
    @Test func aNumberJSONCannotHoldGoesAsAString() {
        #expect(BodyTemplate.jsonText(.number("00123")) == #""00123""#)
        #expect(BodyTemplate.jsonText(.number("+5")) == #""+5""#)
        #expect(BodyTemplate.jsonText(.number("1.70")) == "1.70")
        #expect(BodyTemplate.jsonText(.string("a\"b")) == #""a\"b""#)
    }

    @Test func inAnXMLBodyAValueIsEscaped() async throws {
        try await TestServer.with { server in
            let body = try await Self.received(#"let v = "<i a='1'>&\"</i>""#, #"body "<a t=\"$v\">$v</a>""#, on: server)
            #expect(body == #"<a t="&lt;i a=&#39;1&#39;&gt;&amp;&quot;&lt;/i&gt;">&lt;i a=&#39;1&#39;&gt;&amp;&quot;&lt;/i&gt;</a>"#)
        }
    }

    /// `body graphql` (what `.http` and Postman GraphQL requests import as, F18): a value in a
    /// string of the query is escaped for that string too, in a block string its `"""` is escaped,
    /// in a comment its line break cannot end the comment; in `variables` it is plain JSON.
    @Test func inAGraphQLBodyAValueStaysWhereItStandsInTheQuery() async throws {
        try await TestServer.with { server in
            let lets = #"let v = "x\") { secret } \"\"\" # \\ end\nz""#
            let query = #"query { a(s: \\\"$v\\\", b: \\\"\\\"\\\"$v\\\"\\\"\\\") # $v\\n b }"#
            let body = try await Self.received(lets, #"body graphql "{\"query\": \""# + query + #"\", \"variables\": {\"v\": \"$v\"}}""#, on: server)
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body)")
            let v = "x\") { secret } \"\"\" # \\ end\nz"
            let inString = v.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
            let inBlock = v.replacingOccurrences(of: "\"\"\"", with: "\\\"\"\"")
            let inComment = v.replacingOccurrences(of: "\n", with: " ")
            #expect(parsed["query"] as? String == "query { a(s: \"\(inString)\", b: \"\"\"\(inBlock)\"\"\") # \(inComment)\n b }", "\(body)")
            #expect(parsed["variables"] as? [String: String] == ["v": v], "\(body)")
        }
    }

    /// A block string has one escape (`\"""`): a value ending in `\` or `"` would end it early or
    /// escape its end, letting a second value add to the query (review 10 M1). It is refused.
    @Test @ShellActor func aValueABlockStringCannotHoldIsRefused() async {
        for value in [#"p\\"#, #"q\""#] {
            let shell = ShellHarness()
            let halt = await shell.run(#"let v = ""# + value + #"""# + "\n"
                + #"target t { base http://127.0.0.1:9; method POST; body graphql "{\"query\": \"query { a(x: \\\"\\\"\\\"$v\\\"\\\"\\\") }\"}" }"# + "\ncall t")
            #expect(halt != nil && shell.stderr.contains("which a GraphQL block string"), "\(value): \(shell.stderr)")
        }
    }

    /// A plain JSON body escapes a value once even after a `\"` in a string (prose quotes): only
    /// `body graphql` reads strings within strings (review 8 M1).
    @Test func aJSONBodyEscapesAValueOnceAfterAQuoteInAString() async throws {
        try await TestServer.with { server in
            let body = try await Self.received(#"let v = "a\"b""#, #"body "{\"text\": \"he said \\\"$v\\\"\"}""#, on: server)
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body)")
            #expect(parsed["text"] as? String == #"he said "a"b""#, "\(body)")
        }
    }

    @Test func rawAndPlainTextBodiesTakeValuesAsTheyAre() async throws {
        try await TestServer.with { server in
            let raw = try await Self.received(#"let v = "\"x\", \"y\": 1""#, #"body raw "{\"a\": $v}""#, on: server)
            #expect(raw == #"{"a": "x", "y": 1}"#)
            let text = try await Self.received(#"let v = "a & <b>""#, #"body "hello $v""#, on: server)
            #expect(text == "hello a & <b>")
        }
    }

    /// A body that reads as JSON goes as `application/json` unless the target names a type; text
    /// goes with none, as before.
    @Test func aJSONBodyIsSentAsJSON() async throws {
        try await TestServer.with { server in
            let json = try await Self.received(#"let v = 1"#, #"body "{\"v\": $v}"; header X-Probe:1"#, on: server, header: "Content-Type")
            #expect(json == "application/json")
            let named = try await Self.received(#"let v = 1"#, #"header Content-Type:application/vnd.api+json; body "[$v]""#, on: server, header: "Content-Type")
            #expect(named == "application/vnd.api+json")
            let text = try await Self.received(#"let v = 1"#, #"body "v=$v""#, on: server, header: "Content-Type")
            #expect(text == "none")
        }
    }

    /// A secret escaped into an XML body is masked in that form too (a review found `show --curl`
    /// and the history printing `pa&amp;ss&lt;w&gt;` whole).
    @ShellActor @Test func aSecretEscapedForXMLIsMasked() async {
        EnvironmentOverlay.define("WSH_TEST_XML_SECRET", "pa&ss<w>\"x'y")
        let shell = ShellHarness()
        let halt = await shell.run("""
            let pw = env WSH_TEST_XML_SECRET
            target x { base http://127.0.0.1:9; method POST; body "<a t=\\"$pw\\">$pw</a>" }
            show x --curl
            """)
        #expect(halt == nil, "\(shell.stderr)")
        #expect(shell.stdout.contains(#"<a t="***">***</a>"#), "\(shell.stdout)")
        #expect(!shell.stdout.contains("pa&amp;ss") && !shell.stdout.contains("ss&lt;w"), "\(shell.stdout)")
    }

    @Test func theStringStateFollowsEscapedQuotes() {
        var state = BodyTemplate.JSONStringState()
        state.read(#"{"a\"b": "#)
        #expect(!state.isInString)
        state.read(#""c\\"#)
        #expect(state.isInString)
        state.read(#"""#)
        #expect(!state.isInString)
    }
}
