import Foundation
import NIOCore
import Targets

/// One declared target as the mock server answers it: its method and URL path (the base URL's
/// path, then the target's path template), its samples ready to write, and what a request must carry.
public struct MockRoute: Sendable {
    /// The target's name, which the request log shows.
    public let targetName: String
    /// The method the route answers (GET also answers HEAD).
    public let method: String
    /// The path as served, placeholders kept: `/v1/users/{id}`.
    public let path: String
    /// The samples, the default first, each with its body ready to write.
    let answers: [PreparedSample]
    /// Query parameters; one without a default is required.
    let query: [Parameter]
    /// What the body must look like.
    let body: ExpectedBody
    /// `json?`: a request with no body passes; one with a body is checked.
    let bodyIsOptional: Bool
    /// Headers a request must carry.
    let requiredHeaders: [String]
    private let segments: [PathSegment]
    /// Answers made up from a schema (an OpenAPI operation's responses), for a route with no
    /// sample, or when a request prefers `dynamic=true`.
    public var schemaAnswers: [SchemaAnswer] = []
    /// The document the schemas' `$ref`s point into.
    public var schemaRoot: JSONValue = .null

    /// A declared answer whose body is made up from its schema.
    public struct SchemaAnswer: Sendable {
        /// The status answered.
        public var status: Int
        /// The media type answered.
        public var contentType: String
        /// The schema the body is made from (`$ref`s into the route's ``MockRoute/schemaRoot``).
        public var schema: JSONValue

        /// An answer of `status` and `contentType` made up from `schema`.
        public init(status: Int, contentType: String, schema: JSONValue) {
            self.status = status
            self.contentType = contentType
            self.schema = schema
        }
    }

    /// What a request body is checked against.
    enum ExpectedBody: Sendable {
        case none
        case json([Parameter])
        case form([Parameter])
        case multipart([Parameter])
    }

    /// A sample with its body as a buffer, so that answering copies nothing.
    struct PreparedSample: Sendable {
        let status: Int
        let contentType: String?
        let body: ByteBuffer
    }

    /// The route for `target`; a target with no base URL of its own is served under `fallbackBase`'s path.
    public init(target: some TargetType, fallbackBase: String? = nil) {
        targetName = target.name
        method = target.method.rawValue
        let base = target.baseURL.isEmpty ? fallbackBase ?? "" : target.baseURL
        let basePath = Self.pathOf(url: base)
        var templatePath = target.path
        if let cut = templatePath.firstIndex(where: { $0 == "?" || $0 == "#" }) { templatePath = String(templatePath[..<cut]) }
        if !templatePath.isEmpty, !templatePath.hasPrefix("/"), !basePath.hasSuffix("/") { templatePath = "/" + templatePath }
        var joined = basePath.hasSuffix("/") && templatePath.hasPrefix("/") ? basePath + templatePath.dropFirst() : basePath + templatePath
        if joined.isEmpty { joined = "/" }
        path = joined
        segments = Self.segments(of: joined).map(PathSegment.init)
        answers = target.samples.map { sample in
            PreparedSample(status: sample.status, contentType: sample.effectiveContentType, body: ByteBuffer(bytes: sample.body))
        }
        query = target.task.queryParameters
        requiredHeaders = target.requiredHeaders
        bodyIsOptional = target.bodyIsOptional
        body = switch target.task.bodyTask {
        case .json(let parameters): .json(parameters)
        case .form(let parameters): .form(parameters)
        case .multipart(let parameters): .multipart(parameters)
        default: .none
        }
    }

    /// `GET /v1/users/{id}`.
    public var summary: String { "\(method) \(path)" }

    /// The statuses of the samples, in order.
    public var sampleStatuses: [Int] { answers.map(\.status) }

    /// Whether it has an answer to give: a sample, or a schema to make one from.
    var canAnswer: Bool { !answers.isEmpty || !schemaAnswers.isEmpty }

    /// The values of the path's placeholders when `requestSegments` (already split and decoded)
    /// fit this route's path; nil when they do not.
    func match(_ requestSegments: [Substring]) -> [String: String]? {
        guard requestSegments.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, text) in zip(segments, requestSegments) {
            guard let value = segment.match(text) else { return nil }
            if let name = segment.name { values[name] = value }
        }
        return values
    }

    /// How well a request's query items fit the declared query: each declared key present counts
    /// 1, or 2 when its value is the declared default; each key the route does not declare counts -1.
    func queryFit(_ items: [(name: String, value: String)]) -> Int {
        var score = 0
        for (name, value) in items {
            guard let parameter = query.first(where: { $0.name == name }) else {
                score -= 1
                continue
            }
            score += parameter.defaultValue?.text == value ? 2 : 1
        }
        return score
    }

    /// The path with each placeholder segment replaced by the request's segment in its place, when
    /// both have as many segments: `/users/{id}` for `/userz/7` compares as `/users/7`.
    func path(filledFrom requestSegments: [Substring]) -> String {
        guard requestSegments.count == segments.count, segments.contains(where: { $0.name != nil }) else { return path }
        return "/" + zip(segments, requestSegments).map { $0.name == nil ? $0.prefix : String($1) }.joined(separator: "/")
    }

    /// How many segments are plain text: a more literal route wins over a placeholder.
    var literalCount: Int { segments.count { $0.name == nil } }

    /// The non-empty segments of a path: `/v1//users/` and `/v1/users` are the same route.
    static func segments(of path: some StringProtocol) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true).map { Substring($0) }
    }

    /// The path of an absolute URL (`https://host:8080/v1?x` -> `/v1`); the text itself when it is a path.
    private static func pathOf(url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? ""
        }
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        return String(rest)
    }
}

/// One segment of a route's path: plain text, or a `{name}` placeholder with text around it (`v{n}.json`).
struct PathSegment: Sendable {
    let prefix: String
    let name: String?
    let suffix: String

    init(_ text: Substring) {
        if let open = text.firstIndex(of: "{"), let close = text[open...].firstIndex(of: "}"), text.index(after: open) < close {
            prefix = String(text[..<open])
            // `{id=7}`: the name without its default.
            name = String(text[text.index(after: open)..<close].prefix { $0 != "=" })
            suffix = String(text[text.index(after: close)...])
        } else {
            prefix = String(text)
            name = nil
            suffix = ""
        }
    }

    /// The placeholder's value (percent-decoded) when `text` fits; the empty string for a literal that fits.
    func match(_ text: Substring) -> String? {
        guard name != nil else { return text == prefix[...] ? "" : nil }
        guard text.count > prefix.count + suffix.count, text.hasPrefix(prefix), text.hasSuffix(suffix) else { return nil }
        let value = text.dropFirst(prefix.count).dropLast(suffix.count)
        return String(value).removingPercentEncoding ?? String(value)
    }
}
