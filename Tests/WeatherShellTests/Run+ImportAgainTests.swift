import Foundation
import Testing
import TestSupport
@testable import WeatherShell

/// `use postman FILE` and `import har FILE` again, after the file was edited: the targets it
/// declared before are replaced under their names (no `NAME-2`), and a name a target declared
/// elsewhere holds is a warning naming the way out, that target kept.
@Suite @ShellActor struct RunImportAgainTests {
    static func collection(_ path: String, in server: TestServer, removed: Bool = false) -> String {
        let old = removed ? "" : #"{"name": "old", "request": {"method": "GET", "url": "\#(server.baseURL)/echo/old"}},"#
        return """
        {"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
         "item": [\(old) {"name": "q", "request": {"method": "GET", "url": "\(server.baseURL)/echo/\(path)"}},
                  {"name": "mine", "request": {"method": "GET", "url": "\(server.baseURL)/echo/theirs"}}]}
        """
    }

    static func har(_ path: String, in server: TestServer) -> String {
        """
        {"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [
          {"request": {"method": "GET", "url": "\(server.baseURL)/echo/\(path)", "headers": [], "queryString": []},
           "response": {"status": 200, "content": {"text": "{}", "mimeType": "application/json"}}}]}}
        """
    }

    /// The member `name` of what the loopback server's `/echo` saw in the shell's last call.
    static func echoed(_ name: String, _ shell: ShellHarness) -> String? {
        let body = shell.run.lastResponse?.body ?? Data()
        return ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?[name] as? String
    }

    @Test func usingACollectionAgainReplacesItsTargetsAndKeepsTheUsersOwn() async throws {
        let directory = try ScratchDirectory.make("wsh-postman-again")
        defer { ScratchDirectory.remove(directory) }
        let server = try await TestServer.start()
        let file = directory.appendingPathComponent("c.postman_collection.json")
        let shell = ShellHarness(mode: .interactive)
        try Self.collection("first", in: server).write(to: file, atomically: true, encoding: .utf8)
        await shell.run("target mine { base \(server.baseURL); path /echo/mine }\nuse postman c.postman_collection.json as e\n"
                        + "use postman c.postman_collection.json", directory: directory.path)
        let declaredFirst = shell.run.session.targets.names
        try Self.collection("edited", in: server, removed: true).write(to: file, atomically: true, encoding: .utf8)
        await shell.run("use postman c.postman_collection.json as e\nuse postman c.postman_collection.json\n"
                        + "set output quiet\ncall e.q", directory: directory.path)
        let edited = Self.echoed("path", shell)
        await shell.run("call q", directory: directory.path)
        let unprefixed = Self.echoed("path", shell)
        await shell.run("call mine", directory: directory.path)
        let mine = Self.echoed("path", shell)
        try await server.shutdown()
        #expect(edited == "/echo/edited", "\(shell.stderr)")
        #expect(unprefixed == "/echo/edited", "\(shell.stderr)")
        #expect(mine == "/echo/mine", "the user's own target is kept: \(shell.stderr)")
        #expect(declaredFirst == ["mine", "e.old", "e.q", "e.mine", "old", "q"], "\(declaredFirst)")
        #expect(shell.run.session.targets.names == ["mine", "e.q", "e.mine", "q"], "no -2 copies, no request gone from the file: \(shell.run.session.targets.names)")
        #expect(shell.stderr.contains("c.postman_collection.json: no longer declared by the file, so forgotten: e.old"), "\(shell.stderr)")
        #expect(shell.stderr.contains("c.postman_collection.json: 'mine' not declared: 'mine' is already declared (<test>:1); "
                                      + "forget it first, or import under a prefix"), "\(shell.stderr)")
    }

    @Test func importingAHARAgainReplacesItsTargets() async throws {
        let directory = try ScratchDirectory.make("wsh-har-again")
        defer { ScratchDirectory.remove(directory) }
        let server = try await TestServer.start()
        let file = directory.appendingPathComponent("a.har")
        let shell = ShellHarness(mode: .interactive)
        try Self.har("items", in: server).write(to: file, atomically: true, encoding: .utf8)
        await shell.run("import har a.har", directory: directory.path)
        try Self.har("items?edited=1", in: server).write(to: file, atomically: true, encoding: .utf8)
        await shell.run("import har a.har\nset output quiet\ncall items", directory: directory.path)
        let query = Self.echoed("query", shell)
        await shell.run("target items { base \(server.baseURL); path /echo/mine }\nimport har a.har", directory: directory.path)
        try await server.shutdown()
        #expect(query == "edited=1", "\(shell.stderr)")
        #expect(shell.run.session.targets.names == ["items"], "no -2 copy: \(shell.run.session.targets.names)")
        #expect(shell.stderr.contains("a request not declared: 'items' is already declared (<test>:1); forget it first, or import under a prefix"),
                "\(shell.stderr)")
    }
}
