import Checks
import Targets

/// The checks `wsh fuzz` makes of each answer; each is on unless `--check` names others.
public enum Oracle: String, Sendable, CaseIterable, Comparable {
    /// A 5xx answer.
    case serverError = "server-error"
    /// A time-out or a dropped connection.
    case noAnswer = "no-answer"
    /// A status the declaration does not list.
    case status
    /// A media type the declaration does not list for the status.
    case contentType = "content-type"
    /// A body that breaks the declared schema, or the shape of the sample.
    case schema
    /// A 2xx to an input the schema refuses.
    case invalidAccepted = "invalid-accepted"
    /// (`--stateful`) A created resource does not answer: its 201's Location, or GET on its path.
    case location
    /// (`--stateful`) A resource still answered 2xx after its DELETE.
    case afterDelete = "after-delete"

    /// In the order the checks are listed.
    public static func < (lhs: Oracle, rhs: Oracle) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }

    /// What a failure of this check means, for reports.
    public var meaning: String {
        switch self {
        case .serverError: "the server failed (5xx)"
        case .noAnswer: "no answer: a time-out or a dropped connection"
        case .status: "a status the declaration does not list"
        case .contentType: "a media type the declaration does not list"
        case .schema: "the body breaks the declared schema or the sample's shape"
        case .invalidAccepted: "an input the schema refuses was accepted (2xx)"
        case .location: "a created resource does not answer"
        case .afterDelete: "a resource still answers after its DELETE"
        }
    }
}

/// What one call brought back.
public struct FuzzOutcome: Sendable {
    /// The answer's status; nil when none came.
    public var status: Int?
    /// The answer's headers.
    public var headers: [Header]
    /// The answer's body, decoded from its Content-Encoding.
    public var body: [UInt8]
    /// Why no answer came (a time-out, a dropped connection), in words.
    public var failure: String?
    /// The request as a curl command, secrets masked (for the report).
    public var curl: String?
    /// Why the call was not sent at all (wsh could not make a request of the input, or would not
    /// send it): nothing to judge.
    public var notSent: String?

    /// What a call brought back; see each property.
    public init(status: Int? = nil, headers: [Header] = [], body: [UInt8] = [], failure: String? = nil, curl: String? = nil,
                notSent: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.failure = failure
        self.curl = curl
        self.notSent = notSent
    }

    /// The last value of a header, by name in any case.
    public func header(_ name: String) -> String? {
        headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// A check that failed on one call: which, and in words. Failures with the same `group` are one
/// cause, reported once.
public struct Finding: Sendable, Equatable {
    /// The check that failed.
    public var oracle: Oracle
    /// What went wrong, the same for each failure of one cause: `500`, `status 418`, `/email: ...`.
    public var summary: String
    /// This call's particulars.
    public var detail: String
}

/// Judges an answer by the declaration: the checks of ``Oracle`` but the stateful ones.
struct Judge {
    let operation: FuzzOperation
    let checks: Set<Oracle>
    let validator: JSONSchemaValidator

    init(operation: FuzzOperation, checks: Set<Oracle>) {
        self.operation = operation
        self.checks = checks
        validator = JSONSchemaValidator(root: operation.root, direction: .response)
    }

    /// The checks' failures on one answer.
    func findings(_ outcome: FuzzOutcome, expectation: Expectation) -> [Finding] {
        var made: Set<Oracle> = []
        return findings(outcome, expectation: expectation, made: &made)
    }

    /// The checks' failures on one answer; `made` gains each check that judged it (one that
    /// applies to nothing the answer or the declaration has, as `invalid-accepted` to a valid
    /// input, is not made).
    func findings(_ outcome: FuzzOutcome, expectation: Expectation, made: inout Set<Oracle>) -> [Finding] {
        if outcome.notSent != nil { return [] }
        func making(_ check: Oracle) -> Bool {
            guard checks.contains(check) else { return false }
            made.insert(check)
            return true
        }
        guard let status = outcome.status else {
            let why = outcome.failure ?? "no answer"
            return making(.noAnswer) ? [Finding(oracle: .noAnswer, summary: Self.kind(of: why), detail: why)] : []
        }
        // A 5xx is the server's failure whatever was declared; with that check off, `status` still sees an undeclared one.
        _ = making(.noAnswer)
        if making(.serverError), status >= 500 {
            return [Finding(oracle: .serverError, summary: "\(status)", detail: "answered \(status)")]
        }
        var found: [Finding] = []
        if case .invalid(let why) = expectation, making(.invalidAccepted), (200...299).contains(status) {
            found.append(Finding(oracle: .invalidAccepted, summary: "\(status)", detail: "answered \(status) to an invalid input: \(why)"))
        }
        guard !operation.answers.isEmpty else { return found }
        guard let answer = operation.answer(for: status) else {
            // A client error is the right answer to an input the declaration refuses, or cannot judge.
            let rejected = (400...499).contains(status) && expectation != .valid
            if making(.status), !rejected {
                let listed = operation.answers.map(\.status).joined(separator: ", ")
                found.append(Finding(oracle: .status, summary: "status \(status)", detail: "answered \(status); the declaration lists \(listed)"))
            }
            return found
        }
        _ = making(.status)
        let mediaType = outcome.header("Content-Type").map(MediaType.essence(of:))
        if !answer.mediaTypes.isEmpty, !outcome.body.isEmpty, making(.contentType),
           !answer.mediaTypes.contains(where: { Self.matches(mediaType ?? "", declared: $0) }) {
            let listed = answer.mediaTypes.joined(separator: ", ")
            found.append(Finding(oracle: .contentType, summary: "\(status) \(mediaType ?? "without a media type")",
                                 detail: "answered \(status) as \(mediaType ?? "a body with no Content-Type"); the declaration lists \(listed)"))
        }
        // The schema of the declared media type the answer has (a sample's shape has none): JSON,
        // or text read as `expect schema` reads it (``TextAnswerSchema``).
        let content = answer.content.first { !$0.mediaType.isEmpty && Self.matches(mediaType ?? "", declared: $0.mediaType) }
            ?? answer.content.first { $0.mediaType.isEmpty || (mediaType == nil && MediaType.isJSON($0.mediaType)) }
        if let schema = content?.schema, let mediaType,
           TextAnswerSchema.describesText(schema, mediaType: mediaType, bodyIsJSON: (try? JSONValue.parse(outcome.body)) != nil), making(.schema) {
            if let first = validator.violations(of: .string(String(decoding: outcome.body, as: UTF8.self)), against: schema).first {
                found.append(Finding(oracle: .schema, summary: "\(status) \(first.pointer.isEmpty ? "/" : Self.generalized(first.pointer)): \(first.expected)",
                                     detail: "answered \(status) with a text that breaks the schema: \(first.description)"))
            }
            return found
        }
        if let schema = content?.schema, mediaType.map({ MediaType.isJSON($0) || TextAnswerSchema.isText($0) }) ?? true, making(.schema) {
            // No body is no JSON value (Schemathesis: a JSON deserialization error), where one is
            // declared; a 204, a 304 and HEAD's answer have none by definition.
            if outcome.body.isEmpty {
                if ![204, 304].contains(status), operation.method.uppercased() != "HEAD" {
                    found.append(Finding(oracle: .schema, summary: "\(status) empty body",
                                         detail: "answered \(status) with an empty body, where the declaration has a JSON schema for it"))
                }
                return found
            }
            do {
                let value = try JSONValue.parse(outcome.body)
                if let first = validator.violations(of: value, against: schema).first {
                    found.append(Finding(oracle: .schema, summary: "\(status) \(first.pointer.isEmpty ? "/" : Self.generalized(first.pointer)): \(first.expected)",
                                         detail: "answered \(status) with a body that breaks the schema: \(first.description)"))
                }
            } catch {
                found.append(Finding(oracle: .schema, summary: "\(status) not JSON", detail: "answered \(status) with a body that is not JSON: \(error.description)"))
            }
        }
        return found
    }

    /// `/items/3/name` as `/items/*/name`: one cause whatever the element.
    static func generalized(_ pointer: String) -> String {
        pointer.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) != nil ? "*" : String($0) }.joined(separator: "/")
    }

    static func kind(of failure: String) -> String {
        let lowered = failure.lowercased()
        if lowered.contains("time") { return "timed out" }
        if lowered.contains("closed") || lowered.contains("reset") || lowered.contains("dropped") { return "connection dropped" }
        return "no answer"
    }

    /// `application/json` against `application/json`, `application/*` or `*/*`.
    static func matches(_ mediaType: String, declared: String) -> Bool {
        let declared = MediaType.essence(of: declared)
        if declared == "*/*" || declared == mediaType { return true }
        if declared.hasSuffix("/*") { return mediaType.hasPrefix(declared.dropLast()) }
        return false
    }
}
