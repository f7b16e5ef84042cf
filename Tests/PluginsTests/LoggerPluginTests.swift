import Foundation
import Plugins
@testable import Targets
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

/// The logger masks and pretty-prints a response's body from the response's one parse as JSON,
/// which the validation message and the caller then share.
@Suite struct LoggerParseOnceTests {
    @Test func theLoggerTheValidationMessageAndTheCallerShareOneParse() async throws {
        let route = StaticRoute(status: 422, body: #"{"message":"unknown city","city":"Atlantis"}"#)
        try await withTestServer(routes: ["/weather": route]) { server in
            let recorder = Recorder()
            let provider = Provider<Target>(plugins: [LoggerPlugin(mode: .verbose, output: recorder.output)])
            let target = Target(name: "w", baseURL: server.baseURL, path: "/weather", validationType: .successCodes)
            let failure = try #require(await providerError { _ = try await provider.request(target) })
            let response = try #require(failure.response)
            #expect(failure.description.contains(#"(expected 2xx): "unknown city""#))
            #expect(recorder.text.hasSuffix("<\n{\n  \"message\": \"unknown city\",\n  \"city\": \"Atlantis\"\n}"))
            #expect(try response.json()["city"]?.string == "Atlantis")
            #expect(response.bodyParseCount == 1)
        }
    }

    @Test func aBodyWhoseMaskingChangedItIsStillParsedOnceAsReceived() async throws {
        let route = StaticRoute(body: #"{"name":"Suwon","token":"abcdef123456"}"#)
        try await withTestServer(routes: ["/weather": route]) { server in
            let recorder = Recorder()
            let provider = Provider<Target>(plugins: [LoggerPlugin(mode: .verbose, output: recorder.output)])
            let response = try await provider.request(Target(name: "w", baseURL: server.baseURL, path: "/weather"))
            #expect(recorder.text.hasSuffix("<\n{\n  \"name\": \"Suwon\",\n  \"token\": \"***\"\n}"))
            #expect(try response.json()["token"]?.string == "abcdef123456")
            #expect(response.bodyParseCount == 1)
        }
    }
}

/// A planted secret goes through every plugin output and never comes out.
@Suite struct MaskingTests {
    static let planted = "planted-S3CRET-4f9a"
    static let bearer = "bearer-tok-77q"
    static let password = "hunter2-pw"
    static let appid = "appid-v4lue"

    /// A POST to `/echo` (which sends everything back) carrying the planted values every way it can.
    static func target(_ server: TestServer, path: String = "/echo") -> Target {
        Target(
            name: "leaky", baseURL: server.baseURL, path: path, method: .put,
            task: .composite(
                query: [Parameter(name: "q", defaultValue: .text(planted)), Parameter(name: "appid", defaultValue: .text(appid))],
                body: .json([Parameter(name: "note", defaultValue: .text("x \(planted) y")),
                             Parameter(name: "password", defaultValue: .text(password))])),
            headers: [Header(name: "X-Trace", value: planted), Header(name: "Cookie", value: "session=\(planted)")])
    }

    static func assertClean(_ text: String, _ context: String) {
        for secret in [planted, bearer, password, appid, PercentEncoding(planted)] {
            #expect(!text.contains(secret), "\(context) shows \(secret):\n\(text)")
        }
        #expect(text.contains("***"), "\(context) masks nothing:\n\(text)")
    }

    @Test(arguments: LoggerPlugin.Mode.allCases)
    func loggerMasksThePlantedSecretInEveryMode(mode: LoggerPlugin.Mode) async throws {
        try await withTestServer { server in
            let recorder = Recorder()
            let redaction = Redaction(secrets: [Self.planted])
            let provider = Provider<Target>(plugins: [
                AuthPlugin(.bearer(Self.bearer), scope: .everywhere),
                LoggerPlugin(mode: mode, bodyLimit: nil, redaction: redaction, output: recorder.output),
            ])
            let response = try await provider.request(Self.target(server))
            #expect(response.text.contains(Self.planted), "the server did see the secret")
            #expect(response.text.contains(Self.bearer))
            Self.assertClean(recorder.text, "\(mode)")
        }
    }

    @Test func aSecretAServerEscapedIsMaskedOnceTheBodyIsPrettyPrinted() async throws {
        // `\u0070` is `p`: no encoder writes it so, but parsing the body for display undoes it.
        let body = #"{"echo":"\u0070lanted-S3CRET-4f9a"}"#
        try await withTestServer(routes: ["/escaped": StaticRoute(body: body)]) { server in
            let recorder = Recorder()
            let logger = LoggerPlugin(mode: .verbose, bodyLimit: nil, redaction: Redaction(secrets: [Self.planted]),
                                      output: recorder.output)
            _ = try await Provider<Target>(plugins: [logger]).request(Target(name: "e", baseURL: server.baseURL, path: "/escaped"))
            Self.assertClean(recorder.text, "verbose")
            #expect(recorder.text.contains(#""echo": "***""#), "\(recorder.text)")
        }
    }

    @Test func retryReportsAndFailureLinesMaskTheSecretInTheURL() async throws {
        try await withTestServer { server in
            let recorder = Recorder()
            let redaction = Redaction(secrets: [Self.planted])
            var target = Self.target(server, path: "/never")
            target.timeout = .milliseconds(100)
            let provider = Provider<Target>(plugins: [
                LoggerPlugin(mode: .summary, redaction: redaction, output: recorder.output),
                RetryPlugin(count: 1, backoff: .milliseconds(10), jitter: 0, retriesUnsafeMethods: true,
                            redaction: redaction, report: recorder.output),
            ])
            let failure = try #require(await providerError { _ = try await provider.request(target) })
            #expect(failure.isTimeout)
            #expect(recorder.lines.count == 3)
            #expect(recorder.lines[1].hasPrefix("retry 1/1 after 10 ms: PUT "))
            Self.assertClean(recorder.text, "retry and summary")
        }
    }
}

/// The percent-encoded form of a value, as it appears in a URL.
private func PercentEncoding(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
}
