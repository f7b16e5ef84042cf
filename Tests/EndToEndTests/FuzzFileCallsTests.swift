import Foundation
import Testing
import TestSupport

/// The calls of the files `wsh fuzz` and `wsh serve` run first are held to fuzz's own rules, as
/// `wsh load` holds its setup's (mock tester's F28): loopback or `--allow-host` only, reads only
/// unless `--allow-writes`; a call refused is an error at its line, never sent. The file runs as
/// written otherwise: a target declared in an `if` is fuzzed, a `let` captured from a GET works.
@Suite struct FuzzFileCallsTests {
    static let routes: [String: StaticRoute] = ["/items": StaticRoute(body: #"{"id": 1}"#),
                                                "/items/1": StaticRoute(body: #"{"id": 1}"#),
                                                "/login": StaticRoute(body: #"{"token": "abc"}"#)]

    static func target(_ server: TestServer) -> String {
        "target items {\n  base \(server.baseURL)\n  path /items\n  sample '{\"id\": 1}'\n}\n"
    }

    static func write(_ text: String, _ name: String, in directory: URL) throws {
        try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    @Test func aFilesDeleteIsRefusedUnsentWithoutAllowWritesAndSentWithIt() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try Self.write(Self.target(server) + "delete \(server.baseURL)/items/1\n", "writes.wsh", in: directory)
            let refused = try await WSHProcess.run(["fuzz", "writes.wsh", "--calls", "3", "--seed", "1"], directory: directory)
            #expect(refused.status == 3, "\(refused.stderr)")
            #expect(refused.stderr.contains("writes.wsh:6"), "\(refused.stderr)")
            #expect(refused.stderr.contains("will not send DELETE \(server.baseURL)/items/1") && refused.stderr.contains("--allow-writes"),
                    "\(refused.stderr)")
            #expect(!server.requests.contains { $0.method == "DELETE" }, "\(server.requests)")

            let allowed = try await WSHProcess.run(["fuzz", "writes.wsh", "--calls", "3", "--seed", "1", "--allow-writes"], directory: directory)
            #expect(allowed.status == 0, "\(allowed.stderr)")
            #expect(server.requests.contains { $0.method == "DELETE" && $0.path == "/items/1" }, "\(server.requests)")
        }
    }

    @Test func aSourcedFilesWriteIsRefusedToo() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try Self.write("post \(server.baseURL)/items name=x\n", "other.wsh", in: directory)
            try Self.write(Self.target(server) + "source other.wsh\n", "main.wsh", in: directory)
            let result = try await WSHProcess.run(["fuzz", "main.wsh", "--calls", "3", "--seed", "1"], directory: directory)
            #expect(result.status == 3, "\(result.stderr)")
            #expect(result.stderr.contains("other.wsh:1") && result.stderr.contains("will not send POST"), "\(result.stderr)")
            #expect(!server.requests.contains { $0.method == "POST" }, "\(server.requests)")
        }
    }

    /// A write asked for through a GET that many servers (Rails, Laravel, gateways) act on as the
    /// method it names is a write (review of F28).
    @Test func aMethodOverrideIsAWrite() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            for (name, line) in [("header.wsh", "get \(server.baseURL)/items/1 X-HTTP-Method-Override:DELETE"),
                                 ("query.wsh", "get \(server.baseURL)/items/1 _method==delete")] {
                try Self.write(Self.target(server) + line + "\n", name, in: directory)
                let result = try await WSHProcess.run(["fuzz", name, "--calls", "3", "--seed", "1"], directory: directory)
                #expect(result.status == 3 && result.stderr.contains("will not send DELETE"), "\(name): \(result.stderr)")
            }
            #expect(!server.requests.contains { $0.path == "/items/1" }, "\(server.requests)")
        }
    }

    /// A host that is not this machine is refused before a byte goes out: 192.0.2.1 (TEST-NET-1)
    /// would time out after 2s if it were tried. The refusal says the file's call is refused (it is
    /// not fuzzed), and a secret in a host name is masked whatever its case.
    @Test func aCallToAnotherHostIsRefusedBeforeSending() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(directory) }
        try Self.write("set timeout 2s\nget http://192.0.2.1:9/x\n", "away.wsh", in: directory)
        let result = try await WSHProcess.run(["fuzz", "away.wsh", "--calls", "3", "--seed", "1"], directory: directory)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("away.wsh:2") && result.stderr.contains("will not call 192.0.2.1: it is not a loopback address"),
                "\(result.stderr)")
        try Self.write("let k = env ZZK\nget http://$k.example.com/x\n", "secret.wsh", in: directory)
        let secret = try await WSHProcess.run(["fuzz", "secret.wsh", "--calls", "3", "--seed", "1"], environment: ["ZZK": "ZZSecretKey"],
                                              directory: directory)
        #expect(secret.status == 3 && secret.stderr.contains("will not call ***.example.com"), "\(secret.stderr)")
        #expect(!secret.stderr.lowercased().contains("secretkey"), "\(secret.stderr)")
    }

    /// The file runs as written: a value captured from a GET, a target declared in an `if`.
    @Test func aFileRunsAsWrittenCapturesAndBranchesIncluded() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let text = "get \(server.baseURL)/login\nlet token = .token\nif $token == \"abc\" {\n" + Self.target(server) + "}\n"
            try Self.write(text, "setup.wsh", in: directory)
            let result = try await WSHProcess.run(["fuzz", "setup.wsh", "--calls", "3", "--seed", "1"], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("wsh fuzz: 1 target at \(server.baseURL)"), "\(result.stderr)")
            #expect(server.requests.filter { $0.method == "GET" && $0.path == "/items" }.count == 3, "\(server.requests)")
        }
    }

    /// A mock server loading a file writes nothing anywhere: `wsh serve` refuses the file's write
    /// and does not start.
    @Test func serveRefusesAFilesWrite() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try Self.write(Self.target(server) + "delete \(server.baseURL)/items/1\n", "mock.wsh", in: directory)
            let serving = try RunningWSH(["serve", "mock.wsh", "--port", "48150"], directory: directory)
            let status = serving.waitForExit(timeout: 30)
            if status == nil { serving.interrupt() }
            #expect(status == 3, "\(serving.stderr)")
            #expect(serving.stderr.contains("mock.wsh:6") && serving.stderr.contains("will not send DELETE"), "\(serving.stderr)")
            #expect(!server.requests.contains { $0.method == "DELETE" }, "\(server.requests)")
        }
    }

    /// A file whose calls go to another host is served from its samples with `--stub`, as the
    /// refusal says.
    @Test func serveRefusesAnotherHostAndNamesStub() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(directory) }
        try Self.write("set timeout 2s\nget http://192.0.2.1:9/x\n", "away.wsh", in: directory)
        let serving = try RunningWSH(["serve", "away.wsh", "--port", "48151"], directory: directory)
        let status = serving.waitForExit(timeout: 30)
        if status == nil { serving.interrupt() }
        #expect(status == 3, "\(serving.stderr)")
        #expect(serving.stderr.contains("will not call 192.0.2.1: it is not a loopback address; `wsh serve --stub` answers"),
                "\(serving.stderr)")
    }
}
