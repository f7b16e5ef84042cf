import Foundation
import Targets
import TestSupport
import Testing

/// Statuses outside a target's validation range become errors that carry the response.
@Suite struct ValidationFailureMessageTests {
    @Test func serverErrorOutside2xxQuotesTheJSONMessage() async throws {
        try await withTestServer { server in
            let target = Target(name: "boom", baseURL: server.baseURL, path: "/status/500", validationType: .successCodes)
            let error = await providerError { _ = try await Provider<Target>().request(target) }
            let failure = try #require(error)
            #expect(failure.step == .validation)
            #expect(failure.response?.status == 500)
            #expect(failure.description
                == #"HTTP 500 Internal Server Error from target 'boom' (expected 2xx): "Internal Server Error" body: {"status":500,"message":"Internal Server Error"}"#)
        }
    }

    @Test func apiErrorBodiesShowTheirMessage() async throws {
        let routes = [
            "/owm-401": StaticRoute(status: 401, body: #"{"cod":401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#),
            "/meteo-400": StaticRoute(status: 400, body: #"{"error":true,"reason":"Cannot initialize TemperatureUnit from invalid String value asdfsfd for key temperature_unit"}"#),
            "/nested": StaticRoute(status: 422, body: #"{"error":{"message":"name is taken","code":7}}"#),
            "/plain": StaticRoute(status: 503, contentType: "text/plain", body: "down for\n maintenance"),
        ]
        try await withTestServer(routes: routes) { server in
            func failure(_ path: String) async throws -> ProviderError {
                let target = Target(name: "api", baseURL: server.baseURL, path: path, validationType: .successCodes)
                return try #require(await providerError { _ = try await Provider<Target>().request(target) })
            }
            let owm = try await failure("/owm-401").description
            let meteo = try await failure("/meteo-400").description
            let nested = try await failure("/nested").description
            let plain = try await failure("/plain").description
            #expect(owm.contains(
                #"HTTP 401 Unauthorized from target 'api' (expected 2xx): "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info.""#))
            #expect(meteo.contains(#": "Cannot initialize TemperatureUnit"#))
            #expect(nested.contains(#"(expected 2xx): "name is taken" body: {"error""#))
            #expect(plain == "HTTP 503 Service Unavailable from target 'api' (expected 2xx) body: down for maintenance")
        }
    }

    @Test func longBodiesAreCutInTheMessage() async throws {
        let long = String(repeating: "x", count: 5000)
        try await withTestServer(routes: ["/long": StaticRoute(status: 500, contentType: "text/plain", body: long)]) { server in
            let target = Target(name: "api", baseURL: server.baseURL, path: "/long", validationType: .successCodes)
            let failure = try #require(await providerError { _ = try await Provider<Target>().request(target) })
            #expect(failure.description.hasSuffix(String(repeating: "x", count: 200) + "…"))
            #expect(failure.description.count < 400)
            #expect(failure.response?.body.count == 5000)
        }
    }

    @Test func customCodesAndRangesAcceptExactlyTheirStatuses() async throws {
        try await withTestServer { server in
            let created = Target(
                name: "c", baseURL: server.baseURL, path: "/status/201", validationType: .customCodes([201, 202]))
            let createdResponse = try await Provider<Target>().request(created)
            #expect(createdResponse.status == 201)
            let ok = Target(name: "c", baseURL: server.baseURL, path: "/status/200", validationType: .customCodes([201, 202]))
            let failure = await providerError { _ = try await Provider<Target>().request(ok) }
            #expect(failure?.response?.status == 200)
            #expect(failure?.description.contains("(expected 201,202)") == true)
            let unvalidated = Target(name: "n", baseURL: server.baseURL, path: "/status/404")
            let notFound = try await Provider<Target>().request(unvalidated)
            #expect(notFound.status == 404)
        }
        #expect(ValidationType.successAndRedirectCodes.accepts(304))
        #expect(!ValidationType.successAndRedirectCodes.accepts(400))
        #expect(!ValidationType.successCodes.accepts(199))
        #expect(ValidationType.successCodes.accepts(299))
        #expect(ValidationType.none.accepts(500))
    }
}
