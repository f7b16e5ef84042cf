import Foundation
import Testing
import TestSupport
@testable import WeatherShell

/// `use http FILE` before `set env NAME`, the order the documentation shows: the file's variables
/// built from the environment follow the environment chosen.
@Suite @ShellActor struct RunUseHTTPTests {
    @Test func fileVariablesFromTheEnvironmentFollowSetEnv() async throws {
        let directory = try ScratchDirectory.make("wsh-use-http-env")
        defer { ScratchDirectory.remove(directory) }
        let server = try await TestServer.start()
        try """
            {"$shared": {"host": "\(server.baseURL)"}, "dev": {"path": "echo/dev"}, "prod": {"path": "echo/prod"}}
            """.write(to: directory.appendingPathComponent("http-client.env.json"), atomically: true, encoding: .utf8)
        try "# a comment\n@base = {{host}}/{{path}}\n\n# @name getUser\nGET {{base}}/users\n"
            .write(to: directory.appendingPathComponent("req.http"), atomically: true, encoding: .utf8)
        let shell = ShellHarness(mode: .interactive)
        await shell.run("use http req.http", directory: directory.path)
        let note = shell.stderr
        await shell.run("call getUser", directory: directory.path)
        let earlyError = String(shell.stderr.dropFirst(note.count))
        await shell.run("set env dev\nset output quiet\ncall getUser", directory: directory.path)
        let dev = Self.echoedPath(shell)
        await shell.run("set env prod\ncall getUser", directory: directory.path)
        let prod = Self.echoedPath(shell)
        await shell.run("let base = \"\(server.baseURL)/echo/mine\"\nset env dev\ncall getUser", directory: directory.path)
        let mine = Self.echoedPath(shell)
        try await server.shutdown()
        #expect(note.contains("req.http: @base is not set yet (no variable 'host' is set): set env NAME sets it"), "\(note)")
        #expect(!note.contains("known only while the file runs"), "\(note)")
        #expect(earlyError.contains("req.http:5, request 'getUser': error: undefined variable 'base'"), "\(earlyError)")
        #expect(dev == "/echo/dev/users", "\(shell.stderr)")
        #expect(prod == "/echo/prod/users", "\(shell.stderr)")
        #expect(mine == "/echo/mine/users", "a value set by hand is kept: \(shell.stderr)")
    }

    /// A `{{value}}` inside a string of a GraphQL query (docs tester's F18): escaped for the GraphQL
    /// string as well as for the JSON string that holds the query, so a value holding `"` stays in
    /// its string and cannot add a selection; in the variables, JSON, escaped once.
    @Test func aValueInAGraphQLStringStaysInIt() async throws {
        let directory = try ScratchDirectory.make("wsh-http-graphql")
        defer { ScratchDirectory.remove(directory) }
        let server = try await TestServer.start()
        let name = #"x") { secret } # \ end"#
        try """
            @name = \(name)

            POST \(server.baseURL)/echo/graphql
            X-Request-Type: GraphQL

            query { user(name: "{{name}}") { id } }

            {"n": "{{name}}"}

            """.write(to: directory.appendingPathComponent("g.http"), atomically: true, encoding: .utf8)
        let shell = ShellHarness(mode: .interactive)
        await shell.run("set output quiet\nsource g.http", directory: directory.path)
        let echoed = shell.run.lastResponse.flatMap { try? JSONSerialization.jsonObject(with: $0.body) as? [String: Any] }
        try await server.shutdown()
        let body = try #require(echoed?["body"] as? String, "\(shell.stderr)")
        let sent = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body)")
        #expect(sent["query"] as? String == #"query { user(name: "x\") { secret } # \\ end") { id } }"#, "\(body)")
        #expect(sent["variables"] as? [String: String] == ["n": name], "\(body)")
    }

    static func echoedPath(_ shell: ShellHarness) -> String? {
        let body = shell.run.lastResponse?.body ?? Data()
        return ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["path"] as? String
    }
}
