import Checks
import Foundation
import MockServer
import Targets
import Testing
import TestSupport

/// Answers made up from an OpenAPI operation's response schemas (Prism's dynamic mode): for a
/// route with no sample, or when a request prefers `dynamic=true`.
@Suite struct SchemaAnswerTests {
    static let root = (try? JSONValue.parse("""
        {"components": {"schemas": {"User": {"type": "object", "required": ["id", "name", "email"], "additionalProperties": false,
          "properties": {"id": {"type": "integer", "minimum": 1}, "name": {"type": "string", "minLength": 2, "maxLength": 8},
                         "email": {"type": "string", "format": "email"}, "role": {"enum": ["admin", "reader"]}}}}}}
        """)) ?? .null
    static let user = (try? JSONValue.parse(##"{"$ref": "#/components/schemas/User"}"##)) ?? .null
    static let missing = (try? JSONValue.parse(#"{"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}}"#)) ?? .null

    static func route(_ target: Target) -> MockRoute {
        var route = MockRoute(target: target)
        route.schemaAnswers = [.init(status: 200, contentType: "application/json", schema: user),
                               .init(status: 404, contentType: "application/problem+json", schema: missing)]
        route.schemaRoot = root
        return route
    }

    static func withServer<R>(_ target: Target, seed: UInt64, _ body: (MockServer) async throws -> R) async throws -> R {
        let server = try await MockServer.start(.init(port: 0), routes: MockRoutes(routes: [route(target)], seed: seed))
        return try await using(server, stoppedBy: { await $0.stop() }, body)
    }

    static func get(_ port: Int, _ path: String, prefer: String? = nil) async throws -> RawHTTPConnection.Answer {
        try await rawRequest(port, "GET \(path) HTTP/1.1\r\nHost: x\r\n" + (prefer.map { "Prefer: \($0)\r\n" } ?? "") + "Connection: close\r\n\r\n")
    }

    static let noSample = Target(name: "user", baseURL: "https://api.example.com", path: "/users/{id}")

    @Test func aRouteWithNoSampleAnswersAValidValueTheSameForTheSameRequest() async throws {
        let validator = JSONSchemaValidator(root: Self.root)
        let bodies = try await Self.withServer(Self.noSample, seed: 11) { server in
            var bodies: [String] = []
            for path in ["/users/1", "/users/1", "/users/2"] {
                let answer = try await Self.get(server.port, path)
                #expect(answer.status == 200)
                #expect(answer.header("Content-Type") == "application/json")
                let value = try JSONValue.parse(answer.body)
                #expect(validator.violations(of: value, against: Self.user).isEmpty, "\(value.compactText)")
                bodies.append(String(decoding: answer.body, as: UTF8.self))
            }
            let notFound = try await Self.get(server.port, "/users/3", prefer: "code=404")
            #expect(notFound.status == 404 && notFound.header("Content-Type") == "application/problem+json")
            #expect(validator.violations(of: try JSONValue.parse(notFound.body), against: Self.missing).isEmpty)
            // Static: the same answer whatever the request.
            let first = try await Self.get(server.port, "/users/4", prefer: "dynamic=false")
            let second = try await Self.get(server.port, "/users/5", prefer: "dynamic=false")
            #expect(first.body == second.body)
            return bodies
        }
        #expect(bodies[0] == bodies[1])
        #expect(bodies[0] != bodies[2])
        // Another seed, another answer to the same request.
        let other = try await Self.withServer(Self.noSample, seed: 12) { server in String(decoding: try await Self.get(server.port, "/users/1").body, as: UTF8.self) }
        #expect(other != bodies[0])
    }

    @Test func preferDynamicTrueWinsOverASample() async throws {
        var target = Self.noSample
        target.samples = [Sample(body: Data(#"{"id": 7, "name": "Ada", "email": "ada@example.com"}"#.utf8))]
        try await Self.withServer(target, seed: 1) { server in
            #expect(try await Self.get(server.port, "/users/1").text == #"{"id": 7, "name": "Ada", "email": "ada@example.com"}"#)
            let made = try await Self.get(server.port, "/users/1", prefer: "dynamic=true")
            #expect(made.status == 200 && made.text != #"{"id": 7, "name": "Ada", "email": "ada@example.com"}"#)
            #expect(JSONSchemaValidator(root: Self.root).violations(of: try JSONValue.parse(made.body), against: Self.user).isEmpty)
        }
    }
}
