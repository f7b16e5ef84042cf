import Foundation
import Targets
import TestSupport
import Testing

/// What Targets gives a retry plugin and a logger: the per-target retry count, the request of a failed
/// send, the server's message, the "gave up" error, and pretty JSON.
@Suite struct RetrySupportTests {
    struct Plain: TargetType {
        var baseURL: String { "http://127.0.0.1:1" }
        var path: String { "/" }
    }

    @Test func retryCountDefaultsToNilAndTargetsCanDeclareIt() {
        #expect(Plain().retryCount == nil)
        let declared: any TargetType = Target(name: "t", retryCount: 2)
        #expect(declared.retryCount == 2)
    }

    @Test func retriesExhaustedQuotesTheServerMessageAndCarriesTheResponse() async throws {
        try await withTestServer { server in
            let target = Target(name: "flaky", baseURL: server.baseURL, path: "/status/503")
            let response = try await Provider<Target>().request(target)
            #expect(response.serverMessage == "Service Unavailable")
            let failure = ProviderError.retriesExhausted(response, attempts: 3, targetName: "flaky")
            #expect(failure.response?.status == 503)
            #expect(failure.step == .transport)
            #expect(failure.description
                == #"HTTP 503 Service Unavailable from target 'flaky' (after 3 attempts): "Service Unavailable" body: {"status":503,"message":"Service Unavailable"}"#)
            let early = ProviderError.retriesExhausted(response, attempts: 1, note: "Retry-After 2m is longer than max 5s",
                                                       targetName: "flaky")
            #expect(early.description.hasPrefix(
                "HTTP 503 Service Unavailable from target 'flaky' (after 1 attempt; Retry-After 2m is longer than max 5s)"))
        }
    }

    @Test func serverMessageIsNilWithoutOne() {
        let request = Request(method: .get, url: "http://x/")
        #expect(Response(status: 500, reason: "", body: Data("[1]".utf8), request: request).serverMessage == nil)
        #expect(Response(status: 500, reason: "", body: Data("oops".utf8), request: request).serverMessage == nil)
        #expect(Response(status: 500, reason: "", body: Data(#"{"detail":"no"}"#.utf8), request: request).serverMessage == "no")
    }

    @Test func prettyTextIndentsTwoSpacesAndKeepsOrder() throws {
        let value = try JSONValue.parse(#"{"b":1,"a":[true,null,{}],"c":[],"d":"x\"y"}"#)
        #expect(value.prettyText == """
        {
          "b": 1,
          "a": [
            true,
            null,
            {}
          ],
          "c": [],
          "d": "x\\"y"
        }
        """)
        #expect(try JSONValue.parse("3.10").prettyText == "3.10")
    }
}
