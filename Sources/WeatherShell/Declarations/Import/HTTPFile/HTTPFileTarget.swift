import Foundation

/// A `.http` request as the target declaration that sends it: `base` and `path` from its URL,
/// `method`, its headers, its body as `body raw` (substituted as written, as both clients do) or
/// `body @FILE`, `follow off` for `# @no-redirect`, `timeout` for `# @timeout`. Each `{{...}}`
/// becomes the wsh variable `variableName` gives it.
enum HTTPFileTarget {
    /// The declaration `target NAME { ... }`; a file it includes is read from `directory`.
    static func declaration(_ request: HTTPFile.Request, name: String, directory: String,
                            variableName: (HTTPExpression) -> String) throws(HTTPFileParser.Failure) -> String {
        var headers = request.headers.filter { $0.name.lowercased() != "content-length" }
        for header in headers where header.name.lowercased() == "authorization" {
            let literal = header.value.parts.map { if case .text(let text) = $0 { text } else { "x" } }.joined()
            try refuseShorthand(header, text: literal)
        }
        var url = request.url.parts
        if case .text(let first)? = url.first, first.hasPrefix("/") {
            // `GET /path` with a `Host:` header, as REST Client reads it.
            guard let host = headers.last(where: { $0.name.lowercased() == "host" }) else {
                throw HTTPFileParser.Failure(message: "a URL that starts with '/' needs a Host header, or write the whole URL", span: request.span)
            }
            headers.removeAll { $0.name.lowercased() == "host" }
            url = [.text("http://")] + host.value.parts + url
        } else if case .text(let first)? = url.first, !first.contains("://") {
            url[0] = .text("http://" + first)
        }
        let (base, path) = split(url)
        var lines = ["  base     " + written(base, variableName)]
        if !path.isEmpty { lines.append("  path     " + written(path, variableName, encodingBraces: true)) }
        if request.method != "GET" { lines.append("  method   " + request.method) }
        for header in headers {
            lines.append("  header   " + written([.text(header.name + ":")] + header.value.parts, variableName))
        }
        if let body = try body(request, headers: headers, directory: directory, variableName: variableName) { lines.append("  " + body) }
        if request.noRedirect { lines.append("  follow   off") }
        if let timeout = request.timeout {
            guard let duration = duration(timeout) else {
                throw HTTPFileParser.Failure(message: "@timeout takes seconds, or a number with ms, s or m, at most a day: '\(timeout.prefix(40))'",
                                             span: request.span)
            }
            lines.append("  timeout  " + duration)
        }
        return "target \(name) {\n" + lines.joined(separator: "\n") + "\n}"
    }

    /// The URL's parts before its path (scheme, host, port: what `base` holds) and from its path on.
    /// The path starts at the first `/`, `?` or `#` after `://`, or, for a URL that starts with a
    /// variable (`{{host}}/users`), at the first `/` after it. A `#fragment` is not sent.
    static func split(_ parts: [HTTPTemplate.Part]) -> ([HTTPTemplate.Part], [HTTPTemplate.Part]) {
        var base: [HTTPTemplate.Part] = []
        var seenScheme = false
        for (index, part) in parts.enumerated() {
            guard case .text(let text) = part else {
                base.append(part)
                continue
            }
            var searchFrom = text.startIndex
            if !seenScheme, let scheme = text.range(of: "://") {
                seenScheme = true
                searchFrom = scheme.upperBound
            }
            if let cut = text[searchFrom...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
                if cut > text.startIndex { base.append(.text(String(text[..<cut]))) }
                var rest: [HTTPTemplate.Part] = [.text(String(text[cut...]))] + parts[(index + 1)...]
                rest = withoutFragment(rest)
                return (base, rest)
            }
            base.append(part)
        }
        return (base, [])
    }

    private static func withoutFragment(_ parts: [HTTPTemplate.Part]) -> [HTTPTemplate.Part] {
        var kept: [HTTPTemplate.Part] = []
        for part in parts {
            if case .text(let text) = part, let hash = text.firstIndex(of: "#") {
                if hash > text.startIndex { kept.append(.text(String(text[..<hash]))) }
                return kept
            }
            kept.append(part)
        }
        return kept
    }

    /// The body field: `body @FILE` for a body that is one file, else `body raw "..."` with the files
    /// it includes read in. A multipart body's lines end in CRLF, as its boundaries need.
    private static func body(_ request: HTTPFile.Request, headers: [HTTPFile.Header], directory: String,
                             variableName: (HTTPExpression) -> String) throws(HTTPFileParser.Failure) -> String? {
        guard !request.body.isEmpty else { return nil }
        if request.body.count == 1, case .file(let path, false, let span) = request.body[0] {
            let full = Run.path(path, relativeTo: directory)
            guard FileManager.default.isReadableFile(atPath: full) else {
                throw HTTPFileParser.Failure(message: "cannot read '\(path.prefix(80))' (from \(directory.prefix(80)))", span: span)
            }
            return "body     @" + Run.quoted(full)
        }
        let contentType = headers.last { $0.name.lowercased() == "content-type" }?.value.parts.first
        let multipart = if case .text(let type)? = contentType { type.lowercased().hasPrefix("multipart/") } else { false }
        var parts: [HTTPTemplate.Part] = []
        for piece in request.body {
            switch piece {
            case .text(let template):
                parts += multipart ? template.parts.map(crlf) : template.parts
            case .file(let path, let substitutes, let span):
                let full = Run.path(path, relativeTo: directory)
                guard let data = FileManager.default.contents(atPath: full) else {
                    throw HTTPFileParser.Failure(message: "cannot read '\(path.prefix(80))' (from \(directory.prefix(80)))", span: span)
                }
                guard let text = String(data: data, encoding: .utf8), !text.contains("\0") else {
                    throw HTTPFileParser.Failure(message: "'\(path.prefix(80))' is not text: wsh sends a binary file only as a whole body (< ./file alone)",
                                                 span: span)
                }
                if substitutes {
                    do {
                        parts += try HTTPFileParser.template(of: text).parts
                    } catch {
                        throw HTTPFileParser.Failure(message: "in '\(path.prefix(80))': \(error.message)", span: span)
                    }
                } else {
                    parts.append(.text(text))
                }
            }
        }
        return "body     raw " + written(parts, variableName)
    }

    private static func crlf(_ part: HTTPTemplate.Part) -> HTTPTemplate.Part {
        guard case .text(let text) = part else { return part }
        return .text(text.replacingOccurrences(of: "\n", with: "\r\n"))
    }

    /// The parts as one `"..."` string of the language, each expression as `${name}`.
    static func written(_ parts: [HTTPTemplate.Part], _ variableName: (HTTPExpression) -> String,
                        encodingBraces: Bool = false) -> String {
        var text = "\""
        for part in parts {
            switch part {
            case .text(var literal):
                if encodingBraces {
                    literal = literal.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D")
                }
                text += literal.map(Run.escaped).joined()
            case .expression(let expression, _):
                text += "${" + variableName(expression) + "}"
            }
        }
        return text + "\""
    }

    /// `600`, `600 s`, `500ms`, `2 m` as a wsh duration.
    private static func duration(_ text: String) -> String? {
        let compact = text.filter { $0 != " " }
        let digits = compact.prefix { $0.isNumber }
        guard let number = Int(digits), number > 0 else { return nil }
        // At most a day, as every wsh duration.
        switch compact.dropFirst(digits.count) {
        case "", "s": return number <= 86_400 ? "\(number)s" : nil
        case "ms": return number <= 86_400_000 ? "\(number)ms" : nil
        case "m": return number <= 1_440 ? "\(number)m" : nil
        default: return nil
        }
    }

    /// REST Client's `Digest USER PASSWORD`, `AWS ...` and `COGNITO ...` are schemes that need a
    /// conversation or a signature, not a header: refused at the header, `text` being its value
    /// (with its variables written in, when they are known).
    static func refuseShorthand(_ header: HTTPFile.Header, text: String) throws(HTTPFileParser.Failure) {
        guard header.name.lowercased() == "authorization" else { return }
        let words = text.split(separator: " ")
        if words.first == "AWS" || words.first == "COGNITO" || (words.first == "Digest" && words.count == 3 && !text.contains("=")) {
            throw HTTPFileParser.Failure(message: "wsh does not sign requests from REST Client's '\(words[0]) ...' shorthand", span: header.span,
                                         notes: words.first == "Digest" ? ["in a .wsh file: plugin auth digest USER:PASSWORD"] : [])
        }
    }

    /// REST Client's `Authorization: Basic USER:PASSWORD` (or `USER PASSWORD`): the header with the
    /// pair in base64, as REST Client sends it; `text` is the header's value with its variables
    /// written in. Nil for any other header, or a value already in base64.
    static func basicAuthorization(_ header: HTTPFile.Header, text: String) -> String? {
        guard header.name.lowercased() == "authorization", text.hasPrefix("Basic ") else { return nil }
        let credentials = text.dropFirst(6).trimmingBlanks
        if credentials.contains(":") { return "Basic " + Data(credentials.utf8).base64EncodedString() }
        let words = credentials.split(separator: " ", maxSplits: 1)
        guard words.count == 2 else { return nil }
        return "Basic " + Data("\(words[0]):\(words[1].trimmingBlanks)".utf8).base64EncodedString()
    }
}
