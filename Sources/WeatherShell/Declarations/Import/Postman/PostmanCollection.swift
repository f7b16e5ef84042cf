import Foundation
import Targets

/// A Postman collection (format v2.0 or v2.1) read into what wsh declares from it: its variables,
/// and each request with the folders it is in, its auth (its own, else the nearest folder's, else
/// the collection's), its saved examples and its scripts (kept as text, never run).
struct PostmanCollection {
    struct Failure: Error {
        var message: String
        /// The file is a Postman environment: what reads one is worth a note.
        var isEnvironment = false
    }

    /// One request of the collection.
    struct Request {
        /// The folders it is in, outermost first, then its own name, as written.
        var path: [String]
        var description: String?
        var method: String
        /// The URL as Postman writes it (`{{baseUrl}}/users/:id?page=1`), path variables' defaults apart.
        var url: String
        /// Why it has no URL to send to (`its url is null`), when it has none: it is not declared.
        var urlProblem: String?
        var pathVariables: [(name: String, value: String)]
        var headers: [(name: String, value: String)]
        var body: Body?
        var auth: Auth?
        var examples: [Example]
        /// The collection's, its folders' and its own `prerequest` and `test` scripts, in the order
        /// Postman runs them.
        var scripts: [Script]
        /// Its `protocolProfileBehavior`: the collection's, then its folders', then its own, a later key winning.
        var behavior: [String: JSONValue]
        /// What of it is left out, and why: a body of a mode Postman has not, auth whose settings are not read.
        var omitted: [String] = []
    }

    enum Body {
        /// Raw text, with the language Postman's editor gave it (`json`, `xml`, `text`...).
        case raw(String, language: String?)
        case urlencoded([(name: String, value: String)])
        case formdata([FormPart])
        case file(String)
        case graphql(query: String, variables: String?)
    }

    /// A form-data part: a text value, or a file part's files.
    struct FormPart {
        var name: String
        var value: String
        /// A file part's files (`src`, relative to the collection's directory), one part each as
        /// Postman sends them, none when none was chosen; nil for a text part.
        var files: [String]?
        /// The part's own Content-Type (`contentType`), when it gives one.
        var contentType: String?
    }

    /// Auth as Postman stores it: a type and its settings (`token`, `username`, `key`, `in`...).
    struct Auth {
        var type: String
        var settings: [String: String]
        /// Why its settings cannot be read (`its bearer settings are "x", not a list`): it is not sent.
        var invalid: String?
    }

    /// A script, as its lines.
    struct Script {
        /// `prerequest` or `test`.
        var kind: String
        /// Where it is, when it is not the request's own: `the collection`, `folder 'Users'`.
        var origin: String?
        var lines: [String]
    }

    /// A saved example answer.
    struct Example {
        var name: String
        var status: Int
        var body: String
        var contentType: String?
    }

    /// The `protocolProfileBehavior` keys a target holds: the others are named in a note.
    static let keptBehaviors: Set<String> = ["followRedirects", "maxRedirects", "disableBodyPruning"]

    var name: String
    /// The collection's variables, then its folders' (one scope in wsh: the first of a name holds);
    /// one of type `secret` is a secret, as in an environment.
    var variables: [(name: String, value: String, secret: Bool)]
    var requests: [Request]
    /// Items that are neither a request nor a folder: where they are (`the collection`, `folder 'Users'`,
    /// or the item's own name in quotes) and what they are.
    var skipped: [(place: String, reason: String)]

    /// Reads a collection; a file that is not one (or is format v1) is a failure that says so.
    init(json: JSONValue) throws(Failure) {
        guard case .object = json, let items = json["item"], case .array = items else {
            if json["requests"] != nil {
                throw Failure(message: "this is a Postman collection of format v1: export it again from Postman as Collection v2.1")
            }
            if case .array? = json["values"] {
                throw Failure(message: "this is a Postman environment, not a collection", isEnvironment: true)
            }
            throw Failure(message: "not a Postman collection: it has no \"item\" list")
        }
        let info = json["info"]
        name = info?["name"]?.string ?? json["name"]?.string ?? "collection"
        var variables = Self.variables(json["variable"])
        var requests: [Request] = []
        var skipped: [(place: String, reason: String)] = []
        Self.walk(items, folders: [], inheritedAuth: Self.auth(json["auth"]), behavior: Self.behavior(json, over: [:]),
                  scripts: Self.scripts(json["event"], origin: "the collection"), into: &requests, variables: &variables, skipped: &skipped)
        self.requests = requests
        self.skipped = skipped
        self.variables = variables
    }

    private static func walk(_ items: JSONValue, folders: [String], inheritedAuth: Auth?, behavior inherited: [String: JSONValue],
                             scripts inheritedScripts: [Script], into requests: inout [Request], variables: inout [(name: String, value: String, secret: Bool)],
                             skipped: inout [(place: String, reason: String)]) {
        guard case .array(let list) = items else { return }
        for item in list {
            guard case .object = item else {
                let place = folders.isEmpty ? "the collection" : "folder '\(folders.joined(separator: " / "))'"
                skipped.append((place, "an item that is not an object (\(item.compactText.prefix(60))) is left out"))
                continue
            }
            let name = item["name"]?.string ?? "request"
            let ownAuth = auth(item["auth"])
            let auth = ownAuth ?? inheritedAuth
            let behavior = behavior(item, over: inherited)
            if let children = item["item"] {
                variables += Self.variables(item["variable"])
                let folderScripts = scripts(item["event"], origin: "folder '\((folders + [name]).joined(separator: " / "))'")
                walk(children, folders: folders + [name], inheritedAuth: auth, behavior: behavior, scripts: inheritedScripts + folderScripts,
                     into: &requests, variables: &variables, skipped: &skipped)
                continue
            }
            guard let json = item["request"], json != .null else {
                skipped.append(("'\((folders + [name]).joined(separator: " / "))'", "it has neither a request nor an item list, so it is not declared"))
                continue
            }
            var request = read(json, path: folders + [name], item: item, inheritedAuth: inheritedAuth, behavior: behavior)
            // Postman runs the collection's prerequest scripts, then its folders', then the request's; tests too.
            let all: [Script] = inheritedScripts + request.scripts
            let prerequests: [Script] = all.filter { $0.kind == "prerequest" }
            request.scripts = prerequests + all.filter { $0.kind != "prerequest" }
            requests.append(request)
        }
    }

    /// `inherited` with the keys of the item's (or collection's) `protocolProfileBehavior` set over it.
    private static func behavior(_ item: JSONValue, over inherited: [String: JSONValue]) -> [String: JSONValue] {
        guard case .object(let members)? = item["protocolProfileBehavior"] else { return inherited }
        var behavior = inherited
        for member in members { behavior[member.key] = member.value }
        return behavior
    }

    private static func read(_ request: JSONValue, path: [String], item: JSONValue, inheritedAuth: Auth?,
                             behavior: [String: JSONValue]) -> Request {
        // A request may be a bare URL string (`"request": "https://..."`), a GET with nothing else.
        let isString = request.string != nil
        let urlValue = isString ? request : request["url"]
        var url = urlValue?.string ?? urlValue?["raw"]?.string ?? ""
        if url.isEmpty, let urlValue { url = rawURL(urlValue) }
        if case .array? = urlValue?["query"], urlValue?["raw"]?.string != nil {
            // Postman sends the query its rows make, a disabled row left out, not the raw URL's.
            url = replacingQuery(of: url, with: query(urlValue?["query"]))
        }
        var headers: [(name: String, value: String)] = []
        if let header = request["header"] {
            if let text = header.string {
                // v2.0 allows the headers as one text: `Name: value` lines.
                for line in text.split(whereSeparator: \.isNewline) {
                    guard let colon = line.firstIndex(of: ":"), !line[..<colon].trimmingBlanks.isEmpty else { continue }
                    headers.append((line[..<colon].trimmingBlanks, line[line.index(after: colon)...].trimmingBlanks))
                }
            } else {
                headers = pairs(header, key: "key")
            }
        }
        let requestAuth = auth(request["auth"])
        var description = request["description"]?.string ?? request["description"]?["content"]?.string
        if description?.isEmpty == true { description = nil }
        var omitted: [String] = []
        var body: Body?
        if !isString, !prunesBody(request, behavior: behavior) {
            let read = Self.body(request["body"])
            body = read.body
            if let left = read.omitted { omitted.append(left) }
        }
        let auth = requestAuth ?? inheritedAuth
        if let auth, let invalid = auth.invalid { omitted.append("its \(auth.type) auth is not sent: \(invalid)") }
        return Request(
            path: path, description: description,
            method: (request["method"]?.string ?? "GET").uppercased(), url: url, urlProblem: urlProblem(urlValue, url: url),
            pathVariables: pathVariables(urlValue, url: url), headers: headers,
            body: body, auth: auth,
            examples: examples(item["response"]), scripts: scripts(item["event"], origin: nil), behavior: behavior, omitted: omitted)
    }

    /// The URL's path variables: those its `variable` rows name, and each `:name` segment of its
    /// path, as Postman reads one in a URL saved as text (`"url": "{{base}}/users/:id"`) too.
    private static func pathVariables(_ urlValue: JSONValue?, url: String) -> [(name: String, value: String)] {
        var variables = pairs(urlValue?["variable"], key: "key")
        var path = Substring(url)
        if let scheme = path.range(of: "://") { path = path[scheme.upperBound...].drop { $0 != "/" } }
        path = path.prefix { $0 != "?" && $0 != "#" }
        for segment in path.split(separator: "/") where segment.hasPrefix(":") {
            let name = String(segment.dropFirst())
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }),
                  !variables.contains(where: { $0.name == name }) else { continue }
            variables.append((name, ""))
        }
        return variables
    }

    /// Why a request has no URL wsh can send to, nil when it has one.
    private static func urlProblem(_ value: JSONValue?, url: String) -> String? {
        guard url.trimmingBlanks.isEmpty else { return nil }
        switch value {
        case nil: return "it has no url"
        case .null?: return "its url is null"
        case .string?: return "its url is empty"
        case .object?: return "its url object has no raw URL, host or path"
        case let other?: return "its url is \(other.compactText.prefix(60)), neither text nor a URL object"
        }
    }

    /// Postman leaves out the body of a GET, HEAD, COPY, PURGE or UNLOCK unless the request's
    /// `protocolProfileBehavior` says `disableBodyPruning`.
    private static func prunesBody(_ request: JSONValue, behavior: [String: JSONValue]) -> Bool {
        let method = (request["method"]?.string ?? "GET").uppercased()
        guard ["GET", "HEAD", "COPY", "PURGE", "UNLOCK"].contains(method) else { return false }
        return behavior["disableBodyPruning"]?.bool != true
    }

    /// A URL object with no `raw`: its protocol, host, port, path and query put together.
    private static func rawURL(_ url: JSONValue) -> String {
        func joined(_ value: JSONValue?, _ separator: String) -> String {
            if let text = value?.string { return text }
            guard case .array(let parts)? = value else { return "" }
            return parts.compactMap(\.string).joined(separator: separator)
        }
        var text = url["protocol"]?.string.map { $0 + "://" } ?? ""
        text += joined(url["host"], ".")
        if let port = url["port"]?.string { text += ":" + port }
        let path = joined(url["path"], "/")
        if !path.isEmpty { text += "/" + path }
        let query = query(url["query"])
        if !query.isEmpty { text += "?" + query }
        return text
    }

    /// A URL's enabled `query` rows as Postman joins them: `key=value`, and a key alone for a value
    /// of null (a key typed without `=`), as postman-collection writes it.
    private static func query(_ rows: JSONValue?) -> String {
        guard case .array(let list)? = rows else { return "" }
        let nulls = Set(list.compactMap { row in row["value"] == nil || row["value"] == .null ? row["key"]?.string : nil })
        return pairs(rows, key: "key").map { nulls.contains($0.name) && $0.value.isEmpty ? $0.name : $0.name + "=" + $0.value }
            .joined(separator: "&")
    }

    /// `url` with its query (after the first `?`, up to a `#`) replaced by `query`.
    private static func replacingQuery(of url: String, with query: String) -> String {
        let end = url.firstIndex(of: "#") ?? url.endIndex
        let start = url[..<end].firstIndex(of: "?") ?? end
        return String(url[..<start]) + (query.isEmpty ? "" : "?" + query) + url[end...]
    }

    /// The body, and what of it is left out (a mode Postman has not), when something is.
    private static func body(_ body: JSONValue?) -> (body: Body?, omitted: String?) {
        guard let body, body["disabled"]?.bool != true, let mode = body["mode"]?.string else { return (nil, nil) }
        let modes = ["raw", "urlencoded", "formdata", "file", "graphql"]
        guard modes.contains(mode) else {
            return (nil, "its body is left out: its mode '\(mode)' is none of Postman's (\(modes.joined(separator: ", ")))")
        }
        return (read(body, mode: mode), nil)
    }

    private static func read(_ body: JSONValue, mode: String) -> Body? {
        switch mode {
        case "raw":
            let raw = body["raw"]?.string ?? ""
            return raw.isEmpty ? nil : .raw(raw, language: body["options"]?["raw"]?["language"]?.string)
        case "urlencoded":
            return .urlencoded(pairs(body["urlencoded"], key: "key"))
        case "formdata":
            guard case .array(let parts)? = body["formdata"] else { return nil }
            return .formdata(parts.compactMap { part in
                guard part["disabled"]?.bool != true, let name = part["key"]?.string, !name.isEmpty else { return nil }
                var contentType = part["contentType"]?.string
                if contentType?.isEmpty == true { contentType = nil }
                guard part["type"]?.string == "file" else {
                    return FormPart(name: name, value: part["value"]?.string ?? "", contentType: contentType)
                }
                let files: [String]
                if case .array(let list)? = part["src"] { files = list.compactMap(\.string) } else { files = part["src"]?.string.map { [$0] } ?? [] }
                return FormPart(name: name, value: "", files: files.filter { !$0.isEmpty }, contentType: contentType)
            })
        case "file":
            return body["file"]?["src"]?.string.map { .file($0) }
        case "graphql":
            return .graphql(query: body["graphql"]?["query"]?.string ?? "", variables: body["graphql"]?["variables"]?.string)
        default:
            return nil
        }
    }

    /// Auth in either form: v2.1's lists of `{key, value}`, v2.0's objects. `noauth` is an auth
    /// too: it stops a folder's or the collection's from applying; `inherit` is none of its own.
    private static func auth(_ auth: JSONValue?) -> Auth? {
        guard let auth, let type = auth["type"]?.string, type != "inherit" else { return nil }
        var settings: [String: String] = [:]
        switch auth[type] {
        case nil, .null?, .array?, .object?: break
        case let written?:
            return Auth(type: type, settings: [:], invalid: "its \(type) settings are \(written.compactText.prefix(60)), not a list of key and value")
        }
        if case .array = auth[type] {
            for pair in pairs(auth[type], key: "key") { settings[pair.name] = pair.value }
        } else if case .object(let members)? = auth[type] {
            for member in members { settings[member.key] = member.value.string ?? member.value.compactText }
        }
        return Auth(type: type, settings: settings)
    }

    private static func examples(_ responses: JSONValue?) -> [Example] {
        guard case .array(let list)? = responses else { return [] }
        return list.compactMap { response in
            let status = response["code"].flatMap { $0.int } ?? 200
            let headers = pairs(response["header"], key: "key")
            let contentType = headers.last { $0.name.lowercased() == "content-type" }?.value
            return Example(name: response["name"]?.string ?? "", status: status, body: response["body"]?.string ?? "",
                           contentType: contentType)
        }
    }

    private static func scripts(_ events: JSONValue?, origin: String?) -> [Script] {
        guard case .array(let list)? = events else { return [] }
        return list.compactMap { event in
            guard let kind = event["listen"]?.string else { return nil }
            let exec = event["script"]?["exec"]
            let lines = exec?.string.map { $0.components(separatedBy: "\n") }
                ?? { if case .array(let lines)? = exec { lines.compactMap(\.string) } else { [] } }()
            let code = lines.filter { !$0.trimmingBlanks.isEmpty }
            return code.isEmpty ? nil : Script(kind: kind, origin: origin, lines: code)
        }
    }

    /// `[{key, value, disabled}]` as pairs, the disabled ones and those with an empty key left out
    /// (Postman sends neither); values that are not text as JSON text.
    /// A `variable` list's enabled rows, each a secret when its type is `secret`.
    private static func variables(_ list: JSONValue?) -> [(name: String, value: String, secret: Bool)] {
        guard case .array(let entries)? = list else { return [] }
        let secrets = Set(entries.compactMap { $0["type"]?.string == "secret" ? $0["key"]?.string : nil })
        return pairs(list, key: "key").map { ($0.name, $0.value, secrets.contains($0.name)) }
    }

    static func pairs(_ list: JSONValue?, key: String) -> [(name: String, value: String)] {
        guard case .array(let entries)? = list else { return [] }
        return entries.compactMap { entry in
            guard entry["disabled"]?.bool != true, let name = entry[key]?.string, !name.isEmpty else { return nil }
            let value = entry["value"]
            return (name, value?.string ?? (value == nil || value == .null ? "" : value?.compactText ?? ""))
        }
    }
}
