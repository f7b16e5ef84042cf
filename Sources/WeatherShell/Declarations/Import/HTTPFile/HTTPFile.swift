/// A `.http` file as the JetBrains HTTP Client and VS Code's REST Client write it: file variables
/// and requests, in file order. Read by ``HTTPFileParser``; every span is a byte range of the file.
struct HTTPFile {
    /// One thing the file says, in order: a variable to set, or a request to send.
    enum Item {
        case variable(Variable)
        case request(Request)
    }

    /// `@name = value`: a file variable; its value may use the variables before it.
    struct Variable {
        var name: String
        var value: HTTPTemplate
        /// The line's span, for errors.
        var span: Range<Int>
    }

    /// One request, between `###` separators.
    struct Request {
        /// `# @name NAME`, else the `###` line's title, as written.
        var name: String?
        var title: String?
        var method: String
        var url: HTTPTemplate
        var headers: [Header]
        var body: [BodyPiece]
        /// `# @no-redirect`: a 3xx is the answer.
        var noRedirect = false
        /// `# @no-cookie-jar`: no cookie is sent or kept.
        var noCookieJar = false
        /// `# @timeout N` (seconds, or with `ms`, `s`, `m`), as written.
        var timeout: String?
        /// A GraphQL request, its body made JSON by wsh: values are written into it JSON-escaped.
        var isGraphQL = false
        /// JetBrains' `>> ./file.json` (a new file beside a file of that name) or `>>! ./file.json`
        /// (overwritten): where the answer's body is saved, as written.
        var saveTo: (path: String, overwrites: Bool)?
        /// The request line's span: where errors about the request point.
        var span: Range<Int>
    }

    struct Header {
        var name: String
        var value: HTTPTemplate
        var span: Range<Int>
    }

    /// A piece of a body: lines of text, or `< ./file` (`<@ ./file`: its `{{...}}` are substituted;
    /// `<@latin1 ./file`: read in that encoding, REST Client's).
    enum BodyPiece {
        case text(HTTPTemplate)
        case file(path: String, substitutes: Bool, encoding: String? = nil, span: Range<Int>)

        /// `< {{dir}}/body.json`: a file whose path has variables, written in as the file runs.
        var pathHasVariables: Bool {
            if case .file(let path, _, _, _) = self { path.contains("{{") } else { false }
        }
    }

    var items: [Item]

    var requests: [Request] {
        items.compactMap { if case .request(let request) = $0 { request } else { nil } }
    }
}

/// Text with `{{...}}` in it, as a `.http` file writes URLs, headers, bodies and variable values.
struct HTTPTemplate: Equatable {
    enum Part: Equatable {
        case text(String)
        case expression(HTTPExpression, span: Range<Int>)
    }

    var parts: [Part]

    /// The expressions in it, in order.
    var expressions: [(expression: HTTPExpression, span: Range<Int>)] {
        parts.compactMap { if case .expression(let expression, let span) = $0 { (expression, span) } else { nil } }
    }
}

/// What a `{{...}}` asks for.
enum HTTPExpression: Hashable {
    /// `{{name}}`: a file variable, the environment's, or wsh's.
    case variable(String)
    /// `{{$uuid}}`, `{{$guid}}`, `{{$random.uuid}}`.
    case uuid
    /// `{{$timestamp}}`: seconds since 1970.
    case timestamp
    /// `{{$isoTimestamp}}`: the time now in UTC.
    case isoTimestamp
    /// `{{$randomInt MIN MAX}}`, `{{$random.integer(MIN, MAX)}}`: MIN up to MAX, MAX left out.
    case randomInt(Int, Int)
    /// `{{$processEnv NAME}}`, `{{$env.NAME}}`: an environment variable, a secret;
    /// `{{$processEnv %NAME}}`: the one whose name the variable NAME holds.
    case processEnv(String, named: Bool)
    /// `{{%name}}`: a value percent-encoded, as REST Client writes it.
    indirect case percentEncoded(HTTPExpression)
    /// `{{$datetime rfc1123|iso8601 [OFFSET UNIT]}}`, `{{$timestamp [OFFSET UNIT]}}`,
    /// `{{$localDatetime ...}}`: the time now, shifted by OFFSET units (`-1 d`).
    case date(HTTPDate)
    /// `{{$dotenv NAME}}`: a variable of the `.env` file beside the `.http` file, a secret;
    /// `{{$dotenv %NAME}}`: the one whose name the variable NAME holds.
    case dotenv(String, named: Bool)
    /// `{{login.response.body.$.token}}`, `{{login.response.body.*}}`: the body of the last answer
    /// to the named request, or what a JSONPath finds in it.
    case responseBody(request: String, path: String)
    /// `{{login.response.headers.X-Token}}`.
    case responseHeader(request: String, name: String)
    /// `{{login.request.body.*}}`, `{{login.request.headers.NAME}}`: what the named request sent.
    case requestBody(request: String)
    case requestHeader(request: String, name: String)
}

extension HTTPExpression {
    /// The expression as a `.http` file writes it, for messages: `{{$randomInt 1 10}}`.
    var written: String { "{{" + body + "}}" }

    private var body: String {
        switch self {
        case .variable(let name): name
        case .uuid: "$uuid"
        case .timestamp: "$timestamp"
        case .isoTimestamp: "$isoTimestamp"
        case .randomInt(let low, let high): "$randomInt \(low) \(high)"
        case .processEnv(let name, let named): "$processEnv " + (named ? "%" : "") + name
        case .percentEncoded(let inner): "%" + inner.body
        case .date(let date):
            switch date.format {
            case .timestamp: "$timestamp \(date.offset) s"
            case .rfc1123: "$datetime rfc1123" + (date.offset == 0 ? "" : " \(date.offset) s")
            case .iso8601(let local): (local ? "$localDatetime" : "$datetime") + " iso8601" + (date.offset == 0 ? "" : " \(date.offset) s")
            }
        case .dotenv(let name, let named): "$dotenv " + (named ? "%" : "") + name
        case .responseBody(let request, let path): "\(request).response.body.\(path)"
        case .responseHeader(let request, let name): "\(request).response.headers.\(name)"
        case .requestBody(let request): "\(request).request.body.*"
        case .requestHeader(let request, let name): "\(request).request.headers.\(name)"
        }
    }
}

/// A time REST Client writes: now, shifted by an offset, in one of its formats.
struct HTTPDate: Hashable {
    enum Format: Hashable {
        /// Seconds since 1970.
        case timestamp
        /// `2026-11-29T02:15:00.123Z`; local time with its offset for `$localDatetime`.
        case iso8601(local: Bool)
        /// `Sun, 29 Nov 2026 02:15:00 GMT`.
        case rfc1123
    }

    var format: Format
    /// The shift in seconds (REST Client's `-1 d`, `2 h`); months and years as 30 and 365 days.
    var offset: Int
}
