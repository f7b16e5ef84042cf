import Foundation
import Testing
import TestSupport

/// `use openapi` as a user runs it: the built binary imports a document whose server is the
/// loopback test server, calls its targets, checks answers with `expect schema`, shows help,
/// and exports the session for another tool (openapi-spec-validator) and for itself.
@Suite struct OpenAPIEndToEndTests {
    /// A document whose server is `BASE` (the test server's URL).
    static let document = """
        openapi: 3.0.3
        info: {title: Shop, version: "1"}
        servers: [{url: "BASE"}]
        components:
          schemas:
            Item:
              type: object
              required: [id, name]
              properties:
                id: {type: integer}
                name: {type: string}
                added: {type: string, format: date-time}
        paths:
          /items/{id}:
            get:
              operationId: item
              summary: One item
              parameters:
                - {name: id, in: path, required: true, description: The item's number, schema: {type: integer}}
              responses:
                "200":
                  description: The item
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Item"}
                      example: {id: 1, name: cup}
          /echo/search:
            get:
              operationId: search
              parameters:
                - {name: hourly, in: query, style: form, explode: false, schema: {type: array, items: {type: string}, default: [temp, rain]}}
                - {name: filter, in: query, style: deepObject, schema: {type: object, properties: {color: {type: string}}}}
                - {name: X-Trace, in: header, required: true, schema: {type: string}}
              responses: {"200": {description: echo}}
        """

    static func setUp(_ server: TestServer) throws -> URL {
        let directory = try WSHProcess.temporaryDirectory()
        try document.replacingOccurrences(of: "BASE", with: server.baseURL)
            .write(to: directory.appendingPathComponent("shop.yaml"), atomically: true, encoding: .utf8)
        return directory
    }

    static let routes: [String: StaticRoute] = [
        "/items/1": StaticRoute(body: #"{"id": 1, "name": "cup", "added": "2024-05-01T12:30:00Z"}"#),
        "/items/2": StaticRoute(body: #"{"id": "2", "added": "yesterday"}"#),
    ]

    @Test func importedTargetsCallTheServerAndPassExpectSchema() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            let directory = try Self.setUp(server)
            let script = """
                use openapi shop.yaml
                call item id=1
                expect schema
                expect .name == "cup"
                call search filter[color]=red X-Trace:t1
                """
            let result = try await WSHProcess.run(["-c", script], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix(#"{"id": 1, "name": "cup", "added": "2024-05-01T12:30:00Z"}"#))
            let echoStart = try #require(result.stdout.range(of: #"{"method""#))
            let echoed = try EchoedRequest(echo: String(result.stdout[echoStart.lowerBound...]))
            #expect(echoed.path == "/echo/search")
            #expect(echoed.query == "hourly=temp,rain&filter%5Bcolor%5D=red" || echoed.query == "hourly=temp%2Crain&filter%5Bcolor%5D=red"
                    || echoed.query == "hourly=temp,rain&filter[color]=red", "\(echoed.query)")
            #expect(echoed.headers.contains("x-trace: t1"), "\(echoed.headers)")
        }
    }

    @Test func anOptionalParameterIsSentOnlyWhenGiven() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            let directory = try Self.setUp(server)
            let result = try await WSHProcess.run(["-c", "use openapi shop.yaml\ncall search X-Trace:t hourly=snow"], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let echoed = try EchoedRequest(echo: result.stdout)
            #expect(echoed.query == "hourly=snow", "\(echoed.query)")
        }
    }

    @Test func expectSchemaFailsWithEachViolation() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            let directory = try Self.setUp(server)
            try "use openapi shop.yaml\nset output quiet\ncall item id=2\nexpect schema\n"
                .write(to: directory.appendingPathComponent("check.wsh"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["check.wsh"], directory: directory)
            #expect(result.status == 4)
            #expect(result.stderr == """
                check.wsh:4:1: error: expectation failed: schema of 'item' for 200 application/json
                   expect schema
                   ^~~~~~~~~~~~~
                note: (root): expected a property "name", actual none
                note: /id: expected integer, actual "2" (string)
                note: /added: expected a date-time string, actual "yesterday" (string)

                """)
        }
    }

    @Test func aMissingRequiredParameterIsNamed() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            let directory = try Self.setUp(server)
            let result = try await WSHProcess.run(["-c", "use openapi shop.yaml\ncall search"], directory: directory)
            #expect(result.status == 3)
            #expect(result.stderr.contains("error: missing header 'X-Trace' for target 'search'"), "\(result.stderr)")
        }
    }

    @Test func scriptErrorsPointAtTheDocumentWord() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try "swagger: \"2.0\"\ninfo: {title: old, version: \"1\"}\npaths: {}\n".write(to: directory.appendingPathComponent("old.yaml"), atomically: true, encoding: .utf8)
        let result = try await WSHProcess.run(["-c", "use openapi old.yaml as old"], directory: directory)
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("""
            <command line>:1:13: error: cannot import old.yaml: this is a Swagger 2.0 document, which wsh does not read
            """))
        #expect(result.stderr.contains("   use openapi old.yaml as old\n               ^~~~~~~~\n"))
        let usage = try await WSHProcess.run(["-c", "use openapi a.yaml as"], directory: directory)
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("usage: use openapi FILE|URL [as PREFIX]"), "\(usage.stderr)")
    }

    @Test func helpShowsTheOperation() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            let directory = try Self.setUp(server)
            let result = try await WSHProcess.run(["-c", "use openapi shop.yaml as shop\nhelp shop.item"], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == """
                shop.item: One item
                  GET \(server.baseURL)/items/{id}
                parameters:
                  id  (path, integer, required) The item's number
                responses:
                  200  The item  [application/json]
                'show shop.item' prints its declaration

                """)
        }
    }

    @Test func exportIsReadBackByWshAndByOpenAPISpecValidator() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            let directory = try Self.setUp(server)
            let script = """
                use openapi shop.yaml
                target note { base \(server.baseURL); path /notes/{id}; method PUT; json text due:=3 done?; sample '{"ok": true}' status 201 }
                let key = env WSH_EXPORT_KEY
                target secretive { base \(server.baseURL); path /s; header X-Trace:$key }
                openapi export out.yaml
                openapi export out.json
                """
            let exported = try await WSHProcess.run(["-c", script], environment: ["WSH_EXPORT_KEY": "exported-key-6611"], directory: directory)
            #expect(exported.status == 0, "\(exported.stderr)")
            // A target holding a secret is left out, named; the rest is written (the whole export was refused).
            #expect(exported.stderr.contains("note: target 'secretive' is not exported: it holds a secret"), "\(exported.stderr)")
            for file in ["out.yaml", "out.json"] {
                let written = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                #expect(!written.contains("exported-key-6611") && !written.contains("secretive"), "\(written)")
            }
            for file in ["out.yaml", "out.json"] {
                let back = try await WSHProcess.run(["-c", "use openapi \(file)\nshow note\ncall item id=1\nexpect schema"], directory: directory)
                #expect(back.status == 0, "\(back.stderr)")
                #expect(back.stdout.hasPrefix("""
                    target note {
                      base \(server.baseURL)
                      path /notes/{id}
                      method PUT
                      json text due:=3 done?
                      sample '{"ok":true}' status 201
                      validate 201
                    }
                    """), "\(back.stdout)")
            }
            let validator = (ProcessInfo.processInfo.environment["WSH_OPENAPI_VALIDATOR_VENV"] ?? "/tmp/wsh-openapi-validator") + "/bin/openapi-spec-validator"
            #expect(FileManager.default.isExecutableFile(atPath: validator), "run scripts/ensure-openapi-spec-validator.sh")
            let checked = try await runShell("'\(validator)' '\(directory.path)/out.yaml' '\(directory.path)/out.json'")
            #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
            #expect(checked.stdout.contains("out.yaml: OK") && checked.stdout.contains("out.json: OK"), "\(checked.stdout)")
        }
    }

    @Test func wshServeAnswersFromTheExamples() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try Self.document.replacingOccurrences(of: "BASE", with: "http://127.0.0.1:1/v2")
            .write(to: directory.appendingPathComponent("shop.yaml"), atomically: true, encoding: .utf8)
        try "use openapi shop.yaml\n".write(to: directory.appendingPathComponent("shop.wsh"), atomically: true, encoding: .utf8)
        let (server, port) = try await ServeTests.serve(["shop.wsh"], directory: directory)
        let answer = try await offPool { try ServeTests.curl(["http://127.0.0.1:\(port)/v2/items/1"]) }
        server.interrupt()
        #expect(try await offPool { server.waitForExit() } == 0)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\n") && answer.hasSuffix(#"{"id":1,"name":"cup"}"#), "\(answer)")
    }

    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/openapi")

    @Test func theExampleChecksItsAnswersOfflineAndAgainstWshServe() async throws {
        let offline = try await WSHProcess.run(["--stub", "petstore.wsh"], directory: Self.examples)
        #expect(offline.status == 0, "\(offline.stderr)")
        let (server, port) = try await ServeTests.serve(["api.wsh"], directory: Self.examples)
        let live = try await WSHProcess.run(["-c", "set base http://127.0.0.1:\(port)\nsource petstore.wsh"], directory: Self.examples)
        server.interrupt()
        #expect(try await offPool { server.waitForExit() } == 0)
        #expect(live.status == 0, "\(live.stderr)")
        #expect(server.stderr.contains("DELETE /v1/pets/1 -> 204 deletePet"), "\(server.stderr)")
    }

    @Test func aDocumentIsFetchedFromAURL() async throws {
        let yaml = try String(contentsOf: Self.examples.appendingPathComponent("petstore.yaml"), encoding: .utf8)
        try await TestServer.with(routes: ["/openapi.yaml": StaticRoute(contentType: "application/yaml", body: yaml)]) { server in
            let result = try await WSHProcess.run(["-c", "use openapi \(server.baseURL)/openapi.yaml as pets\ntargets"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("pets.listPets "), "\(result.stdout)")
            let missing = try await WSHProcess.run(["-c", "use openapi \(server.baseURL)/nothing.yaml"])
            #expect(missing.status == 3)
            #expect(missing.stderr.contains("error: cannot fetch \(server.baseURL)/nothing.yaml: HTTP 404"), "\(missing.stderr)")
        }
    }
}
