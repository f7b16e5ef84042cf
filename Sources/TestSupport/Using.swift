/// Runs `body` with `server`, then stops it with `stop` on every path, also when `body` throws:
/// how a test server (a mock server, httpbin) is kept to one test.
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
