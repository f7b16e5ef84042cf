import Foundation
import Targets
import Testing

/// A target with several samples answers its first by default and another by status, with each
/// sample's media type.
@Suite struct SeveralSamplesTests {
    private static let unreachable = "http://127.0.0.1:9"
    private static let user = Sample(body: Data(#"{"id": 1, "name": "Ada"}"#.utf8))
    private static let missing = Sample(status: 404, body: Data(#"{"error": "no such user"}"#.utf8), contentType: "application/problem+json")
    private static let target = Target(name: "user", baseURL: unreachable, path: "/users/1", samples: [user, missing])

    @Test func theFirstSampleIsTheDefault() async throws {
        let response = try await Provider<Target>(stubBehavior: .immediate).request(Self.target)
        #expect(response.status == 200)
        #expect(response.text == #"{"id": 1, "name": "Ada"}"#)
        #expect(response.header("Content-Type") == "application/json")
    }

    @Test func aStatusPicksThatSampleWithItsMediaType() async throws {
        let response = try await Provider<Target>(stubBehavior: .immediate, stubStatus: 404).request(Self.target)
        #expect(response.status == 404)
        #expect(response.reason == "Not Found")
        #expect(response.text == #"{"error": "no such user"}"#)
        #expect(response.header("Content-Type") == "application/problem+json")
    }

    @Test func aStatusWithNoSampleIsAnErrorListingTheStatusesThereAre() async {
        await #expect {
            _ = try await Provider<Target>(stubBehavior: .immediate, stubStatus: 500).request(Self.target)
        } throws: { error in
            "\(error)".contains("target 'user' has no sample with status 500; its samples: 200, 404")
        }
    }

    @Test func moyasOneSampleIsStillTheSamples() {
        let target = Target(name: "t", sampleData: Data("x".utf8), sampleStatus: 202)
        #expect(target.samples == [Sample(status: 202, body: Data("x".utf8))])
        #expect(target.sampleData == Data("x".utf8))
        #expect(Target(name: "none").samples.isEmpty)
    }

    @Test func mediaTypesFollowTheExtensionAndBack() {
        #expect(MediaType.of(file: "photo.PNG") == "image/png")
        #expect(MediaType.of(file: "notes.unknownext") == "application/octet-stream")
        #expect(MediaType.known(file: "a/b/data.json") == "application/json")
        #expect(MediaType.fileExtension(for: "application/problem+json; charset=utf-8") == "json")
        #expect(MediaType.fileExtension(for: "text/html; charset=utf-8") == "html")
        #expect(MediaType.fileExtension(for: "application/x-unheard-of") == nil)
    }
}
