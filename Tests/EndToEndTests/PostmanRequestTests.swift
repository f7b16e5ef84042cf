import Foundation
import Testing
import TestSupport

/// What a request of a Postman collection sends, seen at the loopback server's `/echo`: the rows
/// Postman leaves out, inherited auth, and the Content-Type a request gives its form.
@Suite struct PostmanRequestTests {
    /// Writes `collection` (its items' JSON) as `c.postman_collection.json` in a scratch directory,
    /// runs `use postman` and `script`, and gives what each `call NAME > NAME.json` wrote as the echo saw it.
    static func run(items: String, collection: String = "", script: String, in directory: URL)
        async throws -> (result: WSHProcess.Result, echoes: [String: EchoedRequest]) {
        try """
            {"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             \(collection) "item": [\(items)]}
            """.write(to: directory.appendingPathComponent("c.postman_collection.json"), atomically: true, encoding: .utf8)
        let result = try await WSHProcess.run(["-c", "use postman c.postman_collection.json\n" + script], directory: directory)
        var echoes: [String: EchoedRequest] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".echo") {
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            echoes[String(name.dropLast(5))] = try EchoedRequest(echo: text)
        }
        return (result, echoes)
    }

    /// A row with an empty key (header, form field) is not sent and does not stop the request from
    /// being declared; a disabled row is not sent; `"auth": {"type": "inherit"}` takes the
    /// collection's auth, as no auth of its own does.
    @Test func emptyKeyAndDisabledRowsAreNotSentAndInheritTakesTheCollectionsAuth() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let (result, echoes) = try await Self.run(items: """
                {"name": "rows", "request": {"method": "POST", "url": "\(server.baseURL)/echo/rows", "auth": {"type": "inherit"},
                  "header": [{"key": "X-A", "value": "1"}, {"key": "", "value": ""}, {"key": "", "value": "v"},
                             {"key": "X-Off", "value": "2", "disabled": true}],
                  "body": {"mode": "urlencoded", "urlencoded": [{"key": "a", "value": "1"}, {"key": "", "value": "x"},
                                                                {"key": "b", "value": "2", "disabled": true}]}}}
                """, collection: #""auth": {"type": "bearer", "bearer": [{"key": "token", "value": "t-inherited"}]},"#,
                script: "call rows > rows.echo", in: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            let rows = try #require(echoes["rows"])
            #expect(rows.headers == ["authorization: Bearer t-inherited", "content-type: application/x-www-form-urlencoded", "x-a: 1"], "\(rows)")
            #expect(rows.body == Array("a=1".utf8), "\(rows)")
        }
    }

    /// A urlencoded body with a Content-Type header of the request's own goes with that header, as
    /// Postman sends it.
    @Test func aFormKeepsTheRequestsOwnContentType() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let (result, echoes) = try await Self.run(items: """
                {"name": "charset", "request": {"method": "POST", "url": "\(server.baseURL)/echo/charset",
                  "header": [{"key": "Content-Type", "value": "application/x-www-form-urlencoded; charset=utf-8"}],
                  "body": {"mode": "urlencoded", "urlencoded": [{"key": "a", "value": "é"}]}}}
                """, script: "call charset > charset.echo", in: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let charset = try #require(echoes["charset"])
            #expect(charset.headers == ["content-type: application/x-www-form-urlencoded; charset=utf-8"], "\(charset)")
            #expect(charset.body == Array("a=%C3%A9".utf8), "\(charset)")
        }
    }

    /// A file part with several files is a part for each, as Postman sends them; one with none
    /// chosen is left out with a note (newman skips it); a part's `contentType` is a file part's
    /// type, and a text part's is named in a note, as wsh has no form for it.
    @Test func formDataPartsAreAPartForEachFileWithTheirContentType() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try "A\n".write(to: directory.appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
            try "B\n".write(to: directory.appendingPathComponent("b.txt"), atomically: true, encoding: .utf8)
            let (result, echoes) = try await Self.run(items: """
                {"name": "up", "request": {"method": "POST", "url": "\(server.baseURL)/echo/up",
                  "body": {"mode": "formdata", "formdata": [
                    {"key": "title", "value": "t", "type": "text", "contentType": "application/json"},
                    {"key": "docs", "type": "file", "src": ["a.txt", "b.txt"]},
                    {"key": "none", "type": "file", "src": []},
                    {"key": "missing", "type": "file"},
                    {"key": "meta", "type": "file", "src": "a.txt", "contentType": "application/json"}]}}}
                """, script: "call up > up.echo", in: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr == "note: up: its form-data part 'title' is sent without its Content-Type application/json: a wsh text part has none\n"
                    + "note: up: its form-data part 'none' has no file chosen: it is not sent, as newman skips it\n"
                    + "note: up: its form-data part 'missing' has no file chosen: it is not sent, as newman skips it\n", "\(result.stderr)")
            let up = try #require(echoes["up"])
            func part(_ disposition: String, _ type: String?, _ content: String) -> String {
                "--BOUNDARY\r\nContent-Disposition: form-data; \(disposition)\r\n" + (type.map { "Content-Type: \($0)\r\n" } ?? "") + "\r\n\(content)\r\n"
            }
            let expected = part(#"name="title""#, nil, "t") + part(#"name="docs"; filename="a.txt""#, "text/plain", "A\n")
                + part(#"name="docs"; filename="b.txt""#, "text/plain", "B\n")
                + part(#"name="meta"; filename="a.txt""#, "application/json", "A\n") + "--BOUNDARY--\r\n"
            #expect(String(decoding: up.body, as: UTF8.self) == expected, "\(up)")
        }
    }

    /// `protocolProfileBehavior` of a request, its folder or the collection: `followRedirects: false`
    /// is `follow off` (the redirect is the answer), `maxRedirects` is `follow N`; the keys a target
    /// has no setting for are named once.
    @Test func followRedirectsAndMaxRedirectsAreTheTargetsFollow() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let (result, _) = try await Self.run(items: """
                {"name": "stay", "protocolProfileBehavior": {"followRedirects": false},
                 "request": {"method": "GET", "url": "\(server.baseURL)/redirect?n=1"}},
                {"name": "f", "protocolProfileBehavior": {"followRedirects": false}, "item": [
                  {"name": "inner", "request": {"method": "GET", "url": "\(server.baseURL)/redirect?n=1"}},
                  {"name": "again", "protocolProfileBehavior": {"followRedirects": true, "maxRedirects": 2},
                   "request": {"method": "GET", "url": "\(server.baseURL)/redirect?n=2"}}]},
                {"name": "goes", "request": {"method": "GET", "url": "\(server.baseURL)/redirect?n=1"}}
                """, collection: #""protocolProfileBehavior": {"strictSSL": false, "disableCookies": true, "disableBodyPruning": false},"#,
                script: "set output quiet\n" + ["stay", "f.inner", "f.again", "goes"].map { "call \($0)\nprint status" }.joined(separator: "\n"), in: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr == "note: c.postman_collection.json: protocolProfileBehavior disableCookies, strictSSL not kept: "
                    + "a wsh target has no setting for them (the session has set cookies off, set insecure on)\n", "\(result.stderr)")
            #expect(result.stdout.split(separator: "\n").filter { ["200", "302"].contains($0) } == ["302", "302", "200", "200"], "\(result.stdout)")
            let shown = try await WSHProcess.run(["-c", "use postman c.postman_collection.json\nshow f.again"], directory: directory)
            #expect(shown.stdout.contains("\n  follow   2\n"), "\(shown.stdout)")
        }
    }

    /// The collection's and a folder's scripts are kept in each target under them, as its own are,
    /// in the order Postman runs them (prerequest scripts, then tests: the collection's, the
    /// folder's, the request's), and the note on import names where they are.
    @Test func inheritedScriptsAreCommentsOfTheTargetsUnderThem() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(directory) }
        func event(_ kind: String, _ line: String) -> String {
            #"{"listen": "\#(kind)", "script": {"exec": ["\#(line)"]}}"#
        }
        let (result, _) = try await Self.run(items: """
            {"name": "f", "event": [\(event("test", "folder test"))], "item": [
              {"name": "r", "event": [\(event("test", "own test")), \(event("prerequest", "own pre"))],
               "request": {"method": "GET", "url": "http://127.0.0.1:9/r"}}]},
            {"name": "top", "request": {"method": "GET", "url": "http://127.0.0.1:9/top"}}
            """, collection: #""event": [\#(event("test", "collection test")), \#(event("prerequest", "collection pre"))],"#,
            script: "show f.r\nshow top", in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            target f.r {
              base     "http://127.0.0.1:9"
              path     "/r"
              # Postman prerequest script of the collection, not run (JavaScript):
              #   collection pre
              # Postman prerequest script, not run (JavaScript):
              #   own pre
              # Postman test script of the collection, not run (JavaScript):
              #   collection test
              # Postman test script of folder 'f', not run (JavaScript):
              #   folder test
              # Postman test script, not run (JavaScript):
              #   own test
            }
            target top {
              base     "http://127.0.0.1:9"
              path     "/top"
              # Postman prerequest script of the collection, not run (JavaScript):
              #   collection pre
              # Postman test script of the collection, not run (JavaScript):
              #   collection test
            }

            """, "\(result.stdout)")
        #expect(result.stderr == "note: c.postman_collection.json: Postman scripts (JavaScript) are not run: those of the collection, "
                + "folder 'f' and 1 request are kept as comments in the targets they apply to (show NAME prints them); write checks as expect lines\n",
                "\(result.stderr)")
    }

    /// A variable of the collection that is not set when a request is called is an error naming
    /// the request in the collection, not a line of the declaration wsh wrote for it.
    @Test func anUndefinedVariableNamesTheRequestInTheCollection() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(directory) }
        let (result, _) = try await Self.run(items: """
            {"name": "Forms", "item": [{"name": "Log in", "request": {"method": "POST", "url": "http://127.0.0.1:9/login",
              "body": {"mode": "urlencoded", "urlencoded": [{"key": "username", "value": "{{user}}"}]}}}]}
            """, script: "call Forms.Log-in", in: directory)
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("c.postman_collection.json, request 'Forms / Log in': error: undefined variable 'user'\nnote: "),
                "\(result.stderr)")
        #expect(!result.stderr.contains("form "), "no line of the declaration wsh wrote: \(result.stderr)")
    }
}
