import Foundation
@testable import Targets
import TestSupport
import Testing

/// A response's body is parsed as JSON at most once, by whichever reader asks first, and never
/// when nobody asks; copies share that parse, a new body starts a fresh one.
@Suite struct ResponseBodyTests {
    private static let request = Request(method: .get, url: "http://127.0.0.1:9/x")

    private func response(_ body: String, status: Int = 200, contentType: String? = "application/json") -> Response {
        Response(status: status, reason: "", headers: contentType.map { [Header(name: "Content-Type", value: $0)] } ?? [],
                 body: Data(body.utf8), request: Self.request, targetName: "t")
    }

    @Test func nothingIsParsedUntilSomeoneReadsTheBodyAsJSON() {
        let response = response(#"{"message":"hi"}"#)
        _ = (response.text, response.body, response.rawBody, response.header("Content-Type"), response.url)
        #expect(response.bodyParseCount == 0)
    }

    @Test func everyReaderAndEveryCopyShareOneParse() throws {
        let response = response(#"{"message":"slow down","token":"abcdef123456"}"#, status: 429)
        let copy = response
        #expect(try response.json()["message"]?.string == "slow down")
        #expect(try copy.json()["message"]?.string == "slow down")
        #expect(response.serverMessage == "slow down")
        #expect(Redaction().maskedBody(of: copy) == #"{"message":"slow down","token":"***"}"#)
        let error = ProviderError.unacceptableStatus(copy, validation: .successCodes, targetName: "t")
        #expect(error.description.contains(#": "slow down" body: "#))
        #expect(try error.response?.json()["token"]?.string == "abcdef123456")
        #expect(response.bodyParseCount == 1)
    }

    @Test func aBodyThatIsNotJSONIsParsedOnceAndFailsAlikeEachTime() async {
        let response = response("{not json")
        let first = await providerError { _ = try response.json() }
        let second = await providerError { _ = try response.json() }
        #expect(response.serverMessage == nil)
        #expect(first?.step == .decoding)
        #expect(first?.description == second?.description)
        #expect(first?.description.contains("line 1, column 2") == true)
        #expect(response.bodyParseCount == 1)
    }

    @Test func readersOnManyThreadsAtOnceWaitForOneParse() async throws {
        let items = (0..<2_000).map { #"{"n":\#($0)}"# }.joined(separator: ",")
        let response = response("[\(items)]")
        let lengths = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                let copy = response
                group.addTask {
                    guard case .array(let elements) = try? copy.json() else { return -1 }
                    return elements.count
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(lengths == Array(repeating: 2_000, count: 16))
        #expect(response.bodyParseCount == 1)
    }

    @Test func aNewBodyIsParsedAfreshAndTheRawBodyStaysAsReceived() throws {
        var response = response(#"{"v":1}"#)
        let before = response
        #expect(try response.json()["v"]?.double == 1)
        response.body = Data(#"{"v":2}"#.utf8)
        #expect(response.bodyParseCount == 0)
        #expect(try response.json()["v"]?.double == 2)
        #expect(try before.json()["v"]?.double == 1)
        #expect(response.rawBody == Data(#"{"v":1}"#.utf8))
        #expect(response.bodyParseCount == 1)
        #expect(before.bodyParseCount == 1)
    }

    @Test func theStubsCheckForJSONIsTheResponsesOneParse() async throws {
        let target = Target(name: "s", baseURL: "http://127.0.0.1:9", sampleData: Data(#"{"message":"stubbed"}"#.utf8))
        let response = try await Provider<Target>(stubBehavior: .immediate).request(target)
        #expect(response.header("Content-Type") == "application/json")
        #expect(try response.json()["message"]?.string == "stubbed")
        #expect(response.serverMessage == "stubbed")
        #expect(response.bodyParseCount == 1)
    }

    @Test func aCallOverTheNetworkParsesNothingItself() async throws {
        try await withTestServer(routes: ["/j": StaticRoute(status: 503, body: #"{"message":"busy"}"#)]) { server in
            let target = Target(name: "j", baseURL: server.baseURL, path: "/j")
            let response = try await Provider<Target>().request(target)
            #expect(response.bodyParseCount == 0)
            let failure = await providerError {
                _ = try await Provider<Target>().request(Target(name: "j", baseURL: server.baseURL, path: "/j",
                                                                 validationType: .successCodes))
            }
            let rejected = try #require(failure?.response)
            #expect(rejected.bodyParseCount == 0)
            #expect(failure?.description.contains(#""busy""#) == true)
            #expect(try rejected.json()["message"]?.string == "busy")
            #expect(rejected.bodyParseCount == 1)
        }
    }
}
