@testable import Targets
import TestSupport
import Testing

/// Arguments that do not fit the target fail before anything is sent.
@Suite struct ParameterErrorTests {
    private func current(_ server: TestServer) -> Target {
        Target(
            name: "current", baseURL: server.baseURL, path: "/echo/{station}",
            task: .query([
                Parameter(name: "latitude", defaultValue: .text("37.27")),
                Parameter(name: "longitude", defaultValue: .text("127.11")),
            ]))
    }

    @Test func unknownParameterIsNamedWithTheTargetsParameters() async throws {
        try await withTestServer { server in
            let arguments = CallArguments(values: [(name: "station", value: .text("s")), (name: "lattitude", value: .text("1"))])
            let error = await providerError { _ = try await Provider<Target>().request(current(server), arguments: arguments) }
            let failure = try #require(error)
            #expect(failure.step == .endpoint)
            #expect(failure.unknownParameter == "lattitude")
            #expect(failure.missingParameter == nil)
            #expect(failure.parameters == ["station", "latitude", "longitude"])
            #expect(failure.targetName == "current")
            #expect(failure.description == "unknown parameter 'lattitude' for target 'current'")
            #expect(server.hits("/echo/s") == 0)
        }
    }

    @Test func missingRequiredParameterIsNamed() async throws {
        try await withTestServer { server in
            let error = await providerError { _ = try await Provider<Target>().request(current(server)) }
            let failure = try #require(error)
            #expect(failure.step == .endpoint)
            #expect(failure.missingParameter == "station")
            #expect(failure.unknownParameter == nil)
            #expect(failure.parameters == ["station", "latitude", "longitude"])
            #expect(failure.description == "missing required parameter 'station' for target 'current'")
        }
    }

    /// A path segment takes one value: a second one for it is an error naming it, not a silent choice
    /// of one (a query or body parameter given twice is sent twice).
    @Test func aPathParameterGivenTwiceIsAnError() async throws {
        try await withTestServer { server in
            let error = await providerError {
                _ = try await Provider<Target>().request(current(server), arguments: CallArguments(values: [("station", .text("a")), ("station", .text("b"))]))
            }
            #expect(error?.step == .endpoint)
            #expect(error?.misplacedArgument == "station")
            #expect(server.hits("/echo/a") + server.hits("/echo/b") == 0)
        }
    }
}

@Suite struct URLCheckTests {
    @Test func httpAndHttpsURLsWithAHostPass() {
        for url in ["http://127.0.0.1:8080/x", "https://api.open-meteo.com/v1/forecast?a=1", "HTTP://Example.com", "http://h"] {
            #expect(Endpoint.hasHTTPSchemeAndHost(url), "\(url)")
        }
    }

    @Test func otherSchemesAndMissingHostsFail() {
        for url in ["ftp://host/x", "http://", "https:///path", "http://:80/x", "api.example.com/x", "", "htp://x"] {
            #expect(!Endpoint.hasHTTPSchemeAndHost(url), "\(url)")
        }
    }

    @Test func aTargetWithABadBaseIsAnEndpointError() {
        let target = Target(name: "bad", baseURL: "ftp://files.example.com", path: "/x")
        #expect(throws: ProviderError.self) { _ = try Endpoint(target: target, arguments: CallArguments()) }
    }
}
