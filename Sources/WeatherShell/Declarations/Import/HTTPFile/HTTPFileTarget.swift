import Foundation
import Targets

/// A `.http` request as the target declaration that sends it: `base` and `path` from its URL,
/// `method`, its headers, its body as `body raw` (substituted as written, as both clients do; a
/// form's as `body` and a GraphQL body's as `body graphql`, each value encoded for where it
/// stands) or `body @FILE`, `follow off` for `# @no-redirect`, `timeout` for `# @timeout`. Each `{{...}}`
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
            // JetBrains' spec writes the scheme in the Host too: `Host: http://example.com:8080`.
            let scheme: [HTTPTemplate.Part] = if case .text(let text)? = host.value.parts.first, text.contains("://") { [] } else { [.text("http://")] }
            url = scheme + host.value.parts + url
        } else if case .text(let first)? = url.first, first == "*" {
            throw HTTPFileParser.Failure(message: "wsh does not send a request for the server as a whole ('\(request.method) *')", span: request.span,
                                         notes: ["write a path: \(request.method) /"])
        } else if case .text(let first)? = url.first, !first.contains("://") {
            url[0] = .text("http://" + first)
        }
        let (base, path) = split(url)
        var lines = ["  base     " + written(base, variableName)]
        if !path.isEmpty { lines.append("  path     " + written(path, variableName, encodingBraces: true)) }
        // A body with no method is a POST: a GET that has one says so, and is sent with it, as both clients send it.
        if request.method != "GET" || !request.body.isEmpty { lines.append("  method   " + request.method) }
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
        if request.body.count == 1, case .file(let path, false, nil, let span) = request.body[0] {
            let full = Run.path(path, relativeTo: directory)
            guard FileManager.default.isReadableFile(atPath: full) else {
                throw unreadable(path, directory: directory, span: span)
            }
            // Whole: the declaration is read in another directory than `directory` (the `.http`
            // file's while it runs, the current one for `use http`), where a relative path differs.
            let whole = full.hasPrefix("/") ? full : Run.path(full, relativeTo: FileManager.default.currentDirectoryPath)
            return "body     @" + Run.quoted((whole as NSString).standardizingPath)
        }
        let contentType = headers.last { $0.name.lowercased() == "content-type" }?.value.parts.first
        let multipart = if case .text(let type)? = contentType { type.lowercased().hasPrefix("multipart/") } else { false }
        let form = if case .text(let type)? = contentType { type.lowercased().hasPrefix("application/x-www-form-urlencoded") } else { false }
        var parts: [HTTPTemplate.Part] = []
        for piece in request.body {
            switch piece {
            case .text(let template):
                parts += multipart ? template.parts.map(crlf) : template.parts
            case .file(let path, let substitutes, let encodingName, let span):
                let full = Run.path(path, relativeTo: directory)
                guard let data = FileManager.default.contents(atPath: full) else {
                    throw unreadable(path, directory: directory, span: span)
                }
                let encoding = try fileEncoding(encodingName, span: span)
                guard let text = String(data: data, encoding: encoding), !text.contains("\0") else {
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
        // Written as they stand (`body`: percent-encoded in a form; `body graphql`: escaped for a
        // string of the query) where wsh makes the body's form; else as both clients send them, as
        // written (`body raw`).
        let field = request.isGraphQL ? "body     graphql " : form ? "body     " : "body     raw "
        return field + written(form ? formBody(parts) : parts, variableName)
    }

    /// A url-encoded form's text as REST Client sends it: a line that starts with `&` goes on the
    /// line before it (`name=foo` / `&password=bar` is `name=foo&password=bar`), and what a URL
    /// cannot hold (a blank, a line break, `"`, `<`, `>`, `{`, `}`, a character that is not ASCII, a
    /// `%` with no two hex digits after it) is percent-encoded as UTF-8, as REST Client's `encodeurl`
    /// does; what is encoded already (`%20`, `+`) stays.
    private static func formBody(_ parts: [HTTPTemplate.Part]) -> [HTTPTemplate.Part] {
        var merged: [HTTPTemplate.Part] = []
        for part in parts {
            if case .text(let text) = part, case .text(let before)? = merged.last {
                merged[merged.count - 1] = .text(before + text)
            } else {
                merged.append(part)
            }
        }
        return merged.map { part in
            guard case .text(let text) = part else { return part }
            return .text(PercentEncoding.encodeIllegalURLCharacters(text.replacingOccurrences(of: "\n&", with: "&"), keeping: encodeurlAlsoKeeps))
        }
    }

    /// What `encodeurl` leaves as it is beyond a URL's unreserved and reserved characters.
    private static let encodeurlAlsoKeeps: Set<UInt8> = [UInt8(ascii: "\\"), UInt8(ascii: "^"), UInt8(ascii: "|")]

    /// A body file that is not there, or not readable, named where wsh looked for it.
    private static func unreadable(_ path: String, directory: String, span: Range<Int>) -> HTTPFileParser.Failure {
        HTTPFileParser.Failure(message: "cannot read the body file '\(path.prefix(80))' (looked for it in \(directory == "." ? "the current directory" : String(directory.prefix(80))))",
                               span: span,
                               notes: path.contains("{{") ? ["a body file's path gets its variables when the .http file runs (wsh FILE, source FILE); use http reads it as written"] : [])
    }

    /// The encoding `<@NAME ./file` names (REST Client's names, as Node reads them); UTF-8 for none.
    private static func fileEncoding(_ name: String?, span: Range<Int>) throws(HTTPFileParser.Failure) -> String.Encoding {
        guard let name else { return .utf8 }
        switch name.lowercased() {
        case "utf8", "utf-8": return .utf8
        case "latin1", "binary", "iso-8859-1", "iso88591": return .isoLatin1
        case "ascii", "us-ascii": return .ascii
        case "utf16le", "utf-16le", "ucs2", "ucs-2": return .utf16LittleEndian
        default:
            throw HTTPFileParser.Failure(message: "wsh does not read files in the encoding '\(name.prefix(40))'", span: span,
                                         notes: ["it reads utf8, latin1, ascii and utf16le"])
        }
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

    /// REST Client's `Digest USER PASSWORD`, `AWS ...` and `COGNITO ...`, and httpyac's `oauth2 FLOW`
    /// (`openid` its older name), are schemes that need a conversation or a signature, not a header:
    /// refused at the header, `text` being its value (with its variables written in, when they are
    /// known). The scheme is matched in any case, as REST Client matches it (RFC 9110).
    static func refuseShorthand(_ header: HTTPFile.Header, text: String) throws(HTTPFileParser.Failure) {
        guard header.name.lowercased() == "authorization" else { return }
        let words = authorizationWords(text)
        let scheme = words.first?.lowercased()
        if scheme == "oauth2" || scheme == "openid" {
            throw HTTPFileParser.Failure(message: "wsh does not run httpyac's '\(words[0]) ...' flow to get a token", span: header.span,
                                         notes: ["ask for the token with a request of its own (# @name login), then send Authorization: Bearer {{login.response.body.$.access_token}}"])
        }
        // A Digest header of its own (`Digest username="ann", ...`) is sent as written.
        let digest = scheme == "digest" && words.count >= 3 && !words[1].contains("=")
        if scheme == "aws" || scheme == "cognito" || digest {
            throw HTTPFileParser.Failure(message: "wsh does not sign requests from REST Client's '\(words[0]) ...' shorthand", span: header.span,
                                         notes: digest ? ["in a .wsh file: plugin auth digest USER:PASSWORD"] : [])
        }
    }

    /// Whether an `Authorization` value is REST Client's Basic scheme, in any case.
    static func isBasic(_ text: String) -> Bool {
        authorizationWords(text).first?.lowercased() == "basic"
    }

    /// REST Client's `Authorization: Basic USER:PASSWORD` (or `USER PASSWORD`, the password being
    /// every word after the user), the scheme in any case: the header with the pair in base64, as
    /// REST Client sends it; `text` is the header's value with its variables written in. Nil for any
    /// other header, or a value already in base64.
    static func basicAuthorization(_ header: HTTPFile.Header, text: String) -> String? {
        guard header.name.lowercased() == "authorization" else { return nil }
        let words = authorizationWords(text)
        guard words.count >= 2, words[0].lowercased() == "basic" else { return nil }
        let pair: String
        if words.count > 2 {
            pair = words[1] + ":" + words[2...].joined(separator: " ")
        } else if words[1].contains(":") {
            pair = String(words[1])
        } else {
            return nil
        }
        return "Basic " + Data(pair.utf8).base64EncodedString()
    }

    /// The words of an `Authorization` value, split at blanks as REST Client splits it.
    private static func authorizationWords(_ text: String) -> [Substring] {
        text.split { $0 == " " || $0 == "\t" }
    }
}
