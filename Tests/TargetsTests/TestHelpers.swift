import Targets
import TestSupport
import Testing

/// Runs `body` with a fresh loopback server and shuts it down afterwards, also when `body` throws.
func withTestServer<Result>(
    routes: [String: StaticRoute] = [:], _ body: (TestServer) async throws -> Result
) async throws -> Result {
    try await TestServer.with(routes: routes, body)
}

/// What the server's `/echo` route saw.
struct Echo {
    var method: String
    var path: String
    var query: String
    var headers: [(name: String, value: String)]
    var body: String

    init(_ response: Response) throws {
        let json = try response.json()
        method = try #require(json["method"]?.string)
        path = try #require(json["path"]?.string)
        query = try #require(json["query"]?.string)
        body = try #require(json["body"]?.string)
        guard case .array(let pairs) = try #require(json["headers"]) else {
            throw EchoError.malformed
        }
        headers = try pairs.map { pair in
            (try #require(pair[0]?.string), try #require(pair[1]?.string))
        }
    }

    /// The first header of that name, compared without regard to case.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every header of that name, in order.
    func headers(named name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    enum EchoError: Error { case malformed }
}

/// Sends `target` with `values` through a network provider and decodes what `/echo` saw.
func echo(_ target: Target, _ values: [(String, ParameterValue)] = [], headers: [Header] = []) async throws -> Echo {
    let arguments = CallArguments(values: values.map { (name: $0.0, value: $0.1) }, headers: headers)
    let response = try await Provider<Target>().request(target, arguments: arguments)
    #expect(response.status == 200)
    return try Echo(response)
}

/// Runs `body`, expecting it to throw a ``ProviderError``, and returns that error
/// (recording an issue, and returning `nil`, when it succeeds or throws something else).
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
