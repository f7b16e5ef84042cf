import Foundation
import Plugins
import Targets
import TestSupport
import Testing

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
