import Foundation
import Plugins
import Targets
import TestSupport
import Testing

/// The logger's three modes against the loopback server, and its file output.
@Suite struct LoggerPluginTests {
    static let weather = StaticRoute(body: #"{"name":"Suwon","main":{"temp":21.5}}"#)

    @Test func summaryIsOneLinePerCall() async throws {
        try await withTestServer(routes: ["/weather": Self.weather]) { server in
            let recorder = Recorder()
            let provider = Provider<Target>(plugins: [LoggerPlugin(mode: .summary, output: recorder.output)])
            let target = Target(name: "weather", baseURL: server.baseURL, path: "/weather", task: .query([Parameter(name: "q", defaultValue: .text("Suwon"))]))
            _ = try await provider.request(target)
            #expect(recorder.lines.count == 1)
            let line = try #require(recorder.lines.first)
            #expect(line.hasPrefix("GET \(server.baseURL)/weather?q=Suwon -> 200 OK "))
            // `12.5 s` once a loaded machine takes ten seconds (seen under a parallel build).
            #expect(line.wholeMatch(of: /GET \S+ -> 200 OK (\d+ ms|\d+\.\d s) 37 B/) != nil, "\(line)")
        }
    }

    /// A body written to a file as it came is not kept in the response: the line gives what went to the file.
    @Test func summaryOfABodyWrittenToAFileGivesItsSize() async throws {
        try await withTestServer(routes: ["/weather": Self.weather]) { server in
            let recorder = Recorder()
            let provider = Provider<Target>(plugins: [LoggerPlugin(mode: .summary, output: recorder.output)])
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("logger-\(UUID().uuidString).json").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            _ = try await provider.request(Target(name: "weather", baseURL: server.baseURL, path: "/weather"), writingBodyTo: file)
            let line = try #require(recorder.lines.first)
            #expect(line.hasSuffix(" 37 B"), "\(line)")
        }
    }

    @Test func summaryOfAFailureNamesTheRequestAndTheError() async throws {
        // Port 9 (discard), which nothing here listens on: the port of a server just shut down can be
        // taken at once by a server another test starts, and answer.
        let port = 9
        let recorder = Recorder()
        let provider = Provider<Target>(plugins: [LoggerPlugin.summary.with(output: recorder.output)])
        _ = await providerError { _ = try await provider.request(Target(name: "gone", baseURL: "http://127.0.0.1:\(port)", path: "/x")) }
        #expect(recorder.lines == ["GET http://127.0.0.1:\(port)/x -> error: could not connect to 127.0.0.1:\(port): connection refused"])
    }

    @Test func verboseShowsHeadersAndPrettyBodies() async throws {
        try await withTestServer(routes: ["/weather": Self.weather]) { server in
            let recorder = Recorder()
            let provider = Provider<Target>(plugins: [LoggerPlugin(mode: .verbose, output: recorder.output)])
            let target = Target(name: "w", baseURL: server.baseURL, path: "/weather", method: .post,
                                task: .json([Parameter(name: "city", defaultValue: .text("Suwon"))]),
                                headers: [Header(name: "Accept", value: "application/json")])
            _ = try await provider.request(target)
            #expect(recorder.lines.count == 2)
            #expect(recorder.lines.first == """
            > POST \(server.baseURL)/weather
            > Accept-Encoding: gzip, deflate, br
            > Accept: application/json
            > Content-Type: application/json
            >
            {
              "city": "Suwon"
            }
            """)
            let response = try #require(recorder.lines.last)
            #expect(response.hasPrefix("< 200 OK "))
            #expect(response.contains("\n< Content-Type: application/json\n"))
            #expect(response.hasSuffix("""
            <
            {
              "name": "Suwon",
              "main": {
                "temp": 21.5
              }
            }
            """))
        }
    }

    @Test func verboseCutsLongBodiesAndLeavesOutBinaryOnes() async throws {
        let routes = [
            "/long": StaticRoute(contentType: "text/plain", body: String(repeating: "abcdefghij", count: 100)),
            "/binary": StaticRoute(contentType: "application/octet-stream", body: [0xFF, 0xFE, 0x00, 0x01]),
        ]
        try await withTestServer(routes: routes) { server in
            let recorder = Recorder()
            let provider = Provider<Target>(plugins: [LoggerPlugin(mode: .verbose, bodyLimit: 25, output: recorder.output)])
            _ = try await provider.request(Target(name: "l", baseURL: server.baseURL, path: "/long"))
            _ = try await provider.request(Target(name: "b", baseURL: server.baseURL, path: "/binary"))
            #expect(recorder.lines[1].hasSuffix("<\nabcdefghijabcdefghijabcde… (cut at 25 of 1000 characters)"))
            #expect(recorder.lines[3].hasSuffix("<\n<4 bytes of binary data>"))
            let none = Recorder()
            let quiet = Provider<Target>(plugins: [LoggerPlugin(mode: .verbose, bodyLimit: 0, output: none.output)])
            _ = try await quiet.request(Target(name: "l", baseURL: server.baseURL, path: "/long"))
            #expect(!none.text.contains("abc"))
        }
    }

    @Test func curlModePrintsTheCommandThenTheOutcome() async throws {
        try await withTestServer { server in
            let recorder = Recorder()
            let provider = Provider<Target>(plugins: [LoggerPlugin(mode: .curl, output: recorder.output)])
            let target = Target(name: "e", baseURL: server.baseURL, path: "/echo", headers: [Header(name: "Accept", value: "text/plain")])
            _ = try await provider.request(target)
            #expect(recorder.lines.count == 2)
            // The Accept-Encoding every request has is curl's --compressed.
            #expect(recorder.lines.first == "curl --compressed \\\n  \(server.baseURL)/echo \\\n  -H 'Accept: text/plain'")
            #expect(recorder.lines.last?.hasPrefix("# -> 200 OK ") == true)
        }
    }

    @Test func fileOutputAppendsEveryBlock() async throws {
        let directory = try ScratchDirectory.make("wsh-log")
        let path = directory.appendingPathComponent("log.txt").path
        try "earlier\n".write(toFile: path, atomically: true, encoding: .utf8)
        try await withTestServer { server in
            let file = try LogFile(path: path)
            let provider = Provider<Target>(plugins: [LoggerPlugin(mode: .verbose, output: file.output)])
            _ = try await provider.request(Target(name: "e", baseURL: server.baseURL, path: "/status/404"))
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("earlier\n> GET http://127.0.0.1:"))
        #expect(text.contains("\n< 404 Not Found "))
        #expect(text.hasSuffix("}\n"))
        #expect(throws: LogFile.OpenError.self) { try LogFile(path: directory.path) }
        let error = try? LogFile(path: directory.appendingPathComponent("no/such/dir/log.txt").path)
        #expect(error == nil)
    }
}

extension LoggerPlugin {
    /// This logger writing to `output` instead.
    func with(output: @escaping OutputClosure) -> LoggerPlugin {
        var copy = self
        copy.output = output
        return copy
    }
}
