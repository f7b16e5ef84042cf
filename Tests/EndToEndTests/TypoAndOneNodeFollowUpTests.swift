import Foundation
import TestSupport
import Testing

/// The review of 0.4.10's typo and one-node rules (review-checks4 H1, H2, H3, M1, M2), run on the
/// binary (`WSH_BIN` runs them on another): correct checks that the rules broke, and typos they let pass.
@Suite struct TypoAndOneNodeFollowUpTests {
    static let routes: [String: StaticRoute] = [
        "/p.html": StaticRoute(status: 200, headers: [("Content-Type", "text/html")], body: Array("""
            <html><head><title>Home</title><meta charset="utf-8"></head><body><h1>Hi</h1><div class="x"><p>text</p>\
            <ul><li>a</li></ul><img src="a.png"><label>L</label></div></body></html>
            """.utf8)),
        "/rss.xml": StaticRoute(status: 200, headers: [("Content-Type", "application/xml")], body: Array("""
            <rss><channel><title>T</title><item><title>A</title><link>x</link><date>2024</date><node>1</node></item></channel></rss>
            """.utf8)),
        "/i.json": StaticRoute(body: #"{"items":[{"id":1,"name":"a","status":"ok","tags":["x"]},{"id":2,"name":"b","status":"ok","tags":[]}],"error":null}"#),
        "/u.json": StaticRoute(body: #"{"users":[{"id":1,"role":"admin","on":true,"e":"","tags":[]},{"id":2,"role":"user","on":false,"e":"a@x","tags":["t"]}]}"#),
    ]

    /// Each script's exit status (0 held, 3 error, 4 a check failed) and what it wrote to stderr.
    static func statuses(_ cases: [(path: String, script: String)]) async throws -> [(script: String, status: Int32, stderr: String)] {
        try await withLoopbackServer(routes: routes) { server in
            var results: [(script: String, status: Int32, stderr: String)] = []
            for (path, script) in cases {
                let result = try await WSHProcess.run(["--norc", "-c", "set output quiet\nget \(server.baseURL)\(path)\n\(script)"])
                results.append((script, result.status, result.stderr))
            }
            return results
        }
    }

    static func expect(_ cases: [(path: String, script: String)], status: Int32, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for result in try await statuses(cases) {
            #expect(result.status == status, "\(result.script): \(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    /// H1: a page without a `<table>` (`<time>`, `<tbody>`...) has none: the check holds, though
    /// `title`, `label` or `body` is close to the name. Only a name no HTML element has, one edit
    /// from one in the page, is a typo, and not under `exists`/`not exists`.
    @Test func xpathAbsencesOfRealElementNamesHold() async throws {
        let html = [#"expect body | xpath "//table" not exists"#, #"expect body | xpath "//table" | count == 0"#,
                    #"expect body | xpath "//table//tr" isEmpty"#, #"if body | xpath "//table" exists { exit 4 }"#,
                    #"expect body | xpath "//time" not exists"#, #"expect body | xpath "//tbody" isEmpty"#,
                    #"expect body | xpath "//thead" not exists"#, #"expect body | xpath "//header" not exists"#,
                    #"expect body | xpath "//image" not exists"#, #"expect body | xpath "//tittle" not exists"#,
                    #"if body | xpath "//tittle" exists { exit 4 }"#]
        let xml = [#"expect body | xpath "//item/data" not exists"#, #"expect body | xpath "//item/data" isEmpty"#,
                   #"expect body | xpath "//code" not exists"#]
        try await Self.expect(html.map { ("/p.html", $0) } + xml.map { ("/rss.xml", $0) }, status: 0)
        for result in try await Self.statuses([("/p.html", #"expect body | xpath " //tittle " isEmpty"#),
                                               ("/p.html", #"expect body | xpath "/html/body/lable" | count == 0"#),
                                               ("/rss.xml", #"expect body | xpath "//itme" isEmpty"#)]) {
            #expect(result.status == 3 && result.stderr.contains("(did you mean '"), "\(result.script): \(result.stderr)")
            #expect(result.stderr.contains(#"note: to check that the page has no '"#) && result.stderr.contains(#"xpath "count(//"#),
                    "\(result.script): \(result.stderr)")
            #expect(!result.stderr.contains("'| xpath  "), "the expression is shown without its blanks: \(result.stderr)")
        }
    }

    /// H2: a wsh path's typo of `status` (`statu`, `statuss`), of `name` (`names`) or of `tags`
    /// (`tag`) is the error 0.4.9 made it, as is a JSONPath that walks as a path; in a JSONPath
    /// filter `statu` is a typo of `status` still, where `tag` beside `tags` is an answer.
    @Test func pluralLookingTyposAreErrorsAgain() async throws {
        let errors = [".items[*].statu isEmpty", ".items[*].statuss isEmpty", #".items[? .statuss == "ok"] isEmpty"#,
                      #".items[? .statu == "ok"] | length == 0"#, ".items[*].names isEmpty", "$.items[*].names isEmpty",
                      "$.items[*].tag isEmpty", "$..errors isEmpty", "..errors isEmpty", ".items[*].tag isEmpty",
                      #".items[? .tag == "x"] isEmpty"#, #"$.items[?@.statuss == "ok"] isEmpty"#, "$.items[?@.id==1].statu isEmpty",
                      #"body | jsonpath "$.items[*].statu" isEmpty"#]
        for result in try await Self.statuses(errors.map { ("/i.json", "expect " + $0) }) {
            #expect(result.status == 3 && result.stderr.contains("did you mean '"), "\(result.script): \(result.stderr)")
        }
        try await Self.expect([#"$.items[?@.tag == "x"] isEmpty"#, "$.errors[*] isEmpty", "$.errors[*].message isEmpty",
                               "$.errors not exists", ".items[*].statu not exists"].map { ("/i.json", "expect " + $0) }, status: 0)
    }

    /// H3: `isEmpty` on the one number or true/false a `[? ]` picked asks, as 0.4.9 did, whether
    /// a value was reached; `""` picked is still empty.
    @Test func notIsEmptyOnOnePickedNumberHolds() async throws {
        try await Self.expect([#".users[? .role == "admin"].id not isEmpty"#, #"$.users[?@.role == "admin"].id not isEmpty"#,
                               #".users[? .role == "user"].on not isEmpty"#, ".users[? .id == 1].e isEmpty"].map { ("/u.json", "expect " + $0) },
                              status: 0)
        try await Self.expect([".users[? .id == 1].e not isEmpty", #".users[? .role == "admin"].id isEmpty"#].map { ("/u.json", "expect " + $0) },
                              status: 4)
    }

    /// M1: a list `[*]` or a last `[? ]` made is a list to `isList` and `isCollection`, as in 0.4.9
    /// and Hurl; the one value a `[? ]` picked and a key read is that value.
    @Test func aListAStarOrAFilterMadeIsAList() async throws {
        try await Self.expect([".users[*] isList", "$.users[*] isCollection", ".users[? .id > 0] isList", #".users[? .role == "admin"] isList"#,
                               ".users[*].tags isList", ".users[? .id == 1].tags isList"].map { ("/u.json", "expect " + $0) }, status: 0)
        try await Self.expect([".users[? .id == 1].id isList", ".users[? .id == 1].e isCollection"].map { ("/u.json", "expect " + $0) }, status: 4)
    }

    /// M2: `| jsonpath "$.…[?…].key"` tests the one value it picked as `$.…[?…].key` does.
    @Test func aJSONPathFilterPicksAsTheDollarFormDoes() async throws {
        try await Self.expect([#"body | jsonpath "$.users[?@.id==1].e" not isEmpty"#, #".users | jsonpath "$[?@.id==1].e" not isEmpty"#,
                               #"body | jsonpath "$.users[?@.id==1].tags" not isEmpty"#].map { ("/u.json", "expect " + $0) }, status: 4)
        try await Self.expect([#"body | jsonpath "$.users[?@.id==1].e" isEmpty"#, #"body | jsonpath "$.users[?@.id==1].id" not isEmpty"#,
                               #"body | jsonpath "$.users[?@.id==2].tags" not isEmpty"#].map { ("/u.json", "expect " + $0) }, status: 0)
    }
}
