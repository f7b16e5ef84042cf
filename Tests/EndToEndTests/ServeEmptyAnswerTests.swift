import Foundation
import TestSupport
import Testing

/// `wsh serve` and the responses that have no body: the route list says what a plain request
/// gets from a route that declares only those, and a 204, 205 or 304 goes out with no body and
/// no `Content-Type`, whatever the response it is made from declares.
@Suite struct ServeEmptyAnswerTests {
    static let document = """
        openapi: 3.0.3
        info: {title: empty, version: "1"}
        paths:
          /e4:
            get:
              operationId: clientOnly
              responses:
                "4XX": {description: client error}
          /multi:
            get:
              operationId: notFoundServerOther
              responses:
                "404": {description: missing}
                "5XX": {description: server}
                default: {description: other}
          /def4body:
            get:
              operationId: clientBodyElseEmpty
              responses:
                "4XX":
                  description: err
                  content:
                    application/json:
                      example: {e: 1}
                default: {description: other}
          /e404:
            get:
              operationId: missingOnly
              responses:
                "404": {description: missing}
          /emptydef:
            get:
              operationId: emptyDefault
              responses:
                default: {description: anything}
          /defonly:
            get:
              operationId: schemaDefault
              responses:
                default:
                  description: other
                  content:
                    application/json:
                      schema: {type: object, required: [error], properties: {error: {type: string}}}
        """

    /// A route whose responses all have no body answers a plain request 501, and its line in
    /// the list says so, with the statuses `Prefer: code=` gets empty.
    @Test func aRouteDeclaredOnlyWithoutBodiesIsListedAsItAnswers() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try Self.document.write(to: directory.appendingPathComponent("empty.yaml"), atomically: true, encoding: .utf8)
        let (server, port) = try await ServeTests.serve(["empty.yaml"], directory: directory)
        let base = "http://127.0.0.1:\(port)"
        let asked: [(arguments: [String], status: String, body: String)] = [
            (["\(base)/e4"], "501", "has no sample to answer with"),
            (["-H", "Prefer: code=404", "\(base)/e4"], "404", ""),
            (["\(base)/e404"], "501", "has no sample to answer with"),
            (["-H", "Prefer: code=404", "\(base)/e404"], "404", ""),
            (["\(base)/emptydef"], "501", "has no sample to answer with"),
            (["-H", "Prefer: code=418", "\(base)/emptydef"], "418", ""),
            // A 1xx on a route with nothing to answer with is that route's 501, as docs/mock-server.md says.
            (["-H", "Prefer: code=100", "\(base)/emptydef"], "501", "has no sample to answer with"),
        ]
        let answers = try await offPool { try asked.map { try ServeTests.curl($0.arguments) } }
        server.interrupt()
        #expect(try await offPool { server.waitForExit() } == 0)
        for (question, answer) in zip(asked, answers) {
            let body = answer.components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n")
            #expect(answer.hasPrefix("HTTP/1.1 \(question.status) ") && (question.body.isEmpty ? body.isEmpty : body.contains(question.body)),
                    "\(question.arguments): \(answer)")
        }
        let lines = server.stderr.split(separator: "\n")
        for (name, statuses) in [("clientOnly", "400-499"), ("missingOnly", "404"), ("emptyDefault", "200-599")] {
            let line = lines.first { $0.contains(" \(name) ") } ?? ""
            #expect(line.hasSuffix("  no sample (answers 501); empty with Prefer: code=\(statuses)"), "\(name): \(server.stderr)")
        }
        // The statuses answered empty, in order, as spans that do not overlap.
        for (name, listed) in [("notFoundServerOther", "no sample (answers 501); empty with Prefer: code=200-599"),
                               ("clientBodyElseEmpty", "400; empty: 200-399, 500-599")] {
            let line = lines.first { $0.contains(" \(name) ") } ?? ""
            #expect(line.hasSuffix("  \(listed)"), "\(name): \(server.stderr)")
        }
    }

    /// 204, 205 and 304 have no content (RFC 9110): made from a `default` with a schema, they go
    /// out with no body and no `Content-Type`; a 205 says `Content-Length: 0`, the others none.
    @Test func noContentStatusesCarryNoBodyNorContentType() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try Self.document.write(to: directory.appendingPathComponent("empty.yaml"), atomically: true, encoding: .utf8)
        let (server, port) = try await ServeTests.serve(["empty.yaml"], directory: directory)
        let base = "http://127.0.0.1:\(port)"
        let statuses = ["204", "205", "304"]
        let answers = try await offPool { try statuses.map { try ServeTests.curl(["-H", "Prefer: code=\($0)", "\(base)/defonly"]) } }
        let made = try await offPool { try ServeTests.curl(["-H", "Prefer: code=200", "\(base)/defonly"]) }
        server.interrupt()
        #expect(try await offPool { server.waitForExit() } == 0)
        #expect(made.hasPrefix("HTTP/1.1 200 ") && made.lowercased().contains("content-type: application/json"), "\(made)")
        for (status, answer) in zip(statuses, answers) {
            let parts = answer.components(separatedBy: "\n\n")
            let head = parts[0].lowercased()
            #expect(answer.hasPrefix("HTTP/1.1 \(status) ") && parts.dropFirst().joined().isEmpty, "\(status): \(answer)")
            #expect(!head.contains("content-type"), "\(status): \(answer)")
            #expect(head.contains("content-length: 0") == (status == "205") && !head.contains("content-length: 1"), "\(status): \(answer)")
        }
    }
}
