/// Runs `body` with `server`, then stops it with `stop` on every path, also when `body` throws:
/// the one way a test server (nginx, tinyproxy, squid, httpbin, the NIO test servers, a mock
/// server) is kept to one test. Each server's `with` starts it (waiting until it answers) and
/// passes it here.
public func using<Server, Result>(
    _ server: Server, stoppedBy stop: (Server) async -> Void, _ body: (Server) async throws -> Result
) async throws -> Result {
    do {
        let result = try await body(server)
        await stop(server)
        return result
    } catch {
        await stop(server)
        throw error
    }
}
