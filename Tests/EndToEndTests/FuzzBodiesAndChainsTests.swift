import Foundation
import Testing
import TestSupport

/// Request bodies that are not an object's fields (mock tester's F31), and the id of a created
/// resource nested in its answer (F17), against a loopback server that logs what it received.
@Suite struct FuzzBodiesAndChainsTests {
    /// An array, a string and a map of additionalProperties as the request body: each operation
    /// gets bodies, valid ones of its schema and invalid ones; none went out before.
    @Test func bodiesThatAreNoObjectsFieldsAreSent() async throws {
        let routes = ["/list": StaticRoute(body: "{}"), "/name": StaticRoute(body: "{}"), "/tags": StaticRoute(body: "{}")]
        try await TestServer.with(routes: routes) { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            func operation(_ id: String, _ schema: String) -> String {
                #""/\#(id)": {"post": {"operationId": "\#(id)", "requestBody": {"required": true, "content": {"application/json": {"schema": \#(schema)}}}, "#
                    + #""responses": {"200": {"description": "ok"}}}}"#
            }
            let document = #"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "servers": [{"url": "\#(server.baseURL)"}], "paths": {"#
                + [operation("list", #"{"type": "array", "items": {"type": "integer"}, "minItems": 1}"#),
                   operation("name", #"{"type": "string", "maxLength": 5}"#),
                   operation("tags", #"{"type": "object", "additionalProperties": {"type": "string"}}"#)].joined(separator: ", ") + "}}"
            try document.write(to: directory.appendingPathComponent("bodies.json"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["fuzz", "bodies.json", "--calls", "90", "--seed", "7", "--allow-writes"], directory: directory)
            print("seed 7")
            #expect(result.status == 0 || result.status == 4, "\(result.stderr)")
            // The bodies received, each as JSON (nil when malformed); a request with none is left out.
            func bodies(_ path: String) -> [Any?] {
                server.requests.filter { $0.path == path && !$0.body.isEmpty }
                    .map { try? JSONSerialization.jsonObject(with: Data($0.body.utf8), options: .fragmentsAllowed) }
            }
            let lists = bodies("/list"), names = bodies("/name"), tags = bodies("/tags")
            #expect(lists.contains { ($0 as? [Int]).map { !$0.isEmpty } ?? false }, "\(server.requests)")
            #expect(lists.contains { !($0 is [Int]) || ($0 as? [Int])?.isEmpty == true }, "no invalid body: \(server.requests)")
            #expect(names.contains { ($0 as? String).map { $0.count <= 5 } ?? false }, "\(server.requests)")
            #expect(names.contains { !($0 is String) || (($0 as? String)?.count ?? 0) > 5 }, "no invalid body: \(server.requests)")
            #expect(tags.contains { $0 is [String: Any] }, "\(server.requests)")
        }
    }

    /// A create answering its new id one or two levels down (`{"data": {"id": 5}}`) is followed
    /// by GET on that id, and the reproducer reads it from there.
    @Test func aNestedIdIsFollowed() async throws {
        let routes = ["/items": StaticRoute(status: 201, body: #"{"data": {"id": 5, "name": "x"}}"#),
                      "/items/5": StaticRoute(body: #"{"data": {"id": 5, "name": "x"}}"#),
                      "/things": StaticRoute(status: 201, body: #"{"result": {"thing": {"id": "t7"}}}"#),
                      "/things/t7": StaticRoute(body: #"{"result": {"thing": {"id": "t7"}}}"#)]
        try await TestServer.with(routes: routes) { server in
            let script = """
                target createItem { base \(server.baseURL); path /items; method POST; json name=x; sample '{"data": {"id": 5, "name": "x"}}' status 201 }
                target getItem { base \(server.baseURL); path /items/{id}; sample '{"data": {"id": 5, "name": "x"}}' }
                target createThing { base \(server.baseURL); path /things; method POST; json name=x; sample '{"result": {"thing": {"id": "t7"}}}' status 201 }
                target getThing { base \(server.baseURL); path /things/{thingId}; sample '{"result": {"thing": {"id": "t7"}}}' }
                fuzz --stateful --allow-writes --calls 40 --seed 3
                """
            let result = try await WSHProcess.run(["-c", script])
            print("seed 3")
            #expect(result.status == 0 || result.status == 4, "\(result.stderr)")
            #expect(server.requests.contains { $0.method == "GET" && $0.path == "/items/5" }, "\(server.requests)")
            #expect(server.requests.contains { $0.method == "GET" && $0.path == "/things/t7" }, "\(server.requests)")
        }
    }
}
