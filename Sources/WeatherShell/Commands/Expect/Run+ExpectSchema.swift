import Checks
import Foundation
import OpenAPI
import Targets

extension Run {
    /// `expect schema`: the last answer's body against the schema its target's OpenAPI document
    /// declares for the answer's status and media type; `expect schema @FILE`, against the JSON
    /// Schema in FILE (relative to the running file). A failure lists each violation with its
    /// JSON pointer, the expected and the actual value, and is exit code 4 as any `expect`.
    func expectSchema(_ arguments: [Word], command: Word, statement: Statement) throws {
        let span = statement.span
        let source = currentFile.text(span.start..<span.end)
        func report(_ passed: Bool) {
            reporter?.report(.expect(ExpectationResult(source: String(source.dropFirst("expect ".count)), file: currentFile, span: span, passed: passed)))
        }
        do {
            let file = arguments.count == 2 ? String((arguments[1].literal ?? "").dropFirst()) : nil
            let violations = try file.map { try fileSchemaViolations($0, at: arguments[1].span) } ?? schemaViolations(at: span)
            report(violations.isEmpty)
            guard !violations.isEmpty, let response = lastResponse else { return }
            let media = response.header("Content-Type").map { " " + ResponseSchemaChoice.essence($0) } ?? ""
            let what = file.map { "schema \($0)" } ?? "schema of '\(response.targetName)' for \(response.status)\(media)"
            throw failure("expectation failed: \(what)", at: span,
                          notes: Self.violationNotes(violations).map { mask($0) }, kind: .expectation)
        } catch let diagnostic as Diagnostic where diagnostic.kind != .expectation {
            report(false)
            throw diagnostic
        }
    }

    /// Every violation of the last answer's schema (see ``expectSchema``); runtime errors when
    /// there is nothing to check against.
    func schemaViolations(at span: SourceSpan) throws -> [SchemaViolation] {
        guard let response = lastResponse else { throw failure(noResponseMessage, at: span) }
        guard let imported = session.targets[response.targetName]?.openAPI else {
            throw failure("expect schema checks answers of targets from an OpenAPI document, and '\(response.targetName.shortened())' is not one",
                          at: span, notes: ["declare targets with: use openapi FILE"])
        }
        return try violations(of: response, imported, at: span)
    }

    /// The last answer's body against the JSON Schema in `path` (its `$ref`s within the file).
    func fileSchemaViolations(_ path: String, at span: SourceSpan) throws -> [SchemaViolation] {
        guard let response = lastResponse else { throw failure(noResponseMessage, at: span) }
        let resolved = resolvePath(path)
        let schema: JSONValue
        switch ReadableFile.read(resolved) {
        case .failure(let problem):
            throw failure("cannot read the schema \(Self.displayPath(resolved)): \(problem)", at: span)
        case .success(let data):
            do {
                schema = try JSONValue.parse(data)
            } catch {
                throw failure("the schema \(Self.displayPath(resolved)) is not JSON: \(error.description)", at: span)
            }
        }
        // A keyword of the wrong form is read as absent: the check would pass any body.
        let problems = JSONSchemaValidator.shapeProblems(of: schema)
        if !problems.isEmpty {
            throw failure("the schema \(Self.displayPath(resolved)) is no JSON Schema wsh can check against", at: span, notes: problems.map(\.description))
        }
        let body: JSONValue
        do {
            body = try response.json()
        } catch {
            throw failure("the response body is not JSON, so it cannot be checked against a schema", at: span, notes: [mask(error.description)])
        }
        return JSONSchemaValidator(root: schema).violations(of: body, against: schema)
    }

    /// The answer's body against its declared schema.
    func violations(of response: Response, _ imported: OpenAPIOperation, at span: SourceSpan) throws -> [SchemaViolation] {
        let operation = imported.operation
        let mediaType = response.header("Content-Type").map(ResponseSchemaChoice.essence) ?? ""
        guard let answer = ResponseSchemaChoice.response(for: response.status, in: operation.responses) else {
            let statuses = operation.responses.map(\.status).joined(separator: ", ")
            throw failure("the document declares no answer with status \(response.status) for '\(operation.name)'", at: span,
                          notes: ["it declares: \(statuses.isEmpty ? "none" : statuses)"])
        }
        guard let media = ResponseSchemaChoice.media(for: mediaType, in: answer.content) else {
            if answer.content.isEmpty, response.body.isEmpty { return [] }
            let types = answer.content.map(\.mediaType).joined(separator: ", ")
            throw failure("the document declares no schema for status \(answer.status) and media type \(mediaType.isEmpty ? "(none)" : mediaType)",
                          at: span, notes: ["it declares: \(types.isEmpty ? "no body" : types)"])
        }
        guard let schema = media.schema else { return [] }
        // As for a schema file: a keyword of the wrong form is read as absent, and the check would pass any body.
        // A key close to a keyword's name (`note`, `tsType`) may be an annotation, as OpenAPI 3.1's
        // JSON Schema allows: `use openapi` warned of it; only a keyword of the wrong form refuses.
        let problems = JSONSchemaValidator.shapeProblems(of: schema, at: media.pointer, in: imported.schemas.root)
            .filter { $0.kind != .nearMissKeyword }
        if !problems.isEmpty {
            throw failure("the schema of '\(operation.name)' for \(answer.status) \(media.mediaType) is no JSON Schema wsh can check against",
                          at: span, notes: problems.map { imported.source + "#" + $0.description })
        }
        // `"hi"` is 4 characters in a text answer, not the JSON string hi.
        if TextAnswerSchema.describesText(schema, mediaType: media.mediaType, bodyIsJSON: (try? response.json()) != nil) {
            return JSONSchemaValidator(root: imported.schemas.root, direction: .response).violations(of: .string(response.text), against: schema)
        }
        let body: JSONValue
        do {
            body = try response.json()
        } catch {
            throw failure("the response body is not JSON, so it cannot be checked against its schema", at: span, notes: [mask(error.description)])
        }
        return JSONSchemaValidator(root: imported.schemas.root, direction: .response).violations(of: body, against: schema)
    }
}

/// Which declared answer and media type a response is checked against.
enum ResponseSchemaChoice {
    /// The exact status, else its range (`2XX`), else `default`.
    static func response(for status: Int, in responses: [ResponseInfo]) -> ResponseInfo? {
        responses.first { $0.status == String(status) }
            ?? responses.first { $0.status == "\(status / 100)XX" }
            ?? responses.first { $0.status == "default" }
    }

    /// `application/json` of `Application/JSON; charset=utf-8`.
    static func essence(_ mediaType: String) -> String {
        String(mediaType.split(separator: ";", omittingEmptySubsequences: false).first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The exact media type, else a range (`application/*`), else `*/*`; with no Content-Type, the first.
    static func media(for type: String, in content: [MediaSchema]) -> MediaSchema? {
        let lowered = content.map { ($0, Self.essence($0.mediaType)) }
        if type.isEmpty { return content.first }
        if let exact = lowered.first(where: { $0.1 == type }) { return exact.0 }
        let major = type.split(separator: "/").first.map(String.init) ?? type
        if let range = lowered.first(where: { $0.1 == major + "/*" }) { return range.0 }
        if type.hasSuffix("+json"), let json = lowered.first(where: { $0.1 == "application/json" }) { return json.0 }
        return lowered.first { $0.1 == "*/*" }?.0
    }
}

extension Run {
    /// `validate schema` in a target: an answer that differs from its schema is an error (exit
    /// code 3, as an unexpected status), listing the violations; the answer was printed already.
    func checkDeclaredSchema(_ declared: DeclaredTarget, _ response: Response, at span: SourceSpan) throws {
        guard let imported = declared.openAPI else {
            throw failure("target '\(declared.name)' has 'validate schema' but no OpenAPI document to check against", at: span,
                          notes: ["declare it with: use openapi FILE"])
        }
        let violations = try violations(of: response, imported, at: span)
        guard !violations.isEmpty else { return }
        throw failure("the answer of '\(declared.name)' (\(response.status)) does not match its schema", at: span,
                      notes: Self.violationNotes(violations).map { mask($0) })
    }

    /// At most 20 violations, then how many more.
    static func violationNotes(_ violations: [SchemaViolation]) -> [String] {
        violations.prefix(20).map(\.description) + (violations.count > 20 ? ["and \(violations.count - 20) more"] : [])
    }
}

/// `expect schema`: the last answer checked against its OpenAPI document (the other forms of `expect` are statements of the language).
struct ExpectSchemaCommand: ShellCommand {
    static let entry = CommandCatalog.Entry(name: "expect", usage: "expect [not] VALUE OP VALUE | expect VALUE [not] isInteger|exists|... | expect schema [@FILE]",
            summary: "check the last response (typed; .list[? .x > 1] filters; bytes == hex:..|base64:..|@FILE; schema: against its OpenAPI document, or a JSON Schema FILE)")

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        try run.expectSchema(arguments, command: command, statement: statement)
    }
}
