import Foundation
import Targets
import Testing
import TestSupport
@testable import OpenAPI

@Suite struct OpenAPIImporterTests {
    static let petstore = """
    openapi: 3.0.3
    info: {title: Petstore, version: 1.0.0}
    servers:
      - url: https://{region}.pets.example/{version}
        variables:
          region: {default: eu, enum: [eu, us]}
          version: {default: v2}
    components:
      securitySchemes:
        bearerAuth: {type: http, scheme: bearer}
        key: {type: apiKey, in: header, name: X-API-Key}
      schemas:
        Pet:
          type: object
          required: [id, name]
          properties:
            id: {type: integer, readOnly: true}
            name: {type: string, description: What it answers to}
            kind: {type: string, enum: [dog, cat], default: dog}
            tags: {type: array, items: {type: string}}
    paths:
      /pets:
        get:
          operationId: listPets
          summary: List pets
          parameters:
            - {name: limit, in: query, description: At most this many, schema: {type: integer, default: 20}}
            - {name: kind, in: query, required: true, schema: {type: string, enum: [dog, cat]}}
            - {name: X-Trace, in: header, schema: {type: string, default: "off"}}
            - {name: X-Request-Id, in: header, required: true, schema: {type: string}}
            - {name: Accept, in: header, schema: {type: string}}
          responses:
            "200":
              description: The pets
              content:
                application/json:
                  schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}
                  example: [{id: 1, name: Rex}]
        post:
          operationId: createPet
          requestBody:
            required: true
            content:
              application/json:
                schema: {$ref: "#/components/schemas/Pet"}
          responses:
            "201":
              description: Made
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Pet"}
                  examples:
                    one: {value: {id: 7, name: Tom}}
            "400":
              description: Bad
              content:
                application/json:
                  example: {message: bad}
    """

    @Test func anOperationBecomesATargetDeclaration() throws {
        let document = try importText(Self.petstore)
        #expect(document.title == "Petstore")
        #expect(document.warnings.isEmpty)
        #expect(document.operations.map(\.name) == ["listPets", "createPet"])
        #expect(document.operation("listPets")?.declaration == """
        target listPets {
          doc "List pets"
          base https://eu.pets.example/v2
          path /pets
          query limit:=20 kind
          header X-Trace:off
          header X-Request-Id
          sample '[{"id":1,"name":"Rex"}]'
          validate 200
        }
        """)
        #expect(document.operation("createPet")?.declaration == """
        target createPet {
          base https://eu.pets.example/v2
          path /pets
          method POST
          json name kind=dog tags?
          sample '{"id":7,"name":"Tom"}' status 201
          sample '{"message":"bad"}' status 400
          validate 201
        }
        """)
    }

    @Test func parametersCarryWhatHelpShows() throws {
        let operation = try #require(try importText(Self.petstore).operation("listPets"))
        #expect(operation.summary == "List pets")
        let limit = try #require(operation.parameters.first { $0.name == "limit" })
        #expect(limit == ParameterInfo(name: "limit", location: .query, description: "At most this many", required: false,
                                       enumValues: [], type: "integer", defaultValue: "20",
                                       schema: try JSONValue.parse(#"{"type": "integer", "default": 20}"#)))
        #expect(operation.parameters.first { $0.name == "kind" }?.enumValues == ["dog", "cat"])
        #expect(operation.parameters.map(\.name) == ["limit", "kind", "X-Trace", "X-Request-Id"])
        #expect(operation.responses.map(\.status) == ["200"])
        #expect(operation.responses.first?.content.first?.mediaType == "application/json")
        let body = try #require(try importText(Self.petstore).operation("createPet")).parameters
        #expect(body.map(\.name) == ["name", "kind", "tags"])
        #expect(body.first?.description == "What it answers to")
        #expect(body.first?.required == true)
    }

    @Test func securitySchemesAreNamedInNotes() throws {
        #expect(try importText(Self.petstore).notes == [
            "this API uses bearer auth: plugin auth bearer $token (security scheme 'bearerAuth')",
            "this API uses an API key in the header X-API-Key: plugin auth header X-API-Key:$key (security scheme 'key')",
        ])
    }

    @Test func aPrefixGoesBeforeEachName() throws {
        #expect(try importText(Self.petstore, prefix: "pets").operations.map(\.name) == ["pets.listPets", "pets.createPet"])
    }

    /// A document in the shape of real public ones: no operationIds, parameters on the path item
    /// (one replaced by the operation), servers per path and per operation, a relative server.
    @Test func realWorldShapes() throws {
        let document = try importText("""
        {"openapi": "3.1.0", "info": {"title": "Weather", "version": "1"},
         "servers": [{"url": "/v1"}],
         "paths": {
           "/forecast": {
             "parameters": [{"name": "latitude", "in": "query", "required": true, "schema": {"type": "number"}},
                            {"name": "units", "in": "query", "schema": {"type": "string", "default": "metric"}}],
             "get": {"parameters": [{"name": "units", "in": "query", "schema": {"type": "string", "default": "imperial"}}],
                     "responses": {"200": {"description": "ok"}}}
           },
           "/archive/{day}": {
             "servers": [{"url": "https://archive.example.com"}],
             "get": {"parameters": [{"name": "day", "in": "path", "required": true, "schema": {"type": "string", "format": "date"}}],
                     "responses": {"2XX": {"description": "ok"}}},
             "delete": {"servers": [{"url": "https://admin.example.com/x"}], "responses": {"default": {"description": "?"}}}
           }
         }}
        """)
        #expect(document.warnings.isEmpty)
        #expect(document.operations.map(\.name) == ["get_forecast", "get_archive_day", "delete_archive_day"])
        #expect(document.operation("get_forecast")?.declaration == """
        target get_forecast {
          path /v1/forecast
          query units=imperial latitude
          sample ""
          validate 200
        }
        """)
        #expect(document.operation("get_archive_day")?.declaration == """
        target get_archive_day {
          base https://archive.example.com
          path /archive/{day}
          validate 2xx
        }
        """)
        #expect(document.operation("delete_archive_day")?.declaration.contains("base https://admin.example.com/x\n") == true)
    }

    @Test func parameterStyles() throws {
        let document = try importText("""
        openapi: 3.0.0
        info: {title: Styles, version: "1"}
        paths:
          /search:
            get:
              operationId: search
              parameters:
                - {name: hourly, in: query, style: form, explode: false, schema: {type: array, items: {type: string}, default: [a, b]}}
                - {name: daily, in: query, schema: {type: array, items: {type: string}, default: [x, y]}}
                - {name: filter, in: query, style: deepObject, schema: {type: object, properties: {color: {type: string}, size: {type: integer, default: 3}}}}
                - {name: page, in: query, schema: {type: object, properties: {number: {type: integer}}}}
                - {name: tilde, in: query, schema: {type: string, default: ~}}
              responses: {"200": {description: ok}}
        """)
        // `default: ~` (null) is no default: it sent the text null on every call.
        #expect(document.operation("search")?.declaration.contains(
            "query hourly=a,b 'daily:=[\"x\",\"y\"]' filter? filter[color]? filter[size]:=3 number? tilde?\n") == true,
            "\(document.operation("search")?.declaration ?? "")")
        #expect(document.operation("search")?.declaration.contains("  style hourly=comma filter=deepObject\n") == true,
                "\(document.operation("search")?.declaration ?? "")")
    }

    /// What the import declares for the shapes `OpenAPIWireTests` sends: an optional body,
    /// delimited lists, a `content` parameter, `simple` headers, a path parameter named as a body
    /// field and one with a default.
    @Test func styledParametersAndOptionalBodies() throws {
        let document = try importText("""
        openapi: 3.1.0
        info: {title: Shapes, version: "1"}
        paths:
          /users/{id}/{day}:
            put:
              operationId: put
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer}}
                - {name: day, in: path, required: true, schema: {type: string, default: today}}
                - {name: ids, in: query, style: pipeDelimited, explode: false, schema: {type: array, items: {type: integer}, default: [1, 2]}}
                - {name: q, in: query, content: {application/json: {schema: {type: object, properties: {a: {type: string}}}}}}
                - {name: X-Ids, in: header, schema: {type: array, items: {type: integer}, default: [1, 2]}}
              requestBody:
                content:
                  application/json:
                    schema: {type: object, properties: {id: {type: integer}, name: {type: string}}}
              responses: {"200": {description: ok}}
        """)
        let declaration = try #require(document.operation("put")?.declaration)
        #expect(declaration == """
        target put {
          path /users/{path_id}/{day=today}
          method PUT
          query 'ids=1|2' q?
          header X-Ids:1,2
          json? id? name?
          style ids=pipes q=json
          sample ""
          validate 200
        }
        """, "\(declaration)")
        #expect(document.operation("put")?.parameters.map(\.name) == ["path_id", "day", "ids", "q", "X-Ids", "id", "name"])
    }

    @Test func formAndMultipartBodies() throws {
        let document = try importText("""
        openapi: 3.1.0
        info: {title: Bodies, version: "1"}
        paths:
          /login:
            post:
              operationId: login
              requestBody:
                required: true
                content:
                  application/x-www-form-urlencoded:
                    schema: {type: object, required: [user], properties: {user: {type: string}, remember: {type: boolean, default: false}}}
              responses: {"204": {description: ok}}
          /upload:
            post:
              operationId: upload
              requestBody:
                required: true
                content:
                  multipart/form-data:
                    schema: {type: object, required: [file], properties: {file: {type: string, format: binary}, note: {type: string}}}
              responses: {"201": {description: ok}}
          /raw:
            put:
              operationId: raw
              requestBody: {content: {application/octet-stream: {schema: {type: string, format: binary}}}}
              responses: {"200": {description: ok}}
        """)
        #expect(document.operation("login")?.declaration.contains("  form user remember:=false\n") == true)
        #expect(document.operation("upload")?.declaration.contains("  multipart file note?\n") == true)
        #expect(document.operation("upload")?.parameters.first?.type == "file")
        #expect(document.operation("raw")?.declaration.contains("  header Content-Type:application/octet-stream\n") == true)
    }

    @Test func problemsAreWarningsAndTheRestIsImported() throws {
        let document = try importText("""
        openapi: 3.1.0
        info: {title: Untidy, version: "1"}
        components:
          schemas:
            Thing:
              type: object
              properties:
                type: {type: string}
                size: {type: int64}
                parent: {$ref: "#/components/schemas/Missing"}
        paths:
          /things:
            get:
              operationId: things
              parameters:
                - $ref: "#/components/parameters/Nope"
                - {name: q, in: query, schema: {type: string}}
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema: {type: array, items: {$ref: "#/components/schemas/Thing"}}
                      example: [{type: 3}]
          /other:
            get:
              operationId: things
              responses: {"200": {description: ok}}
        """)
        #expect(document.warnings.map(\.description) == [
            "/components/schemas/Thing/properties/parent/$ref: broken $ref '#/components/schemas/Missing': nothing is there",
            "/paths/~1things/get/parameters/0/$ref: broken $ref '#/components/parameters/Nope': nothing is there",
            "/components/schemas/Thing/properties/size/type: unknown type \"int64\": the types are string, number, integer, boolean, array, object and null",
            "/paths/~1things/get/responses/200/content/application~1json/example: example does not match its schema (/0/type: expected string, actual 3 (integer)): not used as a sample",
            "/paths/~1other/get/operationId: the name 'things' is taken by /paths/~1things/get: this operation is 'things_2'",
        ])
        #expect(document.operations.map(\.name) == ["things", "things_2"])
        #expect(document.operation("things")?.declaration.contains("query q?") == true)
        #expect(document.operation("things")?.declaration.contains("sample") == false)
    }

    /// swagger-cli's and redocly's bundles point at a path's parameter with a percent-encoded
    /// ref (`~1%7BpetId%7D`): it is followed, with no warning.
    @Test func aPercentEncodedRefIsFollowed() throws {
        let document = try importText("""
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /pets/{petId}:
            parameters: [{name: limit, in: query, schema: {type: integer, default: 5}}]
            get:
              operationId: pet
              responses: {"200": {description: ok}}
          /pets/{petId}/toys:
            get:
              operationId: toys
              parameters: [{$ref: "#/paths/~1pets~1%7BpetId%7D/parameters/0"}]
              responses: {"200": {description: ok}}
        """)
        #expect(document.warnings.isEmpty)
        #expect(document.operation("toys")?.declaration.contains("query limit:=5") == true)
    }

    @Test func swagger2IsRefused() {
        #expect(throws: OpenAPIImportError.self) { try importText("swagger: \"2.0\"\ninfo: {title: x, version: \"1\"}\npaths: {}\n") }
        do {
            _ = try importText("swagger: \"2.0\"\npaths: {}\n")
        } catch {
            #expect(error.message.hasPrefix("this is a Swagger 2.0 document, which wsh does not read: convert it to OpenAPI 3 first"))
        }
    }

    @Test func whatIsNotADocumentIsRefusedInWords() {
        for (text, message) in [("openapi: 3.0.0\ninfo: [\n", "not valid YAML: line 3, column 1: did not find expected node content"),
                                ("{\"info\": {}}", "not an OpenAPI document: it has no 'openapi' field giving its version"),
                                ("openapi: 2.5.0\n", "OpenAPI 2.5.0 is not read: wsh reads OpenAPI 3.0 and 3.1"),
                                ("- a\n- b\n", "not an OpenAPI document: it is not an object")] {
            do {
                _ = try importText(text)
                Issue.record("imported \(text)")
            } catch {
                #expect(error.message == message)
            }
        }
    }

    @Test func refsToOtherLocalFilesAreFollowed() throws {
        let common = """
        components:
          schemas:
            Error:
              type: object
              properties:
                message: {type: string}
                cause: {$ref: "#/components/schemas/Error"}
                detail: {$ref: "details.yaml#/Detail"}
          parameters:
            Limit: {name: limit, in: query, schema: {type: integer, default: 5}}
        """
        let document = try importText("""
        openapi: 3.0.0
        info: {title: Split, version: "1"}
        paths:
          /items:
            get:
              operationId: items
              parameters: [{$ref: "shared/common.yaml#/components/parameters/Limit"}]
              responses:
                default:
                  description: error
                  content:
                    application/json:
                      schema: {$ref: "shared/common.yaml#/components/schemas/Error"}
                      example: {message: no, cause: {message: deeper}}
          /missing:
            get:
              parameters: [{$ref: "nowhere.yaml#/P"}]
              responses: {"200": {description: ok}}
        """, files: ["/docs/shared/common.yaml": common, "/docs/shared/details.yaml": "Detail: {type: string}\n"])
        #expect(document.operation("items")?.declaration.contains("query limit:=5") == true)
        #expect(document.warnings.map(\.description) == ["/paths/~1missing/get/parameters/0/$ref: $ref 'nowhere.yaml#/P': cannot read /docs/nowhere.yaml"])
        let schema = try #require(document.operation("items")?.responses.first?.content.first?.schema)
        #expect(schema == .object([.init(key: "$ref", value: .string("#/x-wsh-bundled/1"))]))
    }

    @Test func aYAMLAliasBombIsRefused() {
        var text = "openapi: 3.0.0\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 { text += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        do {
            _ = try importText(text)
            Issue.record("expanded the aliases")
        } catch {
            #expect(error.message == "the document expands to more than 4000000 values (YAML aliases)")
        }
    }

    @Test func aCyclicSchemaChecksAnExampleAndEnds() throws {
        let document = try importText("""
        openapi: 3.1.0
        info: {title: Cycle, version: "1"}
        components:
          schemas:
            Loop: {$ref: "#/components/schemas/Loop"}
            Either: {anyOf: [{$ref: "#/components/schemas/Either"}, {$ref: "#/components/schemas/Either"}]}
        paths:
          /x:
            get:
              operationId: x
              responses:
                "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Either"}, example: {a: 1}}}}
                "201": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Loop"}, example: {a: 1}}}}
        """)
        #expect(document.operations.count == 1)
    }

    /// A document of webhooks only (learn.openapis.org's examples/v3.1/webhook-example.yaml) declares
    /// nothing, and says why.
    @Test func webhooksAreSaidNotDeclared() throws {
        let document = try importText("""
            openapi: 3.1.0
            info: {title: Webhook Example, version: 1.0.0}
            webhooks:
              newPet:
                post:
                  requestBody: {content: {application/json: {schema: {type: object}}}}
                  responses: {"200": {description: ok}}
            """)
        #expect(document.operations.isEmpty)
        #expect(document.warnings.map(\.description) == ["/webhooks: 1 webhook (requests the API sends, not ones it answers) not declared"])
    }
}

/// Bad input never crashes the import: every prefix of a real-shaped document, and the same with
/// bytes changed, imports or is refused with a message.
@Suite struct TruncatedDocumentTests {
    static let petstore = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/openapi/petstore.yaml")

    @Test func everyPrefixImportsOrIsRefused() throws {
        let bytes = Array(try Data(contentsOf: Self.petstore))
        var imported = 0
        for end in stride(from: 0, through: bytes.count, by: 3) {
            if (try? OpenAPIImporter.importDocument(Array(bytes[..<end]), path: nil)) != nil { imported += 1 }
        }
        #expect(imported > 0)
    }

    /// Each changed document imports (its operations' declarations and warnings said in text) or is
    /// refused with a message in the user's words: never a crash, an empty message, a Swift type's
    /// name or a build path.
    @Test func changedBytesImportOrAreRefused() throws {
        let bytes = Array(try Data(contentsOf: Self.petstore))
        let seed = SeededGenerator.seed()
        var generator = SeededGenerator(seed: seed)
        var imported = 0, refused = 0
        for round in 0..<300 {
            var changed = bytes
            for _ in 0..<(1 + round % 5) {
                let position = Int.random(in: 0..<changed.count, using: &generator)
                changed[position] = [UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "\n"), UInt8(ascii: "|"),
                                     UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["), 0xC3, 0x00].randomElement(using: &generator) ?? 0
            }
            let said: [String]
            do {
                let document = try OpenAPIImporter.importDocument(changed, path: nil)
                imported += 1
                said = document.warnings.map(\.description) + document.operations.map(\.declaration)
                #expect(document.operations.allSatisfy { !$0.declaration.isEmpty }, "seed \(seed), round \(round)")
            } catch {
                refused += 1
                #expect(!error.message.isEmpty, "seed \(seed), round \(round)")
                said = [error.message]
            }
            for text in said {
                #expect(!text.contains("Error(") && !text.contains(".swift") && !text.contains("Swift."),
                        "seed \(seed), round \(round): \(text)")
            }
        }
        // Both outcomes are met, so both were checked: one change in a long document often leaves it readable.
        #expect(imported > 0 && refused > 0, "seed \(seed): \(imported) imported, \(refused) refused")
    }

    /// A required JSON body with no field to declare (a list, a number, a map, a `oneOf`, a schema
    /// with no type) is given whole by the call: its Content-Type is declared, no body is made up,
    /// and the operation says what to give, with the document's example or default when it has one.
    /// One not required declares nothing; a GET with a body stays a GET.
    @Test func aRequiredBodyWithNoFieldIsGivenWhole() throws {
        let document = try importText("""
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /tags:
                put:
                  operationId: putTags
                  requestBody: {required: true, content: {application/json: {schema: {type: array, items: {type: string}}}}}
                  responses: {"204": {description: done}}
                post:
                  operationId: postCount
                  requestBody: {required: true, content: {application/json: {schema: {type: integer, default: 3}}}}
                  responses: {"204": {description: done}}
                patch:
                  operationId: patchMaybe
                  requestBody: {content: {application/json: {schema: {type: string}}}}
                  responses: {"204": {description: done}}
              /shapes:
                put:
                  operationId: putMap
                  requestBody: {required: true, content: {application/json: {schema: {type: object, additionalProperties: {type: string}}}}}
                  responses: {"204": {description: done}}
                post:
                  operationId: postOneOf
                  requestBody: {required: true, content: {application/json: {schema: {oneOf: [{type: array}, {type: string}]}}}}
                  responses: {"204": {description: done}}
                patch:
                  operationId: patchTypeless
                  requestBody: {required: true, content: {application/json: {schema: {items: {type: string}}}}}
                  responses: {"204": {description: done}}
              /search:
                get:
                  operationId: search
                  requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {q: {type: string}}}}}}
                  responses: {"200": {description: found}}
            """)
        for name in ["putTags", "postCount", "putMap", "postOneOf", "patchTypeless"] {
            let operation = document.operation(name)
            let declaration = operation?.declaration ?? ""
            #expect(declaration.contains("  header Content-Type:application/json\n") && !declaration.contains("body raw"), "\(declaration)")
            #expect(operation?.wholeBody?.mediaType == "application/json", "\(name)")
        }
        #expect(document.operation("putTags")?.wholeBody == WholeBody(mediaType: "application/json", type: "array of string", example: nil))
        #expect(document.operation("postCount")?.wholeBody?.example == "3", "the document's default")
        let patchMaybe = document.operation("patchMaybe")
        #expect(!(patchMaybe?.declaration ?? "").contains("body") && patchMaybe?.wholeBody == nil, "\(patchMaybe?.declaration ?? "")")
        let search = document.operation("search")
        #expect((search?.declaration ?? "").contains("  method GET\n") && search?.wholeBody == nil, "\(search?.declaration ?? "")")
    }
}
