import Foundation
import MockServer
import Synchronization
import Targets
import TestSupport

/// Starts a mock server on a free loopback port for one test, and stops it after.
func withMockServer<R>(
    _ targets: [Target], fallbackBase: String? = nil, delay: Duration? = nil, cors: Bool = false, bodyLimit: Int = 10 << 20,
    redaction: Redaction = Redaction(), log: (@Sendable (String) -> Void)? = nil, idleTimeout: Duration = .seconds(60),
    _ body: (MockServer) async throws -> R
) async throws -> R {
    let routes = MockRoutes(routes: targets.map { MockRoute(target: $0, fallbackBase: fallbackBase) }, redaction: redaction, delay: delay)
    let server = try await MockServer.start(.init(port: 0, cors: cors, bodyLimit: bodyLimit, log: log, idleTimeout: idleTimeout), routes: routes)
    return try await using(server, stoppedBy: { await $0.stop() }, body)
}

/// Sends one raw request on a new connection, off the cooperative pool, and reads the answer.
func rawRequest(_ port: Int, _ text: String) async throws -> RawHTTPConnection.Answer {
    try await offPool {
        let connection = try RawHTTPConnection(port: port)
        try connection.send(text)
        return try connection.readAnswer()
    }
}

/// Collects log lines.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    var sink: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
}

enum Samples {
    /// The shape of Open-Meteo's forecast answer (shared/fixtures/real).
    static let forecast = #"{"latitude":37.25,"longitude":127.125,"current":{"time":"2026-11-21T09:45","interval":900,"temperature_2m":6.8}}"#
    static let user = #"{"id":7,"name":"Ada"}"#
    static let missingUser = #"{"error":"no such user"}"#

    static let forecastTarget = Target(
        name: "current", baseURL: "https://api.open-meteo.com/v1", path: "/forecast",
        task: .query([Parameter(name: "latitude"), Parameter(name: "longitude"), Parameter(name: "current", defaultValue: .text("temperature_2m"))]),
        samples: [Sample(body: Data(forecast.utf8), contentType: "application/json")])
    static let userTarget = Target(
        name: "user", baseURL: "https://api.example.com", path: "/users/{id}",
        samples: [Sample(body: Data(user.utf8)), Sample(status: 404, body: Data(missingUser.utf8))])
    static let createTarget = Target(
        name: "create", baseURL: "https://api.example.com", path: "/users", method: .post,
        task: .json([Parameter(name: "name"), Parameter(name: "age", defaultValue: .json("30")),
                     Parameter(name: "tags", defaultValue: .json(#"["a"]"#))]),
        samples: [Sample(status: 201, body: Data(user.utf8))])
}
