import Foundation
import Testing
import TestSupport
@testable import WeatherShell

/// A target's `key:=JSON` default is JSON where it is declared: `query n:=abc` was taken and sent
/// as the text `abc`, and `json tags:=[a,b]` failed only at the first call.
@Suite struct DeclaredTargetTests {
    @ShellActor private static func declare(_ field: String) async -> (Halt?, String) {
        let shell = ShellHarness()
        let halt = await shell.run("target t { base http://127.0.0.1:9; \(field) }\necho declared")
        return (halt, shell.stderr)
    }

    @Test(arguments: ["query n:=abc", "json tags:=[a,b]", "form f:=\"{\\\"a\\\"\""])
    func aDefaultThatIsNotJSONIsAnErrorAtItsDeclaration(field: String) async {
        let (halt, stderr) = await Self.declare(field)
        #expect(halt != nil)
        #expect(stderr.contains("takes JSON"), "\(stderr)")
        #expect(stderr.contains(":='[\"a\", \"b\"]'"), "the note shows the quoting: \(stderr)")
    }

    @Test(arguments: ["query n:=3", #"query tag:='["a","b"]'"#, "json ok:=true obj:='{\"a\": null}'"])
    func aJSONDefaultIsTaken(field: String) async {
        let (halt, stderr) = await Self.declare(field)
        #expect(halt == nil, "\(stderr)")
    }

    /// Two `json`, `form` or `multipart` lines add up to one body, as two `query` lines do: the
    /// second one dropped the first's fields from the wire. `save` writes both lines back.
    @ShellActor @Test func twoBodyLinesOfOneKindAddUp() async throws {
        let server = try await TestServer.start()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bodies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases = ["json a=1; json b:=2": [#""body":"{\"a\":\"1\",\"b\":2}""#],
                     "form a=1; form b=2": [#""body":"a=1&b=2""#],
                     "multipart a=1; multipart b=2": [#"name=\"a\""#, #"name=\"b\""#]]
        for (fields, sent) in cases {
            let shell = ShellHarness()
            let saved = directory.path + "/saved.wsh"
            let halt = await shell.run("set output quiet\ntarget t { base \(server.baseURL); path /echo/t; \(fields) }\ncall t > /dev/null\nprint .\nsave \(saved)")
            #expect(halt == nil, "\(fields): \(shell.stderr)")
            for part in sent { #expect(shell.stdout.contains(part), "\(fields): \(shell.stdout)") }
            // What `save` wrote declares the same target.
            let again = ShellHarness()
            let replayed = await again.run("source \(saved)\nset output quiet\ncall t a=5\nprint .")
            #expect(replayed == nil, "\(fields): \(again.stderr)")
            #expect(again.stdout.contains(sent[0].replacingOccurrences(of: "1", with: "5")), "\(fields): \(again.stdout)")
        }
        try await server.shutdown()
    }

    /// A second `base`, `path`, `method` or `body`, or a body of another kind, replaced the first
    /// without a word: an error at the second line, naming the first, before anything runs.
    @Test(arguments: [("json a=1; form b=2", "'form' cannot follow a 'json' line"),
                      ("form a=1; json b=2", "'json' cannot follow a 'form' line"),
                      ("json a=1; multipart f=2", "'multipart' cannot follow a 'json' line"),
                      ("body \"x\"; json a=1", "'json' cannot follow a 'body' line"),
                      ("json a=1; body \"x\"", "'body' cannot follow a 'json' line"),
                      ("json a=1; json? b=2", "'json?' cannot follow a 'json' line"),
                      ("path /a; path /b", "a second 'path' line"), ("base http://127.0.0.1:8", "a second 'base' line"), ("method GET; method POST", "a second 'method' line"),
                      ("path /a; query a=1; query b=2; json c=1; json d=2; header A:1; header B:2", nil)])
    func aSecondLineThatWouldReplaceTheFirstIsAnError(fields: String, message: String?) async {
        let (halt, stderr) = await Self.declare(fields)
        guard let message else {
            #expect(halt == nil, "\(stderr)")
            return
        }
        guard case .failure(.parse)? = halt else { Issue.record("\(fields): \(String(describing: halt)): \(stderr)"); return }
        #expect(stderr.contains(message), "\(stderr)")
        #expect(stderr.contains("is at line 1, column \(message.hasPrefix("a second 'base'") ? 12 : 37)"), "the first line is named: \(stderr)")
        #expect(!stderr.contains("declared"), "nothing ran")
    }

    /// A body and no method is a POST, as HTTPie and curl send data (it was a GET with a body,
    /// which servers ignore or refuse); a method given is kept, and no body is a GET.
    @ShellActor @Test func aBodyWithNoMethodIsAPost() async throws {
        let server = try await TestServer.start()
        let cases = ["form x=1": "POST", "json user=ann": "POST", "multipart note=n": "POST", "body \"text\"": "POST",
                     "form x=1; method GET": "GET", "method PUT; json a=1": "PUT", "query q=1": "GET"]
        for (fields, method) in cases {
            let shell = ShellHarness()
            let halt = await shell.run("set output quiet\ntarget t { base \(server.baseURL); path /echo/t; \(fields) }\ncall t")
            #expect(halt == nil, "\(fields): \(shell.stderr)")
            #expect(shell.run.lastResponse?.request.method.rawValue == method, "\(fields)")
        }
        try await server.shutdown()
    }
}
