import Foundation
import Targets
import TestSupport
import Testing

/// Stubbing answers from a target's sample, without the network, and still validates.
@Suite struct StubTransportTests {
    /// The shape of OpenWeatherMap's 2.5 `weather` answer (shared/fixtures/real/owm-weather.json).
    static let weatherSample = #"{"coord":{"lon":-0.13,"lat":51.51},"weather":[{"id":803,"main":"Clouds","description":"broken clouds","icon":"04d"}],"base":"stations","main":{"temp":289.92,"feels_like":285.56,"temp_min":288.71,"temp_max":291.15,"pressure":1010,"humidity":55},"visibility":10000,"wind":{"speed":5.1,"deg":250},"clouds":{"all":75},"dt":1588083032,"sys":{"type":1,"id":1414,"country":"GB","sunrise":1588048444,"sunset":1588101484},"timezone":3600,"id":2643743,"name":"London","cod":200}"#

    /// A port nothing listens on: a stub that sent a request would fail.
    private static let unreachable = "http://127.0.0.1:9"

    @Test func immediateStubAnswersFromTheSample() async throws {
        let target = Target(
            name: "weather", baseURL: Self.unreachable, path: "/data/2.5/weather",
            task: .query([Parameter(name: "appid", defaultValue: .text("k"))]),
            sampleData: Data(Self.weatherSample.utf8))
        let response = try await Provider<Target>(stubBehavior: .immediate).request(target)
        #expect(response.status == 200)
        #expect(response.reason == "OK")
        #expect(response.text == Self.weatherSample)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.request.url == Self.unreachable + "/data/2.5/weather?appid=k")
        #expect(try response.json()["main"]?["temp"]?.double == 289.92)
        #expect(response.elapsed < .seconds(30))
    }

    @Test func delayedStubWaitsThenAnswers() async throws {
        let target = Target(name: "weather", baseURL: Self.unreachable, sampleData: Data(Self.weatherSample.utf8))
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await Provider<Target>(stubBehavior: .delayed(.milliseconds(300))).request(target)
        let elapsed = start.duration(to: clock.now)
        #expect(response.text == Self.weatherSample)
        #expect(elapsed >= .milliseconds(290))
        // Far above 300 ms, as a loaded CI machine can be slow (11 s seen), yet far below the 300 s
        // that reading the delay in the wrong unit would wait.
        #expect(elapsed < .seconds(60))
        #expect(response.elapsed >= .milliseconds(290))
    }

    @Test func stubbedStatusIsStillValidated() async throws {
        let body = #"{"cod":401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#
        let target = Target(
            name: "weather", baseURL: Self.unreachable, sampleData: Data(body.utf8), sampleStatus: 401,
            validationType: .successCodes)
        let failure = try #require(await providerError {
            _ = try await Provider<Target>(stubBehavior: .immediate).request(target)
        })
        #expect(failure.step == .validation)
        #expect(failure.response?.status == 401)
        #expect(failure.description.contains(#"(expected 2xx): "Invalid API key."#))
    }

    @Test func nonJSONSampleHasNoJSONContentType() async throws {
        let target = Target(name: "text", baseURL: Self.unreachable, sampleData: Data("plain words".utf8), sampleStatus: 202)
        let response = try await StubTransport().send(Request(method: .get, url: Self.unreachable), for: target)
        #expect(response.status == 202)
        #expect(response.reason == "Accepted")
        #expect(response.header("Content-Type") == nil)
        #expect(response.body == Data("plain words".utf8))
    }

    @Test func stubbingStillChecksParameters() async throws {
        let target = Target(name: "weather", baseURL: Self.unreachable, path: "/{city}")
        let failure = await providerError { _ = try await Provider<Target>(stubBehavior: .immediate).request(target) }
        #expect(failure?.missingParameter == "city")
    }
}

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
