import Foundation
import Plugins
import Synchronization
import Targets
import TestSupport
import Testing

/// Runs `body` with a fresh loopback server and shuts it down afterwards, also when `body` throws.
func withTestServer<Result>(
    routes: [String: StaticRoute] = [:], _ body: (TestServer) async throws -> Result
) async throws -> Result {
    try await TestServer.with(routes: routes, body)
}

/// Collects what a plugin writes, in order, from any thread: a stand-in for stderr.
final class Recorder: Sendable {
    private let items = Mutex<[String]>([])

    /// Everything written so far.
    var lines: [String] { items.withLock { $0 } }
    /// Everything written so far, as one text.
    var text: String { lines.joined(separator: "\n") }

    /// An output closure that appends to this recorder.
    var output: OutputClosure { { [self] text in items.withLock { $0.append(text) } } }
}

/// Runs `body`, expecting a ``ProviderError``, and returns it (recording an issue otherwise).
func providerError(_ body: () async throws -> Void) async -> ProviderError? {
    do {
        try await body()
        Issue.record("expected a ProviderError, got success")
    } catch let error as ProviderError {
        return error
    } catch {
        Issue.record("expected a ProviderError, got \(error)")
    }
    return nil
}

/// The headers the server's `/echo` route received, as name-value pairs.
func echoedHeaders(_ response: Response) throws -> [(String, String)] {
    guard case .array(let pairs) = try response.json()["headers"] else { return [] }
    return pairs.compactMap { pair in
        guard let name = pair[0]?.string, let value = pair[1]?.string else { return nil }
        return (name, value)
    }
}

/// The first echoed header of that name, compared without case.
func echoedHeader(_ response: Response, _ name: String) throws -> String? {
    try echoedHeaders(response).first { $0.0.lowercased() == name.lowercased() }?.1
}

/// How long `body` took on the continuous clock.
func measure<T>(_ body: () async throws -> T) async rethrows -> (T, Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    let value = try await body()
    return (value, start.duration(to: clock.now))
}

extension Duration {
    /// Milliseconds as a number, for tolerances in messages.
    var ms: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
