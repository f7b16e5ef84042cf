import Foundation
import Testing
import TestSupport

/// What `use openapi` targets send on the wire for the parameter and body shapes of OpenAPI's
/// "Style Examples": the built binary imports a document whose server is the loopback test
/// server's echo, and each call's request is compared byte for byte.
@Suite struct OpenAPIWireTests {
    /// Operations under `/echo/...`; `BASE` stands for the test server's URL.
    static let document = """
        openapi: 3.1.0
        info: {title: Wire, version: "1"}
        servers: [{url: "BASE"}]
        paths:
          /echo/notes:
            post:
              operationId: note
              requestBody:
                content:
                  application/json:
                    schema: {type: object, properties: {text: {type: string}, kind: {type: string, default: memo}}}
              responses: {"200": {description: echo}}
            put:
              operationId: vendorNote
              requestBody:
                required: false
                content:
                  application/vnd.notes+json:
                    schema: {type: object, properties: {text: {type: string}}}
              responses: {"200": {description: echo}}
            patch:
              operationId: emptyPatch
              requestBody:
                required: true
                content:
                  application/json:
                    schema: {type: object, properties: {text: {type: string}}}
              responses: {"200": {description: echo}}
          /echo/deep:
            get:
              operationId: deep
              parameters:
                - name: filter
                  in: query
                  style: deepObject
                  explode: true
                  schema: {type: object, properties: {name: {type: string}, age: {type: integer}}}
                - {name: tag, in: query, style: deepObject, explode: true, schema: {type: object, additionalProperties: {type: string}}}
              responses: {"200": {description: echo}}
          /echo/charges:
            post:
              operationId: charge
              requestBody:
                required: true
                content:
                  application/x-www-form-urlencoded:
                    encoding:
                      metadata: {style: deepObject, explode: true}
                      expand: {style: deepObject, explode: true}
                    schema:
                      type: object
                      properties:
                        amount: {type: integer}
                        metadata: {type: object, additionalProperties: {type: string}}
                        expand: {type: array, items: {type: string}}
              responses: {"200": {description: echo}}
          /echo/lists:
            get:
              operationId: lists
              parameters:
                - {name: pipes, in: query, style: pipeDelimited, explode: false, schema: {type: array, items: {type: integer}}}
                - {name: spaces, in: query, style: spaceDelimited, explode: false, schema: {type: array, items: {type: integer}}}
                - {name: commas, in: query, style: form, explode: false, schema: {type: array, items: {type: integer}}}
                - {name: each, in: query, style: form, explode: true, schema: {type: array, items: {type: integer}}}
                - {name: color, in: query, style: form, explode: false, schema: {type: object}}
                - {name: piped, in: query, style: pipeDelimited, explode: false, schema: {type: array, items: {type: string}, default: [a, b]}}
              responses: {"200": {description: echo}}
          /echo/headers:
            get:
              operationId: headers
              parameters:
                - {name: X-Ids, in: header, required: true, schema: {type: array, items: {type: integer}}}
                - {name: X-Def, in: header, schema: {type: array, items: {type: integer}, default: [1, 2, 3]}}
                - {name: X-Role, in: header, schema: {type: object, default: {role: admin, first: Alex}}}
                - {name: X-Who, in: header, explode: true, schema: {type: object, default: {role: admin, first: Alex}}}
              responses: {"200": {description: echo}}
          /echo/content:
            get:
              operationId: content
              parameters:
                - name: filter
                  in: query
                  content:
                    application/json:
                      schema: {type: object, properties: {name: {type: string}, age: {type: integer}}}
              responses: {"200": {description: echo}}
          /echo/users/{id}:
            put:
              operationId: putUser
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer}}
              requestBody:
                required: true
                content:
                  application/json:
                    schema: {type: object, required: [id], properties: {id: {type: integer}, name: {type: string}}}
              responses: {"200": {description: echo}}
          /echo/items/{id}:
            get:
              operationId: item
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer, default: 5}}
              responses: {"200": {description: echo}}
        """

    /// Runs `use openapi` and one call; the request the echo saw.
    static func send(_ call: String, document: String = Self.document) async throws -> EchoedRequest {
        try await TestServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try document.replacingOccurrences(of: "BASE", with: server.baseURL)
                .write(to: directory.appendingPathComponent("wire.yaml"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["-c", "use openapi wire.yaml\n" + call], directory: directory)
            #expect(result.status == 0, "\(call): \(result.stderr)")
            return try EchoedRequest(echo: result.stdout)
        }
    }

    /// An optional body (`required` absent or false) is sent only when the call gives one of its
    /// fields, as Swagger UI and Schemathesis send it: it was `{}` (or the defaults) on every call.
    @Test func anOptionalBodyIsSentOnlyWhenAFieldIsGiven() async throws {
        let bare = try await Self.send("call note")
        #expect(bare.body.isEmpty, "\(String(decoding: bare.body, as: UTF8.self))")
        #expect(!bare.headers.contains { $0.hasPrefix("content-type:") }, "\(bare.headers)")
        let given = try await Self.send("call note text=hi")
        #expect(String(decoding: given.body, as: UTF8.self) == #"{"text":"hi","kind":"memo"}"#)
        #expect(given.headers.contains("content-type: application/json"), "\(given.headers)")
        // The declared type of a `+json` body goes with it.
        let vendor = try await Self.send("call vendorNote")
        #expect(vendor.body.isEmpty && !vendor.headers.contains { $0.hasPrefix("content-type:") }, "\(vendor)")
        // A required body is sent even with no field given.
        let required = try await Self.send("call emptyPatch")
        #expect(String(decoding: required.body, as: UTF8.self) == "{}")
    }

    /// `deepObject`: an object for a query parameter goes as `filter[name]=Ana&filter[age]=3`
    /// (brackets percent-encoded, as wsh writes them in every query), one property at a time as
    /// before, and an object with no declared properties too (it declared nothing); a url-encoded
    /// body's fields with a `deepObject` encoding (Stripe's) as `metadata[order_id]=6735` and
    /// `expand[]=customer`, where they were JSON text and the key repeated.
    @Test func deepObjectValuesAreWrittenWithBrackets() async throws {
        let whole = try await Self.send(#"call deep filter:='{"name":"Ana","age":3}' tag:='{"x":"1"}'"#)
        #expect(whole.query == "filter%5Bname%5D=Ana&filter%5Bage%5D=3&tag%5Bx%5D=1", "\(whole.query)")
        let each = try await Self.send("call deep filter[name]=Ana filter[age]=3")
        #expect(each.query == "filter%5Bname%5D=Ana&filter%5Bage%5D=3", "\(each.query)")
        let charge = try await Self.send(#"call charge amount:=2000 metadata:='{"order_id":"6735"}' expand:='["customer","invoice"]'"#)
        #expect(String(decoding: charge.body, as: UTF8.self)
                == "amount=2000&metadata%5Border_id%5D=6735&expand%5B%5D=customer&expand%5B%5D=invoice")
    }

    /// `pipeDelimited` and `spaceDelimited` lists are one value joined by `|` or a space; `form`
    /// lists one value joined by `,` without explode and the key repeated with it. The delimited
    /// ones went as the key repeated.
    @Test func delimitedListsAreOneValue() async throws {
        let lists = try await Self.send(#"call lists pipes:='[1,2,3]' spaces:='[1,2,3]' commas:='[1,2,3]' each:='[1,2,3]' color:='{"R":100,"G":200}'"#)
        #expect(lists.query == "pipes=1%7C2%7C3&spaces=1%202%203&commas=1%2C2%2C3&each=1&each=2&each=3&color=R%2C100%2CG%2C200&piped=a%7Cb",
                "\(lists.query)")
        let typed = try await Self.send("call lists 'pipes=4|5' commas=6,7")
        #expect(typed.query == "pipes=4%7C5&commas=6%2C7&piped=a%7Cb", "\(typed.query)")
    }

    /// A list element holding its style's separator (`["a", "b,c"]` in comma style) went as
    /// `a%2Cb%2Cc`: three values to the server. It is an error naming the parameter; nothing is sent.
    @Test func aSeparatorInsideAStyledValueIsAnError() async throws {
        try await TestServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try Self.document.replacingOccurrences(of: "BASE", with: server.baseURL)
                .write(to: directory.appendingPathComponent("wire.yaml"), atomically: true, encoding: .utf8)
            for (call, separator) in [(#"call lists commas:='["a","b,c"]'"#, ","), (#"call lists pipes:='["x","y|z"]'"#, "|"),
                                      (#"call lists color:='{"R":"1 2"}' spaces:='["a b"]'"#, " ")] {
                let result = try await WSHProcess.run(["-c", "use openapi wire.yaml\n" + call], directory: directory)
                #expect(result.status == 3, "\(call): \(result.stderr)")
                #expect(result.stderr.contains("holds '\(separator)', which its style writes between values"), "\(call): \(result.stderr)")
            }
            #expect(server.hits("/echo/lists") == 0)
        }
    }

    /// Header parameters are OpenAPI's `simple` style: a default list `1,2,3`, an object
    /// `role,admin,first,Alex` (`role=admin,first=Alex` exploded); they went as JSON text.
    @Test func headerDefaultsAreSimpleStyle() async throws {
        let echoed = try await Self.send("call headers X-Ids:7,8")
        #expect(echoed.headers.contains("x-ids: 7,8"), "\(echoed.headers)")
        #expect(echoed.headers.contains("x-def: 1,2,3"), "\(echoed.headers)")
        #expect(echoed.headers.contains("x-role: role,admin,first,Alex"), "\(echoed.headers)")
        #expect(echoed.headers.contains("x-who: role=admin,first=Alex"), "\(echoed.headers)")
    }

    /// A parameter with `content: application/json` is one value, its JSON text percent-encoded;
    /// its object's properties were declared as parameters of their own (`name=Ana` went as `?name=Ana`).
    @Test func aContentParameterIsSentAsJSONText() async throws {
        let echoed = try await Self.send(#"call content filter:='{"name": "Ana", "age": 3}'"#)
        #expect(echoed.query == "filter=%7B%22name%22%3A%22Ana%22%2C%22age%22%3A3%7D", "\(echoed.query)")
    }

    /// A path parameter named as a body field is `path_NAME`: a call gives each its own value, where
    /// one `id=7` filled both and `id=7 id:=8` was refused.
    @Test func aPathParameterAndABodyFieldOfOneNameAreGivenApart() async throws {
        let echoed = try await Self.send("call putUser path_id=7 id:=8 name=Ana")
        #expect(echoed.path == "/echo/users/7")
        #expect(String(decoding: echoed.body, as: UTF8.self) == #"{"id":8,"name":"Ana"}"#)
    }

    /// A path parameter's `default` fills it when the call gives none (it was a missing
    /// parameter); one with no default is still an error, never sent as `{id}`.
    @Test func aPathParameterTakesItsDefault() async throws {
        #expect(try await Self.send("call item").path == "/echo/items/5")
        #expect(try await Self.send("call item id=9").path == "/echo/items/9")
        try await TestServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try Self.document.replacingOccurrences(of: "BASE", with: server.baseURL)
                .write(to: directory.appendingPathComponent("wire.yaml"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["-c", "use openapi wire.yaml\ncall putUser id:=1"], directory: directory)
            #expect(result.status == 3)
            #expect(result.stderr.contains("missing parameter 'path_id' for target 'putUser'"), "\(result.stderr)")
            #expect(server.hits("/echo/users/{path_id}") == 0 && server.hits("/echo/users/%7Bpath_id%7D") == 0)
        }
    }
}
