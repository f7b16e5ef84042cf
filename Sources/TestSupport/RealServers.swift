import Foundation

// Starting and stopping a program wait for it: off the cooperative pool, whose few threads other tests need.

/// Runs `body` with a fresh nginx (``NginxServer``), stopped afterwards, also when `body` throws.
public func withNginx<Result>(_ body: (NginxServer) async throws -> Result) async throws -> Result {
    try await using(offPool { try NginxServer() }, stoppedBy: { nginx in _ = try? await offPool { nginx.stop() } }, body)
}

/// Runs `body` with a fresh tinyproxy (``TinyproxyServer``), stopped afterwards. It tunnels
/// (CONNECT) to `connectPorts` only; the default, port 1, leaves it to plain http.
public func withTinyproxy<Result>(
    connectPorts: [Int] = [1], credentials: (user: String, password: String)? = nil, _ body: (TinyproxyServer) async throws -> Result
) async throws -> Result {
    try await using(
        offPool { try TinyproxyServer(connectPorts: connectPorts, credentials: credentials) },
        stoppedBy: { proxy in _ = try? await offPool { proxy.stop() } }, body)
}

/// Runs `body` with a fresh squid (``SquidServer``), stopped afterwards.
public func withSquid<Result>(_ body: (SquidServer) async throws -> Result) async throws -> Result {
    try await using(offPool { try SquidServer() }, stoppedBy: { squid in _ = try? await offPool { squid.stop() } }, body)
}
