import Foundation
import TestSupport
import Targets
import Testing
@testable import WeatherShell

/// HTTPie's request items and URL shorthands, as ad-hoc requests read them.
@Suite struct RequestItemTests {
    @Test(arguments: [
        ("q==1", RequestItem.query(name: "q", value: "1")),
        ("q==", .query(name: "q", value: "")),
        ("a==b=c", .query(name: "a", value: "b=c")),
        ("name=Ana", .field(name: "name", value: .text("Ana"))),
        ("url=http://x/?a==b", .field(name: "url", value: .text("http://x/?a==b"))),
        ("age:=31", .field(name: "age", value: .json("31"))),
        ("tags:=[1, 2]", .field(name: "tags", value: .json("[1, 2]"))),
        ("text=@note.txt", .fieldFromFile(name: "text", path: "note.txt", json: false)),
        ("obj:=@obj.json", .fieldFromFile(name: "obj", path: "obj.json", json: true)),
        ("X-Trace:1", .header(Header(name: "X-Trace", value: "1"))),
        ("Authorization:Bearer a=b", .header(Header(name: "Authorization", value: "Bearer a=b"))),
        ("X-Empty:", .header(Header(name: "X-Empty", value: ""))),
        ("doc@note.txt", .file(name: "doc", path: "note.txt", type: nil)),
        ("logo@a.bin;type=image/png", .file(name: "logo", path: "a.bin", type: "image/png")),
        ("@item.json", .body(path: "item.json")),
        ("서울=맑음", .field(name: "서울", value: .text("맑음"))),
    ])
    func itemsReadAsHTTPieReadsThem(text: String, item: RequestItem) {
        #expect(RequestItem(text) == item)
    }

    @Test(arguments: ["word", "=x", ":x", "==x", "@", "doc@"])
    func textWithoutANameOrSeparatorIsNoItem(text: String) {
        #expect(RequestItem(text) == nil)
    }

    @Test(arguments: [
        ("https://api.example.com/x?y=1", nil as String?, "https://api.example.com/x?y=1"),
        ("HTTP://Example.com", nil, "HTTP://Example.com"),
        ("hTtPs://h/x", nil, "hTtPs://h/x"),
        (":8080/users", nil, "http://localhost:8080/users"),
        (":8080", nil, "http://localhost:8080/"),
        (":/x", nil, "http://localhost/x"),
        ("example.com/x", nil, "http://example.com/x"),
        ("localhost:3000", nil, "http://localhost:3000"),
        ("localhost/a", "https://api.example.com", "http://localhost/a"),
        ("/users/7", "https://api.example.com/v1", "https://api.example.com/v1/users/7"),
        ("/users/7", "https://api.example.com/v1/", "https://api.example.com/v1/users/7"),
        ("users/7", "https://api.example.com/v1", "https://api.example.com/v1/users/7"),
        // A `://` in the query is a value, not a scheme.
        ("/redirect-to?url=http://localhost:1/x", "http://h", "http://h/redirect-to?url=http://localhost:1/x"),
        ("localhost:3000/a?next=https://x.org/", nil, "http://localhost:3000/a?next=https://x.org/"),
        (":3000/a?next=ws://x", nil, "http://localhost:3000/a?next=ws://x"),
    ])
    func urlsResolveAsHTTPieResolvesThem(text: String, base: String?, url: String) {
        #expect(RequestURL.resolve(text, base: base) == .success(url))
    }

    @Test func urlsThatCannotBeResolvedSayWhy() {
        #expect(RequestURL.resolve("/users", base: nil) == .failure(.noBase))
        #expect(RequestURL.resolve("users", base: nil) == .failure(.notAURL))
        // A mistyped scheme is not a path to put after the base.
        #expect(RequestURL.resolve("http//127.0.0.1:8765/get", base: "http://h") == .failure(.mistypedScheme))
        #expect(RequestURL.resolve("https:/h/x", base: "http://h") == .failure(.mistypedScheme))
        #expect(RequestURL.resolve("http-docs/x", base: "http://h") == .success("http://h/http-docs/x"))
        #expect(RequestURL.resolve("ftp://x/y", base: "https://a") == .failure(.scheme))
        #expect(RequestURL.resolve("httpsx://h/y", base: "https://a") == .failure(.scheme))
        // What is meant as a scheme, though no scheme can be spelt so (a newcomer's `ht!tp://` looked up host `ht!tp`).
        #expect(RequestURL.resolve("ht!tp://foo", base: nil) == .failure(.scheme))
        #expect(RequestURL.resolve("localhost:8080/r?to=http://x", base: nil) == .success("http://localhost:8080/r?to=http://x"))
        #expect(RequestURL.resolve("web+cal://h/y", base: "https://a") == .failure(.scheme))
    }

    @Test func aURLIsABaseAndAPath() {
        #expect(RequestURL.baseAndPath("http://h:8/a/b?q=1#f") == ("http://h:8", "/a/b?q=1#f"))
        #expect(RequestURL.baseAndPath("https://h?q=1") == ("https://h", "?q=1"))
        #expect(RequestURL.baseAndPath("https://h") == ("https://h", ""))
        #expect(RequestURL.baseAndPath("http://h/items/{id}") == ("http://h", "/items/%7Bid%7D"))
        #expect(RequestURL.baseAndPath("http://h/{a}?b={c}") == ("http://h", "/%7Ba%7D?b=%7Bc%7D"))
        #expect(RequestURL.baseAndPath("http://h/caf\u{E9}") == ("http://h", "/caf\u{E9}"))
    }

    @Test func anAdHocTargetIsNamedByItsMethod() throws {
        #expect(Run.adHocTargetName(.get) == "(get)" && Run.adHocTargetName(.options) == "(options)")
        #expect(Run.adHocTargetName(try #require(HTTPMethod(rawValue: "PROPFIND"))) == "(propfind)")
    }

    @Test func anyMethodTokenIsAMethod() {
        #expect(HTTPMethod(rawValue: "PROPFIND")?.rawValue == "PROPFIND")
        #expect(HTTPMethod(rawValue: "GET") == .get)
        #expect(HTTPMethod(rawValue: "GET X") == nil)
        #expect(HTTPMethod(rawValue: "") == nil)
        #expect(HTTPMethod(rawValue: "PRO(PFIND") == nil)
        #expect(HTTPMethod(rawValue: "PROPFIND")?.isIdempotent == true)
        #expect(HTTPMethod(rawValue: "PURGE")?.isIdempotent == false)
        #expect(HTTPMethod.post.isIdempotent == false)
    }
}

/// Tab completion for requests with no target: the verbs, methods after `request`, header names
/// and file paths after `@` (also in `call`).
@ShellActor @Suite struct RequestCompletionTests {
    @Test func verbsMethodsHeadersAndFilePaths() throws {
        let directory = try ScratchDirectory.make("wsh-complete")
        try Data("{}".utf8).write(to: directory.appendingPathComponent("item.json"))
        try Data("x".utf8).write(to: directory.appendingPathComponent("note.txt"))
        let run = ShellHarness(mode: .interactive).run
        run.currentFile = SourceFile(name: "<stdin>", directory: directory.path, text: "")
        #expect(run.completions(for: "po") == ["post"])
        #expect(run.completions(for: "req") == ["request"])
        #expect(run.completions(for: "request PRO") == ["PROPFIND", "PROPPATCH"])
        #expect(run.completions(for: "get /a X-Req") == ["X-Request-ID:"])
        #expect(run.completions(for: "put /a @it") == ["@item.json"])
        #expect(run.completions(for: "post /a doc@no") == ["doc@note.txt"])
        #expect(run.completions(for: "post /a text=@") == ["text=@item.json", "text=@note.txt"])
        #expect(run.completions(for: "call t f@ite") == ["f@item.json"])
    }
}
