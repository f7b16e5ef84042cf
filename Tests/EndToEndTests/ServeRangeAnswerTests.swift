import Foundation
import TestSupport
import Testing

/// `wsh serve` answers an OpenAPI operation whose responses are ranges (`2XX`, `4XX`) or
/// `default`: a range as its first status, `default` as 500, and `Prefer: code=` any status one
/// of them covers, with the response's example.
@Suite struct ServeRangeAnswerTests {
    static let document = """
        openapi: 3.0.3
        info: {title: ranges, version: "1"}
        paths:
          /ok:
            get:
              operationId: onlyRange
              responses:
                "2XX":
                  description: ok
                  content:
                    application/json:
                      example: {ok: true}
          /done:
            post:
              operationId: emptyRange
              responses:
                "2XX": {description: done}
          /items/{id}:
            get:
              operationId: getItem
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}}
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      example: {id: "x"}
                "4XX":
                  description: client error
                  content:
                    application/json:
                      example: {error: client}
                default:
                  description: other
                  content:
                    application/json:
                      example: {error: other}
          /fallback:
            get:
              operationId: onlyDefault
              responses:
                default:
                  description: other
                  content:
                    application/json:
                      schema: {type: object, required: [error], properties: {error: {type: string}}}
                      example: {error: fallback}
        """

    @Test func rangeAndDefaultResponsesAreServed() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try Self.document.write(to: directory.appendingPathComponent("ranges.yaml"), atomically: true, encoding: .utf8)
        let (server, port) = try await ServeTests.serve(["ranges.yaml"], directory: directory)
        let base = "http://127.0.0.1:\(port)"
        let asked: [(arguments: [String], status: String, body: String)] = [
            (["\(base)/ok"], "200", #"{"ok":true}"#),
            (["-X", "POST", "\(base)/done"], "200", ""),
            (["\(base)/items/1"], "200", #"{"id":"x"}"#),
            (["-H", "Prefer: code=404", "\(base)/items/1"], "404", #"{"error":"client"}"#),
            (["-H", "Prefer: code=400", "\(base)/items/1"], "400", #"{"error":"client"}"#),
            (["-H", "Prefer: code=503", "\(base)/items/1"], "503", #"{"error":"other"}"#),
            (["\(base)/fallback"], "500", #"{"error":"fallback"}"#),
            (["-H", "Prefer: code=418", "\(base)/fallback"], "418", #"{"error":"fallback"}"#),
        ]
        let answers = try await offPool { try asked.map { try ServeTests.curl($0.arguments) } }
        server.interrupt()
        #expect(try await offPool { server.waitForExit() } == 0)
        for (question, answer) in zip(asked, answers) {
            #expect(answer.hasPrefix("HTTP/1.1 \(question.status) ") && answer.hasSuffix("\n\n" + question.body), "\(question.arguments): \(answer)")
        }
    }
}
