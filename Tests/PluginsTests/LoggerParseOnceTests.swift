import Foundation
import Plugins
@testable import Targets
import TestSupport
import Testing

/// The logger masks and pretty-prints a response's body from the response's one parse as JSON,
/// which the validation message and the caller then share.
@Suite struct LoggerParseOnceTests {
    @Test func theLoggerTheValidationMessageAndTheCallerShareOneParse() async throws {
        let route = StaticRoute(status: 422, body: #"{"message":"unknown city","city":"Atlantis"}"#)
        try await withTestServer(routes: ["/weather": route]) { server in
            let recorder = Recorder()
            let provider = Provider<Target>(plugins: [LoggerPlugin(mode: .verbose, output: recorder.output)])
            let target = Target(name: "w", baseURL: server.baseURL, path: "/weather", validationType: .successCodes)
            let failure = try #require(await providerError { _ = try await provider.request(target) })
            let response = try #require(failure.response)
            #expect(failure.description.contains(#"(expected 2xx): "unknown city""#))
            #expect(recorder.text.hasSuffix("<\n{\n  \"message\": \"unknown city\",\n  \"city\": \"Atlantis\"\n}"))
            #expect(try response.json()["city"]?.string == "Atlantis")
            #expect(response.bodyParseCount == 1)
        }
    }

    @Test func aBodyWhoseMaskingChangedItIsStillParsedOnceAsReceived() async throws {
        let route = StaticRoute(body: #"{"name":"Suwon","token":"abcdef123456"}"#)
        try await withTestServer(routes: ["/weather": route]) { server in
            let recorder = Recorder()
            let provider = Provider<Target>(plugins: [LoggerPlugin(mode: .verbose, output: recorder.output)])
            let response = try await provider.request(Target(name: "w", baseURL: server.baseURL, path: "/weather"))
            #expect(recorder.text.hasSuffix("<\n{\n  \"name\": \"Suwon\",\n  \"token\": \"***\"\n}"))
            #expect(try response.json()["token"]?.string == "abcdef123456")
            #expect(response.bodyParseCount == 1)
        }
    }
}
