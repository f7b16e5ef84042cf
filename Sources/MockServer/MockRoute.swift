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
    private(set) var answers: [PreparedSample]
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
    /// The responses an OpenAPI operation declares (`200`, `4XX`, `default`), which say for each
    /// status the headers it must carry and whether it has a body (one with a description only is
    /// answered empty when `Prefer: code=` asks for it, as Prism does).
    public var declaredResponses: [DeclaredResponse] = []
    /// The document the schemas' `$ref`s point into.
    public var schemaRoot: JSONValue = .null

    /// One response an OpenAPI operation declares: the status it is served with, the statuses it
    /// covers (a range or `default`), its required headers, and whether it has a body.
    public struct DeclaredResponse: Sendable {
        /// The status it is served as (`4XX` as 400, `default` as 500).
        public var status: Int
        /// For a range or `default`: every status it answers; nil for one status.
        public var covers: ClosedRange<Int>?
        /// The headers each status it answers must carry (its `required` headers).
        public var headers: [AnswerHeader]
        /// Whether it declares content; one with a description only is answered empty.
        public var hasBody: Bool

        /// A response served as `status`, covering `covers`, with `headers`, and a body or not.
        public init(status: Int, covers: ClosedRange<Int>? = nil, headers: [AnswerHeader] = [], hasBody: Bool) {
            self.status = status
            self.covers = covers
            self.headers = headers
            self.hasBody = hasBody
        }
    }

    /// The declared response that answers `status`, by OpenAPI's rule: the one declared with that
    /// status, else the narrowest range that covers it (`4XX`), else `default`.
    func declaredResponse(for status: Int) -> DeclaredResponse? {
        if let exact = declaredResponses.first(where: { $0.covers == nil && $0.status == status }) { return exact }
        return declaredResponses.filter { $0.covers?.contains(status) == true }.min { ($0.covers?.count ?? 0) < ($1.covers?.count ?? 0) }
    }

    /// Whether the document declares `status` (itself or by a range or `default`) with no body.
    public func answersEmpty(_ status: Int) -> Bool {
        declaredResponse(for: status).map { !$0.hasBody } ?? false
    }

    /// The lowest success declared with no body (a `2XX` or `204` with a description only): what
    /// a request with no `Prefer: code=` gets, empty, from a route with no sample and no schema.
    public var emptySuccessStatus: Int? {
        declaredResponses.filter { !$0.hasBody && (200...299).contains($0.status) }.map(\.status).min()
    }

    /// A header an answer must carry, its value the example, else made up from the schema.
    public struct AnswerHeader: Sendable {
        /// The header's name.
        public var name: String
        /// Its schema (`$ref`s into the route's ``MockRoute/schemaRoot``); `{}` for any text.
        public var schema: JSONValue
        /// The value the document gives, if any.
        public var example: JSONValue?

        /// A header named `name`, its value `example` or one made up from `schema`.
        public init(name: String, schema: JSONValue, example: JSONValue? = nil) {
            self.name = name
            self.schema = schema
            self.example = example
        }
    }

    /// A declared answer whose body is made up from its schema.
    public struct SchemaAnswer: Sendable {
        /// The status answered.
        public var status: Int
        /// The media type answered.
        public var contentType: String
        /// The schema the body is made from (`$ref`s into the route's ``MockRoute/schemaRoot``).
        public var schema: JSONValue
        /// The document's example of this answer, valid against the schema, if it gives one.
        public var example: JSONValue?
        /// For an answer declared as a range (`4XX`) or `default`: the statuses `Prefer: code=`
        /// may ask of it when no answer declares that status itself; nil for one status.
        public var covers: ClosedRange<Int>?

        /// An answer of `status` and `contentType` made up from `schema` (or given by `example`).
        public init(status: Int, contentType: String, schema: JSONValue, example: JSONValue? = nil, covers: ClosedRange<Int>? = nil) {
            self.status = status
            self.contentType = contentType
            self.schema = schema
            self.example = example
            self.covers = covers
        }

        /// The status an OpenAPI response key is served with, and the statuses it covers: `404`
        /// is itself; a range is its first status (`2XX` is 200, `4XX` 400, in any case) and
        /// covers the hundred; `default` is 500 and covers every final status (200-599). Nil for a
        /// key that is none of these, and for an informational one (`100`, `1XX`): a 1xx is no
        /// answer, and NIO refuses one with a body.
        public static func served(_ key: String) -> (status: Int, covers: ClosedRange<Int>?)? {
            if let code = Int(key) { return (200...599).contains(code) ? (code, nil) : nil }
            if key.lowercased() == "default" { return (500, 200...599) }
            let characters = Array(key.uppercased())
            guard characters.count == 3, characters[1] == "X", characters[2] == "X",
                  let digit = characters[0].wholeNumberValue, (2...5).contains(digit) else { return nil }
            return (digit * 100, digit * 100...digit * 100 + 99)
        }
    }

    /// The made-up answer for `Prefer: code=wanted`: the one declared with that status, else the
    /// narrowest range (`4XX`, then `default`) that covers it, answering that status. Nil when
    /// the response that answers it has no body.
    func schemaAnswer(for wanted: Int) -> SchemaAnswer? {
        if answersEmpty(wanted) { return nil }
        if let exact = schemaAnswers.first(where: { $0.status == wanted && $0.covers == nil }) { return exact }
        let covering = schemaAnswers.filter { $0.covers?.contains(wanted) == true }
        guard var answer = covering.min(by: { ($0.covers?.count ?? 0) < ($1.covers?.count ?? 0) }) else { return nil }
        answer.status = wanted
        return answer
    }

    /// The answer the document declares for a request it refuses (its `400`, else `4XX`, else
    /// `default`), which a request that breaks the route's checks is answered in; nil for wsh's own problem.
    public var badRequestAnswer: SchemaAnswer?

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
        var contentType: String?
        var body: ByteBuffer
        /// Whether the media type is the sample file's own (from its extension), not guessed from the body.
        var typeIsGiven = false
    }

    /// Answers the sample of `status` as the document declares it: under `mediaType`, the type
    /// whose `example` the sample was made from, its body written for that type (an XML example
    /// given as an object becomes XML). A sample file's own type is kept.
    public mutating func declareSample(status: Int, mediaType: String, example: JSONValue, schema: JSONValue?) {
        guard let index = answers.firstIndex(where: { $0.status == status }), !answers[index].typeIsGiven else { return }
        answers[index].contentType = mediaType
        if !MediaType.isJSON(mediaType) {
            answers[index].body = ByteBuffer(string: MediaBody.text(example, mediaType: mediaType, schema: schema, root: schemaRoot))
        }
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
            PreparedSample(status: sample.status, contentType: sample.effectiveContentType, body: ByteBuffer(bytes: sample.body),
                           typeIsGiven: sample.contentType != nil)
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
            guard let matched = segment.match(text) else { return nil }
            for (name, value) in matched { values[name] = value }
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
        guard requestSegments.count == segments.count, segments.contains(where: { $0.literal == nil }) else { return path }
        return "/" + zip(segments, requestSegments).map { $0.literal ?? String($1) }.joined(separator: "/")
    }

    /// How many segments are plain text: a more literal route wins over a placeholder.
    var literalCount: Int { segments.count { $0.literal != nil } }

    /// The non-empty segments of a path: `/v1//users/` and `/v1/users` are the same route.
    static func segments(of path: some StringProtocol) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true).map { Substring($0) }
    }

    /// The segments of a request's path, each percent-decoded after the split, as a server
    /// framework decodes them: `/files/x%2Fy` is one segment `x/y`, `/caf%C3%A9` is `café`. A
    /// segment that is not valid percent-encoding (`%ZZ`) stays as it came.
    static func decodedSegments(of path: some StringProtocol) -> [Substring] {
        segments(of: path).map { Substring(Self.percentDecoded($0)) }
    }

    static func percentDecoded(_ text: some StringProtocol) -> String {
        String(text).removingPercentEncoding ?? String(text)
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

/// One segment of a route's path: plain text, or `{name}` placeholders with text around and
/// between them (`v{n}.json`, `{name}.{ext}`, `{id}:cancel`, `report-{year}`).
struct PathSegment: Sendable {
    enum Piece: Sendable, Equatable {
        case text(String)
        case name(String)
    }

    let pieces: [Piece]

    init(_ text: Substring) {
        var pieces: [Piece] = []
        var rest = text
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}"), rest.index(after: open) < close {
            if open > rest.startIndex { pieces.append(.text(MockRoute.percentDecoded(rest[..<open]))) }
            // `{id=7}`: the name without its default.
            pieces.append(.name(String(rest[rest.index(after: open)..<close].prefix { $0 != "=" })))
            rest = rest[rest.index(after: close)...]
        }
        // Text written percent-encoded (`%3A`) is compared with the request's decoded segment.
        if !rest.isEmpty || pieces.isEmpty { pieces.append(.text(MockRoute.percentDecoded(rest))) }
        self.pieces = pieces
    }

    /// The segment's text when it has no placeholder.
    var literal: String? {
        guard pieces.count == 1, case .text(let text) = pieces[0] else { return nil }
        return text
    }

    /// Each placeholder's value when `text` (a decoded segment) fits; empty for a literal that fits.
    /// A placeholder takes at least one character: the text up to the first place where the text
    /// after it follows (the last one, all that is left before the segment's closing text). When
    /// any split fits, this one does: the next placeholder takes whatever a later split would
    /// have left to this one.
    func match(_ text: Substring) -> [(name: String, value: String)]? {
        if let literal { return text == literal[...] ? [] : nil }
        var rest = text
        var pieces = self.pieces[...]
        if case .text(let closing)? = pieces.last {
            guard rest.hasSuffix(closing) else { return nil }
            rest = rest.dropLast(closing.count)
            pieces = pieces.dropLast()
        }
        var values: [(name: String, value: String)] = []
        while let piece = pieces.popFirst() {
            switch piece {
            case .text(let literal):
                guard rest.hasPrefix(literal) else { return nil }
                rest = rest.dropFirst(literal.count)
            case .name(let name):
                guard !rest.isEmpty else { return nil }
                let end: Substring.Index
                switch pieces.first {
                case nil: end = rest.endIndex
                case .name?: end = rest.index(after: rest.startIndex)
                case .text(let following)?:
                    guard let found = rest.dropFirst().firstRange(of: following) else { return nil }
                    end = found.lowerBound
                }
                let value = rest[..<end]
                values.append((name, String(value)))
                rest = rest[end...]
            }
        }
        return rest.isEmpty ? values : nil
    }
}
