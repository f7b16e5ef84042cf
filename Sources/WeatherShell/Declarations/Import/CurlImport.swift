import Foundation
import Targets

/// A curl command line as the target declaration a person would write for it: `base`, `path`,
/// `method` when not GET, the URL's query as `query` defaults, headers, and the body as `json`
/// fields (a JSON object sent as JSON), `form` fields (a url-encoded form), `multipart` parts,
/// `body @FILE` (one `--data-binary @FILE`) or `body "..."`. What cannot be said that way is
/// kept as written (a query with a repeated key stays in `path`) or named in ``notes``.
struct CurlImport {
    let name: String
    /// The declaration, `target NAME { ... }`.
    let text: String
    let notes: [String]

    struct Failure: Error {
        var message: String
    }

    /// The target for `command`, named `name` or after the URL's last path segment; relative
    /// file names are read from `directory`, as curl reads them from its working directory.
    /// `keepsAcceptEncoding`: an Accept-Encoding the command gives is kept (a HAR wsh wrote holds
    /// one only when the user gave it), else left out with a note.
    /// `isSecret` says which text holds a secret's value: no name is made of it.
    init(_ command: CurlCommand, name: String?, directory: String, keepsAcceptEncoding: Bool = false,
         isSecret: (String) -> Bool = { _ in false }) throws(Failure) {
        var notes = command.notes
        var url = command.url ?? ""
        if !url.contains("://") { url = "http://" + url }
        guard let schemeEnd = url.range(of: "://"), ["http", "https"].contains(url[..<schemeEnd.lowerBound].lowercased()) else {
            throw Failure(message: "only http and https URLs can be a target: \(url.prefix(80))")
        }
        if let hash = url.firstIndex(of: "#") { url = String(url[..<hash]) }
        let afterScheme = url[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
        var authority = String(afterScheme[..<authorityEnd])
        var user = command.user
        if let at = authority.lastIndex(of: "@") {
            user = user ?? PercentEncoding.decode(authority[..<at], plusIsSpace: false)
            authority = String(authority[authority.index(after: at)...])
        }
        let base = url[..<schemeEnd.upperBound] + authority
        let rest = afterScheme[authorityEnd...]
        let (pathPart, queryPart) = String(rest).split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            .map(String.init).pairOrSingle
        var path = pathPart.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D")
        var queryText = queryPart

        var bodyFile: String?
        var body: [UInt8]?
        if !command.data.isEmpty {
            if command.data.count == 1, case .binary(let value) = command.data[0], value.hasPrefix("@") {
                bodyFile = Run.path(String(value.dropFirst()), relativeTo: directory)
            }
            let joined: [UInt8] = try Array(command.data.map { piece throws(Failure) in try Self.bytes(of: piece, directory: directory) }
                .joined(separator: [UInt8(ascii: "&")]))
            if command.dataInQuery {
                let text = String(decoding: joined, as: UTF8.self)
                queryText = queryText.map { $0 + "&" + text } ?? text
                bodyFile = nil
            } else {
                body = Array(joined)
            }
        }

        var headers = command.headers
        let hasBody = body != nil || !command.form.isEmpty
        func header(_ name: String) -> String? { headers.last { $0.name.lowercased() == name.lowercased() }?.value }
        // As curl: a typed Authorization header wins over -u and --oauth2-bearer, and a scheme
        // other than Basic never sends the password as Basic (Digest would never send it at all).
        let typedAuthorization = header("Authorization") != nil
        var userHeader = false
        if typedAuthorization {
            if user != nil || command.bearer != nil {
                notes.append("-u and --oauth2-bearer are left out: the -H Authorization header is sent instead, as curl sends it")
            }
        } else if let bearer = command.bearer {
            headers.append(("Authorization", "Bearer " + bearer))
            notes.append("the token of --oauth2-bearer is in the Authorization header; to keep it out: plugin auth bearer $token")
        } else if let user, let scheme = command.authScheme {
            let name = String(user.prefix { $0 != ":" })
            let plugin = scheme == "digest" ? "plugin auth digest \(name):$password" : "no plugin: wsh has Basic, Bearer and Digest"
            notes.append("--\(scheme) -u is left out, never sent as Basic: \(plugin)")
        } else if let user, user.contains(Redaction.placeholder) {
            // A masked credential (a line wsh printed) is no credential to encode: the call gives the header.
            headers.append(("Authorization", Redaction.placeholder))
        } else if let user {
            headers.append(("Authorization", "Basic " + Data(user.utf8).base64EncodedString()))
            userHeader = true
        }
        if command.json {
            if header("Content-Type") == nil { headers.append(("Content-Type", "application/json")) }
            if header("Accept") == nil { headers.append(("Accept", "application/json")) }
        }
        if body != nil, header("Content-Type") == nil { headers.append(("Content-Type", "application/x-www-form-urlencoded")) }
        if header("Accept-Encoding") != nil, !keepsAcceptEncoding {
            headers.removeAll { $0.name.lowercased() == "accept-encoding" }
            notes.append("Accept-Encoding is left out: wsh asks for the encodings it decodes")
        }
        if userHeader { notes.append("the credential of -u is in the Authorization header; to keep it out: plugin auth basic $user:$password") }

        let method = command.method?.uppercased() ?? (command.head ? "HEAD" : hasBody ? "POST" : "GET")
        var lines: [String] = ["  base     " + Run.quoted(String(base))]
        var query: [String] = []
        if let queryText, !queryText.isEmpty {
            if let pairs = Self.pairs(queryText) {
                query = pairs.map { Self.item($0.name, "=", $0.value) }
            } else {
                path += "?" + queryText
            }
        }
        if !path.isEmpty, path != "/" || query.isEmpty { lines.append("  path     " + Run.quoted(path)) }
        // A body with no method is a POST: `-X GET -d ...` says GET, as curl sends it.
        if method != "GET" || hasBody { lines.append("  method   " + method) }
        if !query.isEmpty { lines.append("  query    " + query.joined(separator: " ")) }

        var bodyLine: String?
        let contentType = header("Content-Type")
        if !command.form.isEmpty {
            headers.removeAll { $0.name.lowercased() == "content-type" && $0.value.lowercased().hasPrefix("multipart/form-data") }
            bodyLine = "  multipart " + (try command.form.map { part throws(Failure) in try Self.multipartWord(part, directory: directory, notes: &notes) })
                .joined(separator: " ")
        } else if let body {
            let type = contentType?.lowercased() ?? ""
            if type.contains("json"), let fields = Self.jsonFields(body) {
                bodyLine = "  json     " + fields.joined(separator: " ")
                if type == "application/json" { headers.removeAll { $0.name.lowercased() == "content-type" } }
            } else if type.hasPrefix("application/x-www-form-urlencoded"), let pairs = Self.pairs(String(decoding: body, as: UTF8.self)) {
                bodyLine = "  form     " + pairs.map { Self.item($0.name, "=", $0.value) }.joined(separator: " ")
                if type == "application/x-www-form-urlencoded" { headers.removeAll { $0.name.lowercased() == "content-type" } }
            } else if let bodyFile {
                bodyLine = "  body     @" + Run.quoted(bodyFile)
            } else {
                guard !body.contains(0), let text = String(bytes: body, encoding: .utf8) else {
                    throw Failure(message: "the body is not text: send a binary body with --data-binary @FILE")
                }
                bodyLine = "  body     " + Run.quoted(text)
                if type.hasPrefix("application/x-www-form-urlencoded"), text.first == "{" || text.first == "[" {
                    notes.append("curl sends this body as a form (application/x-www-form-urlencoded); for JSON give -H 'Content-Type: application/json' or --json")
                }
            }
        }
        for header in headers {
            let masked = header.value.contains(Redaction.placeholder)
            lines.append("  header   " + Run.quoted(masked ? header.name : header.name + ":" + header.value))
        }
        if let bodyLine { lines.append(bodyLine) }
        if let timeout = command.timeout {
            guard let seconds = Double(timeout), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw Failure(message: "-m takes seconds, such as 10 or 2.5: \(timeout.prefix(40))")
            }
            lines.append("  timeout  \(Int((seconds * 1000).rounded()))ms")
        }
        self.name = name ?? Self.name(path: pathPart, authority: authority, isSecret: isSecret)
        self.text = "target \(self.name) {\n" + lines.joined(separator: "\n") + "\n}"
        self.notes = notes
    }

    /// The bytes one `-d`-style piece adds to the data.
    private static func bytes(of piece: CurlCommand.Data, directory: String) throws(Failure) -> [UInt8] {
        switch piece {
        case .raw(let text):
            return Array(text.utf8)
        case .ascii(let text), .binary(let text):
            guard text.hasPrefix("@") else { return Array(text.utf8) }
            let content = try read(String(text.dropFirst()), directory: directory)
            guard case .ascii = piece else { return content }
            // curl -d @FILE drops carriage returns and line feeds.
            return content.filter { $0 != 0x0A && $0 != 0x0D }
        case .urlencode(let text):
            // curl: `content`, `=content`, `name=content`, `@file`, `name@file`.
            if let equals = text.firstIndex(of: "=") {
                let name = text[..<equals]
                let encoded = PercentEncoding.encode(String(text[text.index(after: equals)...]))
                return Array((name.isEmpty ? encoded : name + "=" + encoded).utf8)
            }
            if let at = text.firstIndex(of: "@") {
                let name = text[..<at]
                let content = String(decoding: try read(String(text[text.index(after: at)...]), directory: directory), as: UTF8.self)
                let encoded = PercentEncoding.encode(content)
                return Array((name.isEmpty ? encoded : name + "=" + encoded).utf8)
            }
            return Array(PercentEncoding.encode(text).utf8)
        }
    }

    private static func read(_ path: String, directory: String) throws(Failure) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: Run.path(path, relativeTo: directory)) else {
            throw Failure(message: "cannot read \(path.prefix(80))")
        }
        return Array(data)
    }

    /// `a=1&b=x+y` as pairs, decoded, when each pair has a `=`, each key can be a parameter name
    /// and no key repeats; nil otherwise (the text is then kept as it is).
    static func pairs(_ text: String) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            let name = PercentEncoding.decode(pair[..<equals])
            guard isParameterName(name), !pairs.contains(where: { $0.name == name }) else { return nil }
            pairs.append((name, PercentEncoding.decode(pair[pair.index(after: equals)...])))
        }
        return pairs.isEmpty ? nil : pairs
    }

    /// A JSON object's members as `key=text` (strings) and `key:=JSON` (anything else), when every
    /// key can be a parameter name and none repeats.
    private static func jsonFields(_ body: [UInt8]) -> [String]? {
        guard case .object(let members)? = try? JSONValue.parse(body), !members.isEmpty else { return nil }
        var seen: Set<String> = []
        var fields: [String] = []
        for member in members {
            guard isParameterName(member.key), seen.insert(member.key).inserted else { return nil }
            if case .string(let text) = member.value {
                fields.append(item(member.key, "=", text))
            } else {
                fields.append(Run.quoted(member.key + ":=" + member.value.compactText))
            }
        }
        return fields
    }

    /// `name=value`, or `name` alone, a parameter the call must give, where the value is what wsh
    /// wrote for a masked secret (a HAR wsh exported): sending `***` as the credential would be wrong.
    private static func item(_ name: String, _ separator: String, _ value: String) -> String {
        Run.quoted(value == Redaction.placeholder ? name : name + separator + value)
    }

    /// A parameter name that `key=value` reads back whole.
    private static func isParameterName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains { "=:@ \t\r\n".contains($0) }
    }

    /// `-F name=value`, `-F name=@file[;type=...]`, `-F name=<file` as a `multipart` word.
    private static func multipartWord(_ part: CurlCommand.FormPart, directory: String, notes: inout [String]) throws(Failure) -> String {
        guard isParameterName(part.name) else { throw Failure(message: "the form part name '\(part.name.prefix(40))' cannot be a parameter") }
        guard !part.literal, let first = part.value.first, first == "@" || first == "<" else {
            return Run.quoted(part.name + "=" + part.value)
        }
        var fileSpec = String(part.value.dropFirst())
        var type: String?
        if let semicolon = fileSpec.firstIndex(of: ";") {
            for parameter in fileSpec[fileSpec.index(after: semicolon)...].split(separator: ";") {
                if parameter.hasPrefix("type=") {
                    type = String(parameter.dropFirst(5))
                } else {
                    notes.append("-F \(part.name): ';\(parameter)' is left out")
                }
            }
            fileSpec = String(fileSpec[..<semicolon])
        }
        if fileSpec.hasPrefix("\""), fileSpec.hasSuffix("\""), fileSpec.count >= 2 { fileSpec = String(fileSpec.dropFirst().dropLast()) }
        let path = Run.path(fileSpec, relativeTo: directory)
        if first == "<" {
            return Run.quoted(part.name + "=" + String(decoding: try read(path, directory: directory), as: UTF8.self))
        }
        return Run.quoted(part.name + "@" + FileReference(path: path, contentType: type).written)
    }

    /// The last path segment (before any `.`) in name characters, else the host's first label, else
    /// `request`; a segment that holds a secret (a webhook's token) names nothing, the one before it does.
    private static func name(path: String, authority: String, isSecret: (String) -> Bool) -> String {
        let segments = path.split(separator: "/").map { PercentEncoding.decode($0, plusIsSpace: false) }.filter { !isSecret($0) }
        for candidate in [String((segments.last ?? "").prefix { $0 != "." }), String(authority.prefix { $0 != "." && $0 != ":" })] {
            let cleaned = String(candidate.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "-" })
                .trimmingCharacters(in: CharacterSet(charactersIn: "-"))
            if !cleaned.isEmpty, !isSecret(cleaned) { return cleaned }
        }
        return "request"
    }
}

private extension Array where Element == String {
    /// The first element and the second when there is one: a split at one separator.
    var pairOrSingle: (String, String?) {
        (first ?? "", count > 1 ? self[1] : nil)
    }
}
