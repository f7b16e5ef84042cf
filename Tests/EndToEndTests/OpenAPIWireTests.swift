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
}
