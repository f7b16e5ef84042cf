import Foundation
import Testing
import TestSupport
@testable import WeatherShell

/// `use postman FILE` on a collection with malformed items: each request wsh cannot declare, or
/// declares without a part of it, is a warning naming the collection and the request.
@Suite @ShellActor struct RunUsePostmanTests {
    @Test func malformedItemsAreWarningsNamingTheRequestAndNoURLMakesNoTarget() async throws {
        let directory = try ScratchDirectory.make("wsh-postman-broken")
        defer { ScratchDirectory.remove(directory) }
        let server = try await TestServer.start()
        let echo = "\(server.baseURL)/echo"
        let collection = """
        {"info": {"name": "Br", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
         "item": [
          {"name": "nourl", "request": {"method": "GET"}},
          {"name": "nullurl", "request": {"method": "GET", "url": null}},
          {"name": "numurl", "request": {"method": "GET", "url": 42}},
          {"name": "modebad", "request": {"method": "POST", "body": {"mode": "weird", "weird": "x"}, "url": "\(echo)/modebad"}},
          {"name": "authbad", "request": {"method": "GET", "auth": {"type": "bearer", "bearer": "notarray"}, "url": "\(echo)/authbad"}},
          {"name": "F", "item": ["notanobject", {"name": "noreq"}]},
          {"name": "ok", "request": {"method": "GET", "url": "\(echo)/ok"}}
         ]}
        """
        try collection.write(to: directory.appendingPathComponent("Br.postman_collection.json"), atomically: true, encoding: .utf8)
        let shell = ShellHarness(mode: .interactive)
        await shell.run("use postman Br.postman_collection.json\nset output quiet\ncall modebad", directory: directory.path)
        let sent = shell.run.lastResponse.flatMap { try? JSONSerialization.jsonObject(with: $0.body) as? [String: Any] }
        await shell.run("call authbad", directory: directory.path)
        let authbad = shell.run.lastResponse.flatMap { try? JSONSerialization.jsonObject(with: $0.body) as? [String: Any] }
        try await server.shutdown()
        let names = shell.run.session.targets.names
        #expect(names == ["modebad", "authbad", "ok"], "no target that can only fail: \(names)")
        #expect(sent?["method"] as? String == "POST", "\(shell.stderr)")
        #expect((sent?["body"] as? String ?? "").isEmpty, "\(String(describing: sent))")
        let headerNames = (authbad?["headers"] as? [[String]] ?? []).compactMap { $0.first?.lowercased() }
        #expect(!headerNames.isEmpty && !headerNames.contains("authorization"), "\(String(describing: authbad))")
        let file = "Br.postman_collection.json"
        for line in ["\(file): 'nourl' not declared: it has no url",
                     "\(file): 'nullurl' not declared: its url is null",
                     "\(file): 'numurl' not declared: its url is 42, neither text nor a URL object",
                     "\(file): 'modebad' declared as modebad, but its body is left out: its mode 'weird' is none of Postman's",
                     "\(file): 'authbad' declared as authbad, but its bearer auth is not sent: its bearer settings are \"notarray\", not a list",
                     "\(file): folder 'F': an item that is not an object (\"notanobject\") is left out",
                     "\(file): 'F / noreq': it has neither a request nor an item list, so it is not declared"] {
            let warned = shell.stderr.split(separator: "\n").contains { $0.hasPrefix("warning: ") && $0.contains("/" + line) }
            #expect(warned, "\(line)\n\(shell.stderr)")
        }
        #expect(!shell.stderr.contains("bearer token is empty"), "\(shell.stderr)")
    }

    /// A `:id` segment of a URL saved as text is the parameter `{id}`, as in a URL saved as parts
    /// (docs tester's F10): before, it was sent as `/u/:id` and `id=7` was an unknown parameter.
    @Test func aPathVariableOfAURLSavedAsTextIsAParameter() async throws {
        let directory = try ScratchDirectory.make("wsh-postman-path-variable")
        defer { ScratchDirectory.remove(directory) }
        let server = try await TestServer.start()
        let collection = """
        {"info": {"name": "U", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
         "variable": [{"key": "base", "value": "\(server.baseURL)"}],
         "item": [{"name": "text", "request": {"method": "GET", "url": "{{base}}/echo/u/:id?x=1"}},
                  {"name": "parts", "request": {"method": "GET", "url": {"raw": "{{base}}/echo/p/:id", "host": ["{{base}}"], "path": ["echo", "p", ":id"],
                                                                         "variable": [{"key": "id", "value": "3"}]}}}]}
        """
        try collection.write(to: directory.appendingPathComponent("U.postman_collection.json"), atomically: true, encoding: .utf8)
        let shell = ShellHarness(mode: .interactive)
        await shell.run("use postman U.postman_collection.json\nset output quiet\ncall text id=7", directory: directory.path)
        let text = RunUseHTTPTests.echoedPath(shell)
        await shell.run("call parts id=8", directory: directory.path)
        let parts = RunUseHTTPTests.echoedPath(shell)
        try await server.shutdown()
        #expect(text == "/echo/u/7", "\(shell.stderr)")
        #expect(parts == "/echo/p/8", "\(shell.stderr)")
    }

    /// A `{{value}}` inside a string of a Postman GraphQL query (docs tester's F18) stays in that
    /// string: escaped for GraphQL and for the JSON string holding the query.
    @Test func aValueInAGraphQLStringStaysInIt() async throws {
        let directory = try ScratchDirectory.make("wsh-postman-graphql")
        defer { ScratchDirectory.remove(directory) }
        let server = try await TestServer.start()
        let collection = """
        {"info": {"name": "G", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
         "item": [{"name": "q", "request": {"method": "POST", "url": "\(server.baseURL)/echo/graphql",
                   "body": {"mode": "graphql", "graphql": {"query": "query { user(name: \\"{{name}}\\") { id } }", "variables": ""}}}}]}
        """
        try collection.write(to: directory.appendingPathComponent("G.postman_collection.json"), atomically: true, encoding: .utf8)
        let shell = ShellHarness(mode: .interactive)
        await shell.run(#"use postman G.postman_collection.json"# + "\n" + #"let name = "x\") { secret } # \\ end""# + "\nset output quiet\ncall q",
                        directory: directory.path)
        let echoed = shell.run.lastResponse.flatMap { try? JSONSerialization.jsonObject(with: $0.body) as? [String: Any] }
        try await server.shutdown()
        let body = try #require(echoed?["body"] as? String, "\(shell.stderr)")
        let sent = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body)")
        #expect(sent["query"] as? String == #"query { user(name: "x\") { secret } # \\ end") { id } }"#, "\(body)")
    }
}
