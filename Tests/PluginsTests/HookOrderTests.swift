import Foundation
import Plugins
import Targets
import TestSupport
import Testing

/// The built-in plugins together: each attempt is prepared once, logged, and retried in order.
@Suite struct HookOrderTests {
    @Test func loggerSeesEveryAttemptAndRetryNoticesComeBetween() async throws {
        try await withTestServer { server in
            let recorder = Recorder()
            let provider = Provider<Target>(plugins: [
                LoggerPlugin(mode: .summary, output: recorder.output),
                RetryPlugin(count: 3, backoff: .milliseconds(20), jitter: 0, report: recorder.output),
                AuthPlugin.bearer("tok-abc", host: "127.0.0.1"),
            ])
            let response = try await provider.request(Target(name: "flaky", baseURL: server.baseURL, path: "/flaky/order?fail=2"))
            #expect(response.status == 200)
            let shapes = recorder.lines.map { line in
                line.hasPrefix("GET ") ? String(line.split(separator: " ")[3]) : String(line.prefix(9))
            }
            #expect(shapes == ["503", "retry 1/3", "503", "retry 2/3", "200"])
        }
    }

    @Test func prepareRunsOnceButEveryAttemptCarriesItsHeader() async throws {
        try await withTestServer { server in
            let recorder = Recorder()
            let provider = Provider<Target>(plugins: [
                RetryPlugin(count: 1, backoff: .milliseconds(10), jitter: 0, report: { _ in }),
                LoggerPlugin(mode: .verbose, output: recorder.output),
                AuthPlugin.bearer("tok-abc", host: "127.0.0.1"),
            ])
            _ = try await provider.request(Target(name: "flaky", baseURL: server.baseURL, path: "/flaky/auth?fail=1"))
            let requests = recorder.lines.filter { $0.hasPrefix("> ") }
            #expect(requests.count == 2)
            #expect(requests.allSatisfy { $0.contains("\n> Authorization: ***") })
            #expect(!recorder.text.contains("tok-abc"))
        }
    }
}
