import Foundation
import Targets

extension OpenAPIExporter {
    /// The name of the security scheme an operation whose base URL held a password requires.
    static let basicScheme = "basicAuth"

    /// One target as an operation object. A credential typed as text in the target is not
    /// written (as `save` and `export http` write none): a header, query item or body field
    /// named as one (``isCredential(_:value:)``) is written required and with no default, and
    /// a base URL's password is left out of its server, the operation requiring Basic auth
    /// (``basicScheme``) instead; `credentials` gets the place of each (`header X-Api-Key`).
    static func operationTree(_ entry: Entry, credentials: inout [String]) -> JSONValue {
        let target = entry.target
        let info = entry.operation
        func doc(_ name: String) -> ParameterInfo? { info?.parameters.first { $0.name == name } }
        var operation: [JSONMember] = [JSONMember(key: "operationId", value: .string(target.name))]
        let summary = info?.summary ?? target.doc
        if !summary.isEmpty { operation.append(JSONMember(key: "summary", value: .string(summary))) }
        if let description = info?.description, !description.isEmpty { operation.append(JSONMember(key: "description", value: .string(description))) }
        let (server, hadPassword) = withoutPassword(target.baseURL)
        if !server.isEmpty {
            operation.append(JSONMember(key: "servers", value: .array([.object([JSONMember(key: "url", value: .string(server))])])))
        }
        if hadPassword {
            credentials.append("the password of its base URL (written as Basic auth)")
            operation.append(JSONMember(key: "security", value: .array([.object([JSONMember(key: basicScheme, value: .array([]))])])))
        }
        var parameters: [JSONValue] = []
        let pathDefaults = Dictionary(target.parameters.map { ($0.name, $0.defaultValue) }, uniquingKeysWith: { first, _ in first })
        for name in templateNames(target.path) {
            let value = pathDefaults[name] ?? nil
            parameters.append(parameter(name, in: "path", required: true, schema: schema(for: value, doc: doc(name)), doc: doc(name)))
        }
        for query in target.task.queryParameters where !parameters.contains(where: { $0["name"]?.string == query.name && $0["in"]?.string == "query" }) {
            let credential = isCredential(query.name, value: query.defaultValue)
            if credential { credentials.append("query \(query.name)") }
            parameters.append(parameter(query.name, in: "query", required: query.isRequired || credential,
                                        schema: schema(for: credential ? nil : query.defaultValue, doc: doc(query.name)), doc: doc(query.name),
                                        style: query.style))
        }
        for header in target.requiredHeaders {
            parameters.append(parameter(header, in: "header", required: true, schema: schema(for: nil, doc: doc(header)), doc: doc(header)))
        }
        for header in target.headers where !["accept", "content-type", "authorization"].contains(header.name.lowercased()) {
            let credential = isCredential(header.name, value: .text(header.value))
            if credential { credentials.append("header \(header.name)") }
            parameters.append(parameter(header.name, in: "header", required: credential,
                                        schema: schema(for: credential ? nil : .text(header.value), doc: doc(header.name)), doc: doc(header.name)))
        }
        if !parameters.isEmpty { operation.append(JSONMember(key: "parameters", value: .array(parameters))) }
        if let body = requestBody(target, doc: doc, credentials: &credentials) { operation.append(JSONMember(key: "requestBody", value: body)) }
        operation.append(JSONMember(key: "responses", value: responses(entry)))
        return .object(operation)
    }

    /// Whether a parameter's given value is a credential typed as text: its name is a
    /// credential's (``Redaction/isCredentialName(_:)``, or `Cookie`, `Proxy-Authorization`...),
    /// or its JSON value holds a member so named (`creds:='{"password":"..."}'`), as the
    /// request's credentials are judged in logs and by `export http`.
    static func isCredential(_ name: String, value: ParameterValue?) -> Bool {
        switch value {
        case nil, .file?: return false
        case .text(let text)?:
            return !text.isEmpty && (Redaction.isCredentialName(name) || Redaction.sensitiveHeaderNames.contains(name.lowercased()))
        case .json(let raw)?:
            if Redaction.isCredentialName(name) { return true }
            return (try? JSONValue.parse(raw)).map(holdsCredentialMember) ?? false
        }
    }

    /// Whether a JSON value has, at any depth, a member named as a credential with a value.
    private static func holdsCredentialMember(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members):
            members.contains { ($0.value != .null && Redaction.isCredentialName($0.key)) || holdsCredentialMember($0.value) }
        case .array(let elements): elements.contains(where: holdsCredentialMember)
        case .null, .bool, .number, .string: false
        }
    }

    /// `https://user:password@host/v1` as `https://host/v1`, and whether there was a password to
    /// leave out; a URL with none as it is.
    static func withoutPassword(_ url: String) -> (String, Bool) {
        guard let schemeEnd = url.range(of: "://") else { return (url, false) }
        let authorityEnd = url[schemeEnd.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        let authority = url[schemeEnd.upperBound..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), authority[..<at].contains(":") else { return (url, false) }
        return (String(url[..<schemeEnd.upperBound]) + url[url.index(after: at)...], true)
    }

    /// The `{name}`s of a path template, in order (without a `=VALUE` default).
    static func templateNames(_ path: String) -> [String] {
        var names: [String] = []
        var rest = Substring(path)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = String(rest[rest.index(after: open)..<close].prefix { $0 != "=" })
            if !name.isEmpty, !names.contains(name) { names.append(name) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    private static func parameter(_ name: String, in location: String, required: Bool, schema: JSONValue, doc: ParameterInfo?,
                                  style: ParameterStyle? = nil) -> JSONValue {
        var members = [JSONMember(key: "name", value: .string(name)), JSONMember(key: "in", value: .string(location))]
        if let description = doc?.description, !description.isEmpty { members.append(JSONMember(key: "description", value: .string(description))) }
        if required { members.append(JSONMember(key: "required", value: .bool(true))) }
        // A `style` line's name as OpenAPI's, for a list or an object (`json`, a content parameter, is left as form).
        let style = ["array", "object"].contains(schema["type"]?.string ?? "") ? style : nil
        let openAPIStyle: String? = switch style {
        case .pipes: "pipeDelimited"
        case .spaces: "spaceDelimited"
        case .deepObject: "deepObject"
        default: nil
        }
        if let openAPIStyle { members.append(JSONMember(key: "style", value: .string(openAPIStyle))) }
        if style == .comma || style == .pipes || style == .spaces || (style == nil && doc?.type.contains("comma-separated") == true) {
            members.append(JSONMember(key: "explode", value: .bool(false)))
        } else if style == .deepObject {
            members.append(JSONMember(key: "explode", value: .bool(true)))
        }
        members.append(JSONMember(key: "schema", value: schema))
        return .object(members)
    }

    /// A schema from what help knows (type, enum) and the declared default.
    private static func schema(for value: ParameterValue?, doc: ParameterInfo?) -> JSONValue {
        var members: [JSONMember] = []
        var type = doc?.type.split(separator: " ").first.map(String.init) ?? ""
        var defaultValue: JSONValue?
        switch value {
        case .json(let raw)?:
            defaultValue = try? JSONValue.parse(raw)
        case .text(let text)?:
            defaultValue = .string(text)
        case .file?:
            type = "string"
            members.append(JSONMember(key: "format", value: .string("binary")))
        case nil:
            break
        }
        if type == "file" {
            type = "string"
            members.append(JSONMember(key: "format", value: .string("binary")))
        }
        if !SchemaFacts.jsonTypes.contains(type) {
            type = switch defaultValue {
            case .number?: "number"
            case .bool?: "boolean"
            case .array?: "array"
            case .object?: "object"
            default: "string"
            }
        }
        // `hourly=a,b` for a comma-separated (explode false) list.
        if type == "array", case .string(let text)? = defaultValue {
            defaultValue = .array(text.split(separator: ",", omittingEmptySubsequences: false).map { .string(String($0)) })
        }
        members.insert(JSONMember(key: "type", value: .string(type)), at: 0)
        if type == "array" { members.append(JSONMember(key: "items", value: .object([]))) }
        if let values = doc?.enumValues, !values.isEmpty, type == "string" {
            members.append(JSONMember(key: "enum", value: .array(values.map(JSONValue.string))))
        }
        if let defaultValue { members.append(JSONMember(key: "default", value: defaultValue)) }
        return .object(members)
    }

    private static func requestBody(_ target: Target, doc: (String) -> ParameterInfo?, credentials: inout [String]) -> JSONValue? {
        let mediaType: String
        switch target.task.bodyTask {
        case .json: mediaType = target.headers.last { $0.name.lowercased() == "content-type" }?.value ?? "application/json"
        case .form: mediaType = "application/x-www-form-urlencoded"
        case .multipart: mediaType = "multipart/form-data"
        case .data(_, let contentType):
            let type = contentType ?? target.headers.last { $0.name.lowercased() == "content-type" }?.value ?? "application/octet-stream"
            return .object([JSONMember(key: "content", value: .object([JSONMember(key: type, value: .object([]))]))])
        default: return nil
        }
        let fields = target.task.bodyParameters
        var properties: [JSONMember] = []
        var requiredNames = fields.filter(\.isRequired).map(\.name)
        for field in fields where !properties.contains(where: { $0.key == field.name }) {
            let credential = isCredential(field.name, value: field.defaultValue)
            if credential {
                credentials.append("body \(field.name)")
                requiredNames.append(field.name)
            }
            properties.append(JSONMember(key: field.name, value: schema(for: credential ? nil : field.defaultValue, doc: doc(field.name))))
        }
        var schema: [JSONMember] = [JSONMember(key: "type", value: .string("object")), JSONMember(key: "properties", value: .object(properties))]
        let required = requiredNames.map(JSONValue.string)
        if !required.isEmpty { schema.append(JSONMember(key: "required", value: .array(required))) }
        return .object([
            // A declared body is sent on every call, but for `json?`'s (sent when a call gives a field).
            JSONMember(key: "required", value: .bool(!target.bodyIsOptional)),
            JSONMember(key: "content", value: .object([JSONMember(key: mediaType, value: .object([JSONMember(key: "schema", value: .object(schema))]))])),
        ])
    }

    /// The imported document's answers (schemas kept), else one per sample and success status;
    /// each sample is its status's example.
    private static func responses(_ entry: Entry) -> JSONValue {
        let target = entry.target
        var responses: [JSONMember] = []
        if let imported = entry.operation?.responses {
            for response in imported {
                let sample = Int(response.status).flatMap { code in target.samples.first { $0.status == code } }
                let content = response.content.map { media -> JSONMember in
                    var members: [JSONMember] = []
                    if let schema = media.schema { members.append(JSONMember(key: "schema", value: rewriteRefs(schema))) }
                    if let sample, let example = try? JSONValue.parse(sample.body), media.mediaType.lowercased().contains("json") {
                        members.append(JSONMember(key: "example", value: example))
                    }
                    return JSONMember(key: media.mediaType, value: .object(members))
                }
                var members = [JSONMember(key: "description", value: .string(response.description.isEmpty ? "answer" : response.description))]
                if !content.isEmpty { members.append(JSONMember(key: "content", value: .object(content))) }
                responses.append(JSONMember(key: response.status, value: .object(members)))
            }
        }
        for sample in target.samples where !responses.contains(where: { $0.key == String(sample.status) }) {
            let mediaType = sample.effectiveContentType ?? "text/plain"
            let example: JSONValue = (try? JSONValue.parse(sample.body)) ?? .string(String(decoding: sample.body, as: UTF8.self))
            responses.append(JSONMember(key: String(sample.status), value: .object([
                JSONMember(key: "description", value: .string("sample")),
                JSONMember(key: "content", value: .object([JSONMember(key: mediaType, value: .object([JSONMember(key: "example", value: example)]))])),
            ])))
        }
        if case .customCodes(let codes) = target.validationType {
            for code in codes where !responses.contains(where: { $0.key == String(code) }) {
                responses.append(JSONMember(key: String(code), value: .object([JSONMember(key: "description", value: .string("success"))])))
            }
        }
        if responses.isEmpty { responses.append(JSONMember(key: "default", value: .object([JSONMember(key: "description", value: .string("answer"))]))) }
        return .object(responses)
    }
}
