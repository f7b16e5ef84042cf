import Foundation
import Targets

/// A Postman request as the target declaration that sends it: `base` and `path` from its URL (a
/// path variable `:id` is the parameter `{id}`), `method`, headers, the body as `json`-less fields
/// (`form`, `multipart`, `body raw`, `body @FILE`), its auth as a header, saved examples as
/// `sample`s and scripts as comments. Each `{{name}}` is the wsh variable `variableName(name)`.
enum PostmanTarget {
    struct Failure: Error {
        var message: String
    }

    /// The declaration `target NAME { ... }`, and notes on what it leaves out. `credential`
    /// gives a template's text now (basic auth is sent as base64 of it), nil when it cannot, and
    /// makes what it gives a secret; a bearer token and an API key go through it too, to be masked.
    static func declaration(_ request: PostmanCollection.Request, name: String, directory: String,
                            variableName: @escaping (String) -> String,
                            credential: (String) -> String?) throws(Failure) -> (text: String, notes: [String]) {
        var notes: [String] = []
        var refused: String?
        func expression(_ expression: HTTPExpression) -> String {
            switch expression {
            case .variable(let name): return variableName(name)
            case .uuid: return "uuid"
            case .timestamp: return "timestamp"
            case .isoTimestamp: return "newDate"
            default:
                refused = refused ?? expression.written
                return "_"
            }
        }
        func template(_ text: String) throws(Failure) -> [HTTPTemplate.Part] {
            // Postman's own names for wsh's values; its other `$` values (`{{$randomInt}}`,
            // `{{$randomEmail}}`...) are made when Postman sends, which a target cannot hold.
            var text = text.replacingOccurrences(of: "{{$randomUUID}}", with: "{{$uuid}}")
            // Postman reads any text between `{{` and `}}` as a name (`{{fo/o}}`): it is the
            // variable wsh names for it, as it names the environment's.
            text = text.replacing(/\{\{\s*([^{}$%\s][^{}]*?)\s*\}\}/) { match in
                let readable = match.1.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }
                return readable ? String(match.0) : "{{" + variableName(String(match.1)) + "}}"
            }
            if let dynamic = text.firstMatch(of: /\{\{\s*(\$[A-Za-z.]+)\s*\}\}/), !["$guid", "$uuid", "$timestamp", "$isoTimestamp"].contains(String(dynamic.1)) {
                throw Failure(message: "wsh has no value for Postman's {{\(dynamic.1)}} in a target")
            }
            do {
                return try HTTPFileParser.template(of: text).parts
            } catch {
                throw Failure(message: error.message.text)
            }
        }
        /// A query's key or value: its text percent-encoded where a URL cannot hold it and at each
        /// of `escaping`; a `{{name}}` in it is escaped when sent.
        func queryText(_ text: String, escaping: String) throws(Failure) -> [HTTPTemplate.Part] {
            try template(text).map { part in
                guard case .text(let literal) = part else { return part }
                var encoded = PercentEncoding.encodeIllegalURLCharacters(literal)
                for character in escaping {
                    encoded = encoded.replacingOccurrences(of: String(character), with: "%" + String(character.asciiValue ?? 0, radix: 16, uppercase: true))
                }
                return .text(encoded)
            }
        }
        func written(_ text: String, braces: Bool = false) throws(Failure) -> String {
            HTTPFileTarget.written(try template(text), expression, encodingBraces: braces)
        }

        var url = request.url
        if let hash = url.firstIndex(of: "#") { url = String(url[..<hash]) }
        if !url.contains("://"), !url.hasPrefix("{{") { url = "http://" + url }
        let (base, path) = HTTPFileTarget.split(try template(url))
        var lines = ["  base     " + HTTPFileTarget.written(base, expression)]
        if let description = request.description {
            lines.insert("  doc      " + Run.quoted(description.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""), at: 0)
        }
        // `:id` segments are the parameters `{id}`.
        var pathText = HTTPFileTarget.written(path, expression, encodingBraces: true)
        for variable in request.pathVariables {
            pathText = pathText.replacingOccurrences(of: "/:\(variable.name)/", with: "/{\(variable.name)}/")
            if pathText.hasSuffix("/:\(variable.name)\"") {
                pathText = String(pathText.dropLast(variable.name.count + 2)) + "{\(variable.name)}\""
            }
            pathText = pathText.replacingOccurrences(of: "/:\(variable.name)?", with: "/{\(variable.name)}?")
        }
        if pathText != "\"\"" { lines.append("  path     " + pathText) }
        // A body with no method is a POST: a GET that keeps one (`disableBodyPruning`) says so, as newman sends it.
        if request.method != "GET" || request.body != nil { lines.append("  method   " + request.method) }

        var headers = request.headers.filter { $0.name.lowercased() != "content-length" }
        var queryAuth: String?
        if let auth = request.auth, ["bearer", "basic", "digest"].contains(auth.type) {
            // The request's auth is what Postman sends, over an Authorization header of its own.
            headers.removeAll { $0.name.lowercased() == "authorization" }
        }
        if let auth = request.auth, auth.invalid == nil {
            switch auth.type {
            case "noauth": break
            case "bearer":
                let token = auth.settings["token"] ?? ""
                if credential(token)?.isEmpty == true {
                    // Postman sends no Authorization for an empty token (an environment's before a login fills it).
                    notes.append("its bearer token is empty, so no Authorization header is sent, as Postman sends none: "
                                 + "set it, then use the collection again")
                } else {
                    headers.append(("Authorization", "Bearer " + token))
                }
            case "basic":
                let pair = (auth.settings["username"] ?? "") + ":" + (auth.settings["password"] ?? "")
                if let text = credential(pair) {
                    headers.append(("Authorization", "Basic " + Data(text.utf8).base64EncodedString()))
                } else {
                    notes.append("its basic auth uses variables that are not set: set them, then use the collection again")
                }
            case "apikey":
                let key = auth.settings["key"] ?? "", value = auth.settings["value"] ?? ""
                _ = credential(value)
                if auth.settings["in"] == "query" {
                    // Each encoded as newman encodes a query's parameter, so that an `&` in it adds no other.
                    queryAuth = HTTPFileTarget.written(try queryText(key, escaping: "&#=") + [.text("=")] + (try queryText(value, escaping: "&#")),
                                                       expression)
                } else {
                    headers.append((key, value))
                }
            case "digest":
                // The session's `plugin auth digest` answers the challenge: use postman sets it for the host.
                break
            default:
                notes.append("its \(auth.type) auth is not sent: wsh maps bearer, basic, API key and digest")
            }
        }
        if let queryAuth {
            let separator = pathText.contains("?") ? "&" : "?"
            let withQuery = String(pathText.dropLast()) + separator + String(queryAuth.dropFirst())
            if let index = lines.firstIndex(where: { $0.hasPrefix("  path") }) { lines[index] = "  path     " + withQuery } else {
                lines.append("  path     \"/" + separator + String(queryAuth.dropFirst()))
            }
        }
        let hasContentType = headers.contains { $0.name.lowercased() == "content-type" }
        var bodyLine: String?
        switch request.body {
        case nil: break
        case .raw(let text, let language):
            if !hasContentType, let type = ["json": "application/json", "xml": "application/xml", "html": "text/html",
                                            "text": "text/plain", "javascript": "application/javascript"][language ?? ""] {
                headers.append(("Content-Type", type))
            }
            bodyLine = "body     raw " + (try written(text))
        case .urlencoded(let fields):
            bodyLine = fields.isEmpty ? nil : "form     " + (try fields.map { field throws(Failure) in try written(field.name + "=" + field.value) })
                .joined(separator: " ")
        case .formdata(let parts):
            headers.removeAll { $0.name.lowercased() == "content-type" && $0.value.lowercased().hasPrefix("multipart/") }
            var words: [String] = []
            for part in parts {
                guard let files = part.files else {
                    if let type = part.contentType {
                        notes.append("its form-data part '\(part.name)' is sent without its Content-Type \(type): a wsh text part has none")
                    }
                    words.append(try written(part.name + "=" + part.value))
                    continue
                }
                if files.isEmpty { notes.append("its form-data part '\(part.name)' has no file chosen: it is not sent, as newman skips it") }
                for file in files {
                    let reference = FileReference(path: Run.path(file, relativeTo: directory), contentType: part.contentType)
                    words.append(try written(part.name + "@" + reference.written))
                }
            }
            bodyLine = words.isEmpty ? nil : "multipart " + words.joined(separator: " ")
        case .file(let source):
            bodyLine = "body     @" + Run.quoted(Run.path(source, relativeTo: directory))
        case .graphql(let query, let variables):
            if !hasContentType { headers.append(("Content-Type", "application/json")) }
            let variablesJSON = variables.flatMap { try? JSONValue.parse(Array($0.utf8)) } ?? .object([])
            let json = JSONValue.object([JSONMember(key: "query", value: .string(query)), JSONMember(key: "variables", value: variablesJSON)])
            // wsh made this JSON: a value in the query is escaped for where it stands in it.
            bodyLine = "body     graphql " + (try written(json.compactText))
        }
        for header in headers {
            lines.append("  header   " + (try written(header.name + ":" + header.value)))
        }
        if let bodyLine { lines.append("  " + bodyLine) }
        if request.behavior["followRedirects"]?.bool == false {
            lines.append("  follow   off")
        } else if let most = request.behavior["maxRedirects"]?.int, most >= 0 {
            lines.append("  follow   \(min(most, Run.mostRedirects))")
        }
        // One sample a status, a success first: the answer `wsh serve` gives unless asked for another.
        var statuses: Set<Int> = []
        let examples = request.examples.filter { (200...299).contains($0.status) } + request.examples.filter { !(200...299).contains($0.status) }
        for example in examples where !example.body.isEmpty && statuses.insert(example.status).inserted {
            lines.append("  sample   " + Run.quoted(example.body) + (example.status == 200 ? "" : " status \(example.status)"))
        }
        for script in request.scripts {
            lines.append("  # Postman \(script.kind) script" + (script.origin.map { " of " + $0 } ?? "") + ", not run (JavaScript):")
            lines += script.lines.map { "  #   " + $0.replacingOccurrences(of: "\r", with: "") }
        }
        if let refused {
            throw Failure(message: "wsh has no value for \(refused) in a target")
        }
        return ("target \(name) {\n" + lines.joined(separator: "\n") + "\n}", notes)
    }
}
