import Foundation
import TestSupport

// What the end-to-end tests share: a loopback server, scripts run in the built binary,
// and blocking work kept off the test process's few cooperative threads.

/// Runs `body` with a fresh loopback server and shuts the server down afterwards on every path,
/// also when `body` throws. Every end-to-end test that needs a server starts it here.
func withLoopbackServer<T>(routes: [String: StaticRoute] = [:], _ body: (TestServer) async throws -> T) async throws -> T {
    try await TestServer.with(routes: routes, body)
}

/// Runs `script` as a `.wsh` file in `directory` (a fresh one by default); returns the result and how long it took.
func runScript(_ script: String, environment: [String: String] = [:], directory: URL? = nil)
    async throws -> (WSHProcess.Result, Duration) {
    let directory = try directory ?? WSHProcess.temporaryDirectory()
    let file = directory.appendingPathComponent("script.wsh")
    try script.write(to: file, atomically: true, encoding: .utf8)
    return try await offPool {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try WSHProcess.run([file.path], environment: environment, directory: directory)
        return (result, start.duration(to: clock.now))
    }
}

