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
        // The list says what each route answers: `default`'s example is no made-up value; `2XX` with no body is empty.
        #expect(server.stderr.contains("onlyDefault  500\n") && server.stderr.contains("emptyRange   empty: 200-299\n"), "\(server.stderr)")
    }

    static let informational = """
        openapi: 3.0.3
        info: {title: statuses, version: "1"}
        paths:
          /pets:
            get:
              operationId: listPets
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      example: [{id: 1}]
                default:
                  description: other
                  content:
                    application/json:
                      example: {error: other}
          /hundred:
            get:
              operationId: hundred
              responses:
                "100":
                  description: continue
                  content:
                    application/json:
                      example: {go: on}
                "200":
                  description: ok
                  content:
                    application/json:
                      example: {ok: true}
          /nobody:
            get:
              operationId: noBody
              responses:
                "2XX":
                  description: ok
                  content:
                    application/json:
                      example: {ok: true}
                "3XX":
                  description: moved
                  content:
                    application/json:
                      example: {moved: true}
        """

    /// A 1xx is no answer: `Prefer: code=100` on `default` is the 500 problem it was before ranges
    /// were served, a document's own `100` is refused, and the server keeps running. A 204 or 304
    /// a range covers goes out with no body.
    @Test func informationalStatusesAreRefusedAndTheServerKeepsRunning() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try Self.informational.write(to: directory.appendingPathComponent("statuses.yaml"), atomically: true, encoding: .utf8)
        let (server, port) = try await ServeTests.serve(["statuses.yaml"], directory: directory)
        let base = "http://127.0.0.1:\(port)"
        let asked: [(arguments: [String], status: String, body: String)] = [
            (["-H", "Prefer: code=100", "\(base)/pets"], "500", "Prefer asks for status 100, but target 'listPets' answers"),
            (["-H", "Prefer: code=101", "\(base)/pets"], "500", "Prefer asks for status 101"),
            (["-H", "Prefer: code=199", "\(base)/pets"], "500", "Prefer asks for status 199"),
            (["-H", "Prefer: code=100", "\(base)/hundred"], "500", "answers status 100, which is informational"),
            (["\(base)/pets"], "200", #"[{"id":1}]"#),
            (["-H", "Prefer: code=204", "\(base)/nobody"], "204", ""),
            (["-H", "Prefer: code=304", "\(base)/nobody"], "304", ""),
            (["\(base)/hundred"], "200", #"{"ok":true}"#),
        ]
        let answers = try await offPool { try asked.map { try ServeTests.curl($0.arguments) } }
        server.interrupt()
        #expect(try await offPool { server.waitForExit() } == 0)
        for (question, answer) in zip(asked, answers) {
            let body = answer.components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n")
            #expect(answer.hasPrefix("HTTP/1.1 \(question.status) ") && (question.body.isEmpty ? body.isEmpty : body.contains(question.body)),
                    "\(question.arguments): \(answer)")
        }
        #expect(!server.stderr.contains("Precondition failed"), "\(server.stderr)")
    }

    static let rangeHeaders = """
        openapi: 3.0.3
        info: {title: headers, version: "1"}
        paths:
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
                  headers:
                    X-Err: {required: true, schema: {type: string}, example: e1}
                  content:
                    application/json:
                      example: {error: client}
                default:
                  description: other
                  headers:
                    X-Def: {required: true, schema: {type: string}, example: d1}
                  content:
                    application/json:
                      example: {error: other}
          /quiet/{id}:
            get:
              operationId: quiet
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}}
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      example: {id: "x"}
                "4xx": {description: client error, no body}
        """

    /// Every status a range or `default` covers carries its required headers and follows its body
    /// rule, not only the first status it is served as.
    @Test func everyStatusARangeCoversGetsItsHeadersAndBodyRule() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try Self.rangeHeaders.write(to: directory.appendingPathComponent("headers.yaml"), atomically: true, encoding: .utf8)
        let (server, port) = try await ServeTests.serve(["headers.yaml"], directory: directory)
        let base = "http://127.0.0.1:\(port)"
        let asked: [(arguments: [String], status: String, header: String?, body: String)] = [
            (["-H", "Prefer: code=400", "\(base)/items/1"], "400", "X-Err: e1", #"{"error":"client"}"#),
            (["-H", "Prefer: code=404", "\(base)/items/1"], "404", "X-Err: e1", #"{"error":"client"}"#),
            (["-H", "Prefer: code=429", "\(base)/items/1"], "429", "X-Err: e1", #"{"error":"client"}"#),
            (["-H", "Prefer: code=500", "\(base)/items/1"], "500", "X-Def: d1", #"{"error":"other"}"#),
            (["-H", "Prefer: code=503", "\(base)/items/1"], "503", "X-Def: d1", #"{"error":"other"}"#),
            (["\(base)/items/1"], "200", nil, #"{"id":"x"}"#),
            (["-H", "Prefer: code=400", "\(base)/quiet/1"], "400", nil, ""),
            (["-H", "Prefer: code=404", "\(base)/quiet/1"], "404", nil, ""),
        ]
        let answers = try await offPool { try asked.map { try ServeTests.curl($0.arguments) } }
        server.interrupt()
        #expect(try await offPool { server.waitForExit() } == 0)
        for (question, answer) in zip(asked, answers) {
            let head = answer.components(separatedBy: "\n\n").first ?? ""
            #expect(answer.hasPrefix("HTTP/1.1 \(question.status) ") && answer.hasSuffix("\n\n" + question.body), "\(question.arguments): \(answer)")
            #expect(question.header.map { head.contains($0) } ?? !head.contains("X-"), "\(question.arguments): \(answer)")
        }
    }
}
