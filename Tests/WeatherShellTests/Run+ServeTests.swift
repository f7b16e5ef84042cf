import Checks
import Foundation
import Targets
import Testing
import TestSupport
import XPath
@testable import WeatherShell

/// `serve start` over an imported OpenAPI document: each answer fits the document it serves
/// (its media types, headers and schemas), sent over real HTTP to the served port.
@Suite @ShellActor struct RunServeTests {
    /// Imports `document` (YAML), serves it on a free port, and hands over the port; stops after.
    static func serving<R>(_ document: String, _ body: (Int) async throws -> R) async throws -> R {
        let directory = try ScratchDirectory.make("wsh-serve-openapi")
        try document.write(to: directory.appendingPathComponent("api.yaml"), atomically: true, encoding: .utf8)
        let shell = ShellHarness()
        await shell.run("use openapi api.yaml\nserve start --port 0 --quiet --seed 7", directory: directory.path)
        let server = try #require(shell.run.session.server, "\(shell.stderr)")
        do {
            let result = try await body(server.port)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    static func get(_ port: Int, _ path: String, headers: String = "") async throws -> RawHTTPConnection.Answer {
        try await offPool {
            let connection = try RawHTTPConnection(port: port)
            try connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\(headers)Connection: close\r\n\r\n")
            return try connection.readAnswer()
        }
    }

    static let mediaTypes = """
        openapi: 3.0.3
        info: {title: Media, version: "1"}
        paths:
          /text:
            get:
              responses:
                "200": {description: text, content: {text/plain: {schema: {type: string}}}}
          /text-example:
            get:
              responses:
                "200": {description: text, content: {text/plain: {schema: {type: string}, example: "42"}}}
          /xml:
            get:
              responses:
                "200":
                  description: xml
                  content:
                    application/xml:
                      schema: {type: object, xml: {name: pet}, properties: {id: {type: integer}, name: {type: string}}, required: [id, name]}
          /xml-example:
            get:
              responses:
                "200":
                  description: an object example under XML
                  content:
                    application/xml: {schema: {type: object, properties: {id: {type: integer}}}, example: {id: 1}}
          /xml-then-json:
            get:
              responses:
                "200":
                  description: both
                  content:
                    application/xml: {schema: {type: object, properties: {id: {type: integer}}}, example: "<pet><id>1</id></pet>"}
                    application/json: {schema: {type: object, properties: {id: {type: integer}}}}
          /csv:
            get:
              responses:
                "200":
                  description: csv
                  content:
                    text/csv: {schema: {type: array, items: {type: object, properties: {a: {type: integer}, b: {type: string}}, required: [a, b]}}}
          /bin:
            get:
              responses:
                "200": {description: bin, content: {application/octet-stream: {schema: {type: string, format: binary}}}}
        """

    /// Each body in a type the document declares for it, and fitting that type: the text example
    /// as text (not JSON), XML a well-formed document, CSV rows; before, these answered 501, or an
    /// XML example with no Content-Type, or `42` as application/json.
    @Test func nonJSONAnswersComeInADeclaredTypeWithABodyOfThatType() async throws {
        try await Self.serving(Self.mediaTypes) { port in
            let text = try await Self.get(port, "/text")
            #expect(text.status == 200 && text.header("Content-Type") == "text/plain", "\(text.status) \(text.text)")
            #expect(!text.text.isEmpty && !text.text.hasPrefix("\""), "a string as text, not JSON: \(text.text)")

            let example = try await Self.get(port, "/text-example")
            #expect(example.status == 200 && example.header("Content-Type") == "text/plain" && example.text == "42")

            for path in ["/xml", "/xml-example", "/xml-then-json"] {
                let xml = try await Self.get(port, path)
                #expect(xml.status == 200 && xml.header("Content-Type") == "application/xml", "\(path): \(xml.status) \(xml.text)")
                #expect((try? XPathQuery.evaluate("count(/*)", on: Array(xml.body), html: false)) == .number("1"),
                        "\(path): not well-formed XML: \(xml.text)")
            }
            #expect(try await Self.get(port, "/xml").text.contains("<pet><id>"))
            #expect(try await Self.get(port, "/xml-example").text.hasSuffix("<id>1</id></root>"))
            #expect(try await Self.get(port, "/xml-then-json").text == "<pet><id>1</id></pet>")

            let csv = try await Self.get(port, "/csv")
            #expect(csv.status == 200 && csv.header("Content-Type") == "text/csv")
            let rows = csv.text.split(separator: "\r\n")
            #expect(rows.first == "a,b" && rows.count >= 2 && rows.dropFirst().allSatisfy { $0.split(separator: ",").count == 2 }, "\(csv.text)")

            let binary = try await Self.get(port, "/bin")
            #expect(binary.status == 200 && binary.header("Content-Type") == "application/octet-stream" && !binary.body.isEmpty)
        }
    }

    static let headersAndRefusals = """
        openapi: 3.0.3
        info: {title: Headers, version: "1"}
        paths:
          /login:
            get:
              parameters:
                - {name: user, in: query, required: true, schema: {type: string}}
              responses:
                "200":
                  description: logged in
                  headers:
                    X-Rate-Limit: {required: true, schema: {type: integer, minimum: 1, maximum: 5000}}
                    X-Expires-After: {required: true, schema: {type: string, format: date-time}, example: "2030-01-01T00:00:00Z"}
                    X-Optional: {schema: {type: string}}
                  content:
                    application/json: {schema: {type: string}}
                "400":
                  description: refused
                  content:
                    application/problem+json:
                      schema:
                        type: object
                        additionalProperties: false
                        required: [code, message]
                        properties: {code: {type: integer}, message: {type: string}}
          /ranged:
            get:
              parameters:
                - {name: n, in: query, required: true, schema: {type: integer}}
              responses:
                "200": {description: ok, content: {application/json: {schema: {type: integer}}}}
                default: {description: any error, content: {text/plain: {schema: {type: string}}}}
          /plain:
            get:
              parameters:
                - {name: n, in: query, required: true, schema: {type: integer}}
              responses:
                "200": {description: ok, content: {application/json: {schema: {type: integer}}}}
        """

    /// Required response headers are sent, each its example or a value its schema takes; an
    /// optional one is not needed. Before, none was sent.
    @Test func requiredAnswerHeadersAreSentWithValuesTheirSchemasTake() async throws {
        try await Self.serving(Self.headersAndRefusals) { port in
            let answer = try await Self.get(port, "/login?user=ada")
            #expect(answer.status == 200, "\(answer.text)")
            let limit = try #require(answer.header("X-Rate-Limit").flatMap { Int($0) }, "\(answer.head)")
            #expect((1...5000).contains(limit))
            #expect(answer.header("X-Expires-After") == "2030-01-01T00:00:00Z")
        }
    }

    /// A request the document refuses is answered in the schema and type of the operation's
    /// declared 400 (else `default`), with wsh's reason where the schema takes it; with none
    /// declared, wsh's own problem as before.
    @Test func aRefusedRequestIsAnsweredInTheDeclared400Schema() async throws {
        try await Self.serving(Self.headersAndRefusals) { port in
            let refused = try await Self.get(port, "/login")
            #expect(refused.status == 400 && refused.header("Content-Type") == "application/problem+json", "\(refused.text)")
            let value = try JSONValue.parse(refused.body)
            let schema = try JSONValue.parse(#"{"type": "object", "additionalProperties": false, "required": ["code", "message"], "properties": {"code": {"type": "integer"}, "message": {"type": "string"}}}"#)
            #expect(JSONSchemaValidator(root: .null).violations(of: value, against: schema).isEmpty, "\(refused.text)")
            #expect(value["message"]?.string?.contains("required query parameter 'user' is missing") == true, "\(refused.text)")
            #expect(value["code"] == .number("400"))

            let ranged = try await Self.get(port, "/ranged")
            #expect(ranged.status == 400 && ranged.header("Content-Type") == "text/plain", "\(ranged.text)")
            #expect(ranged.text.hasPrefix("required query parameter 'n' is missing"))

            let plain = try await Self.get(port, "/plain")
            #expect(plain.status == 400 && plain.header("Content-Type") == "application/problem+json")
            #expect(try JSONValue.parse(plain.body)["invalid-params"]?[0]?["name"]?.string == "n")
        }
    }
}

/// `Prefer: code=` for a status the document declares without a body (docs tester's F11).
@Suite @ShellActor struct RunServeEmptyAnswerTests {
    static let document = """
        openapi: 3.0.3
        info: {title: Items, version: "1"}
        paths:
          /v1/items/{id}:
            get:
              operationId: getItem
              parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
              responses:
                "200": {description: an item, content: {application/json: {schema: {type: object, properties: {id: {type: integer}}, required: [id]}}}}
                "404": {description: no such item}
        """

    /// The declared 404 is answered, empty, as Prism answers it; a status not declared is still
    /// the 500 listing those that are, the 404 among them. Before, the 404 was that 500, saying
    /// the operation "answers 200 only".
    @Test func aDeclaredStatusWithoutABodyIsAnsweredEmpty() async throws {
        try await RunServeTests.serving(Self.document) { port in
            let missing = try await RunServeTests.get(port, "/v1/items/4", headers: "Prefer: code=404\r\n")
            #expect(missing.status == 404, "\(missing.text)")
            #expect(missing.body.isEmpty && missing.header("Content-Type") == nil, "\(missing.text)")
            let found = try await RunServeTests.get(port, "/v1/items/4")
            #expect(found.status == 200, "\(found.text)")
            let undeclared = try await RunServeTests.get(port, "/v1/items/4", headers: "Prefer: code=418\r\n")
            #expect(undeclared.status == 500 && undeclared.text.contains(#""statuses":[200,404]"#), "\(undeclared.text)")
        }
    }
}
