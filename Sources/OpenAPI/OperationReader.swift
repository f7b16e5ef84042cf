import Foundation
import Checks
import Targets

/// Reads one operation of a document into a target declaration and what help shows of it
/// (LANGUAGE.md, "OpenAPI"). Whatever cannot be read is a warning at its pointer; the rest is kept.
struct OperationReader {
    let resolver: RefResolver
    let facts: SchemaFacts
    /// Checks the examples of answers and of their headers: `.response`, so a required
    /// `writeOnly` property may be absent.
    let validator: JSONSchemaValidator

    struct Input {
        var name: String
        var method: String
        var path: String
        /// The server's URL: an absolute one becomes `base`, a relative one's path goes before the path.
        var server: String?
        var operation: JSONValue
        var pathParameters: [(value: JSONValue, pointer: String)]
        var pointer: String
    }

    func read(_ input: Input) -> ImportedOperation {
        let operation = input.operation
        let pointer = input.pointer
        var lines: [String] = []
        let summary = operation["summary"]?.string ?? ""
        let description = operation["description"]?.string ?? ""
        let doc = summary.isEmpty ? String(description.split(separator: "\n").first ?? "") : summary
        if !doc.isEmpty { lines.append("doc " + DeclarationText.quoted(doc)) }

        var path = input.path
        if let server = input.server {
            let (base, prefix) = Self.split(server: server)
            if let base { lines.append("base " + DeclarationText.word(base)) }
            path = prefix + path
        }

        // Operation parameters replace path-item ones of the same name and place.
        var parameterValues: [(value: JSONValue, pointer: String)] = []
        if case .array(let list)? = operation["parameters"] {
            parameterValues = list.enumerated().map { ($0.element, pointer + "/parameters/\($0.offset)") }
        }
        var seen: Set<String> = []
        var parameters: [(value: JSONValue, pointer: String)] = []
        for entry in parameterValues + input.pathParameters {
            guard let (value, at) = resolver.resolve(entry.value, at: entry.pointer) else { continue }
            guard let name = value["name"]?.string, let location = value["in"]?.string else {
                resolver.warn(entry.pointer, "a parameter needs 'name' and 'in': left out")
                continue
            }
            guard seen.insert(location + "\u{0}" + name).inserted else { continue }
            parameters.append((value, at))
        }

        var infos: [ParameterInfo] = []
        var query: [String] = []
        var styles: [String] = []
        var headers: [String] = []
        for (parameter, at) in parameters {
            let name = parameter["name"]?.string ?? ""
            let location = parameter["in"]?.string ?? ""
            let schema = parameter["schema"] ?? Self.firstContentSchema(parameter)
            let required = parameter["required"] == .bool(true) || location == "path"
            let resolvedSchema = facts.resolved(schema, pointer: at + "/schema")
            let defaultValue = Self.sentDefault(resolvedSchema?.value)
            var info = ParameterInfo(name: name, location: ParameterInfo.Location(rawValue: location) ?? .query,
                                     description: parameter["description"]?.string ?? "", required: required,
                                     enumValues: facts.enumValues(schema, pointer: at + "/schema"),
                                     type: facts.typeText(schema, pointer: at + "/schema"),
                                     defaultValue: defaultValue.map(SchemaFacts.text), schema: schema)
            switch location {
            case "path":
                let clean = Self.templateName(name)
                if clean != name { path = path.replacingOccurrences(of: "{\(name)}", with: "{\(clean)}") }
                info.name = clean
                infos.append(info)
            case "query":
                let types = resolvedSchema.map { SchemaFacts.types($0.value) } ?? []
                let style = parameter["style"]?.string ?? "form"
                let explode = parameter["explode"].map { $0 == .bool(true) } ?? (style == "form")
                if parameter["schema"] == nil, case .object(let content)? = parameter["content"] {
                    // `content:` instead of `schema:`: one value, written in its media type (JSON text).
                    if let first = content.first, MediaType.isJSON(first.key.lowercased()) { styles.append(DeclarationText.word(name + "=json")) }
                    query.append(Self.parameterWord(name, default: defaultValue, required: required, explode: true))
                    infos.append(info)
                    continue
                }
                if types.contains("object"), style == "deepObject" || explode {
                    // Each property is a parameter of its own: `filter[color]` (deepObject) or `color` (form, exploded).
                    let (properties, requiredNames) = facts.properties(schema, pointer: at + "/schema")
                    if style == "deepObject" {
                        // The whole object too, `filter:='{"color":"red"}'`, written as `filter[color]=red`.
                        styles.append(DeclarationText.word(name + "=deepObject"))
                        query.append(Self.parameterWord(name, default: defaultValue, required: required && properties.isEmpty, explode: true))
                        infos.append(info)
                    }
                    for property in properties {
                        let key = style == "deepObject" ? "\(name)[\(property.name)]" : property.name
                        let propertyDefault = Self.sentDefault(facts.resolved(property.schema, pointer: property.pointer)?.value)
                        let isRequired = required && requiredNames.contains(property.name)
                        query.append(Self.parameterWord(key, default: propertyDefault, required: isRequired, explode: true))
                        infos.append(ParameterInfo(name: key, location: .query, description: info.description, required: isRequired,
                                                   enumValues: facts.enumValues(property.schema, pointer: property.pointer),
                                                   type: facts.typeText(property.schema, pointer: property.pointer),
                                                   defaultValue: propertyDefault.map(SchemaFacts.text), schema: property.schema))
                    }
                    continue
                }
                let listStyle: (name: String, separator: String, words: String)? = switch style {
                case "pipeDelimited": ("pipes", "|", "pipe-separated: a|b")
                case "spaceDelimited": ("spaces", " ", "space-separated: \"a b\"")
                default: explode ? nil : ("comma", ",", "comma-separated: a,b")
                }
                if let listStyle, types.contains("array") || types.contains("object") {
                    styles.append(DeclarationText.word(name + "=" + listStyle.name))
                    if types.contains("array") { info.type += (info.type.isEmpty ? "" : ", ") + listStyle.words }
                }
                query.append(Self.parameterWord(name, default: defaultValue, required: required, explode: listStyle == nil,
                                                separator: listStyle?.separator ?? ","))
                infos.append(info)
            case "header":
                // OpenAPI ignores these as parameters: wsh sets them.
                if ["accept", "content-type", "authorization"].contains(name.lowercased()) { continue }
                if let defaultValue {
                    // `simple` style, the only one for headers: `1,2,3`; an object `role,admin` (`role=admin` exploded).
                    let explode = parameter["explode"] == .bool(true)
                    headers.append(DeclarationText.word(name + ":" + Self.simpleText(defaultValue, explode: explode)))
                } else if required {
                    headers.append(DeclarationText.word(name))
                }
                infos.append(info)
            case "cookie":
                infos.append(info)
            default:
                resolver.warn(at + "/in", "parameter '\(name)' is in '\(location)', which is not path, query, header or cookie: left out")
            }
        }

        var bodyLines: [String] = []
        var requestBody: MediaSchema?
        var requestBodyRequired = false
        var bodyInfos: [ParameterInfo] = []
        var wholeBody: WholeBody?
        if let body = operation["requestBody"], let (resolvedBody, at) = resolver.resolve(body, at: pointer + "/requestBody") {
            (bodyLines, requestBody, wholeBody) = self.body(resolvedBody, pointer: at, infos: &bodyInfos, styles: &styles)
            requestBodyRequired = resolvedBody["required"] == .bool(true)
        }
        // A path parameter named as a body field is `path_NAME` in the path, so that a call gives each its own value.
        let bodyNames = Set(bodyInfos.map(\.name))
        for index in infos.indices where infos[index].location == .path && bodyNames.contains(infos[index].name) {
            let renamed = "path_" + infos[index].name
            path = path.replacingOccurrences(of: "{\(infos[index].name)}", with: "{\(renamed)}")
            infos[index].name = renamed
        }
        infos += bodyInfos
        // A path parameter's default, `{id=7}`, fills it when a call gives none.
        var declaredPath = path
        for info in infos where info.location == .path {
            guard let value = info.defaultValue, !value.contains("}") else { continue }
            declaredPath = declaredPath.replacingOccurrences(of: "{\(info.name)}", with: "{\(info.name)=\(value)}")
        }

        lines.append("path " + DeclarationText.path(declaredPath.isEmpty ? "/" : declaredPath))
        // A body with no method is a POST: a GET with one says so.
        if input.method != "GET" || !bodyLines.isEmpty { lines.append("method " + input.method) }
        if !query.isEmpty { lines.append("query " + query.joined(separator: " ")) }
        for header in headers { lines.append("header " + header) }
        lines += bodyLines
        if !styles.isEmpty { lines.append("style " + styles.joined(separator: " ")) }

        let (responses, samples, validate) = self.responses(operation["responses"], pointer: pointer + "/responses")
        lines += samples
        lines.append("validate " + validate)
        let text = "target \(input.name) {\n" + lines.map { "  " + $0 }.joined(separator: "\n") + "\n}"
        return ImportedOperation(name: input.name, declaration: text, method: input.method, path: path, summary: summary,
                                 description: description, parameters: infos, responses: responses, pointer: pointer,
                                 requestBody: requestBody, requestBodyRequired: requestBodyRequired, wholeBody: wholeBody)
    }

    // MARK: - Parameters

    /// `key` (required), `key=value` or `key:=JSON` (a default), `key?` (optional).
    static func parameterWord(_ name: String, default value: JSONValue?, required: Bool, explode: Bool,
                              separator: String = ",") -> String {
        guard let value else { return DeclarationText.word(required ? name : name + "?") }
        switch value {
        case .string(let text): return DeclarationText.word(name + "=" + text)
        case .array(let elements) where !explode:
            return DeclarationText.word(name + "=" + elements.map(SchemaFacts.text).joined(separator: separator))
        default: return DeclarationText.word(name + ":=" + value.compactText)
        }
    }

    /// A header's value in OpenAPI's `simple` style: a list `1,2,3`, an object `role,admin,first,Alex`
    /// (`role=admin,first=Alex` when exploded), anything else as text.
    static func simpleText(_ value: JSONValue, explode: Bool) -> String {
        switch value {
        case .array(let elements): return elements.map(SchemaFacts.text).joined(separator: ",")
        case .object(let members):
            return members.map { explode ? $0.key + "=" + SchemaFacts.text($0.value) : $0.key + "," + SchemaFacts.text($0.value) }
                .joined(separator: ",")
        default: return SchemaFacts.text(value)
        }
    }

    /// The schema's `default`, which a call sends when it gives no value; `default: null` (YAML's
    /// `~`) is none, so that the text `null` is not sent on every call.
    static func sentDefault(_ schema: JSONValue?) -> JSONValue? {
        guard let value = schema?["default"], value != .null else { return nil }
        return value
    }

    /// A name a `{name}` path template can hold: letters, digits, `_` and `-`.
    static func templateName(_ name: String) -> String {
        let cleaned = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "_" })
        guard let first = cleaned.first, first.isLetter || first == "_" else { return "p" + cleaned }
        return cleaned
    }

    private static func firstContentSchema(_ parameter: JSONValue) -> JSONValue? {
        guard case .object(let members)? = parameter["content"] else { return nil }
        return members.first?.value["schema"]
    }

    /// `https://api.example.com/v1` as base `https://api.example.com/v1` and no prefix; `/v1` as no
    /// base (`set base` gives the host) and the prefix `/v1`.
    static func split(server: String) -> (base: String?, prefix: String) {
        var url = server
        while url.hasSuffix("/") { url.removeLast() }
        if url.contains("://") { return (url, "") }
        if url.hasPrefix("//") { return ("https:" + url, "") }
        return (nil, url.isEmpty || url.hasPrefix("/") ? url : "/" + url)
    }

    // MARK: - Body

    /// The body as `json`, `form` or `multipart` fields (its top-level properties), and a
    /// Content-Type header for a JSON type other than application/json; with the media type and
    /// schema chosen; and, for a required body with no field (a string, a list, a map, a file),
    /// what a call gives whole.
    private func body(_ requestBody: JSONValue, pointer: String, infos: inout [ParameterInfo],
                      styles: inout [String]) -> ([String], MediaSchema?, WholeBody?) {
        guard case .object(let content)? = requestBody["content"], !content.isEmpty else { return ([], nil, nil) }
        let bodyRequired = requestBody["required"] == .bool(true)
        let types = content.map { $0.key.lowercased() }
        let chosen: (field: String, index: Int)? = if let index = types.firstIndex(where: MediaType.isJSON) {
            ("json", index)
        } else if let index = types.firstIndex(where: { $0.hasPrefix("application/x-www-form-urlencoded") }) {
            ("form", index)
        } else if let index = types.firstIndex(where: { $0.hasPrefix("multipart/form-data") }) {
            ("multipart", index)
        } else {
            nil
        }
        guard let chosen else {
            // Another media type: the body is given whole at the call (`call NAME @file`).
            return (["header " + DeclarationText.word("Content-Type:" + content[0].key)], nil,
                    bodyRequired ? WholeBody(mediaType: content[0].key, type: "", example: nil) : nil)
        }
        let media = content[chosen.index]
        let at = JSONPointer.appending(pointer + "/content", media.key) + "/schema"
        let (properties, requiredNames) = facts.properties(media.value["schema"], pointer: at)
        var words: [String] = []
        for property in properties {
            let resolved = facts.resolved(property.schema, pointer: property.pointer)
            if resolved?.value["readOnly"] == .bool(true) { continue }
            let isRequired = bodyRequired && requiredNames.contains(property.name)
            let defaultValue = Self.sentDefault(resolved?.value)
            let isFile = chosen.field == "multipart" && (resolved?.value["format"]?.string == "binary" || resolved?.value["contentEncoding"] != nil)
            if chosen.field == "form", let style = Self.formStyle(media.value["encoding"]?[property.name]) {
                styles.append(DeclarationText.word(property.name + "=" + style))
            }
            words.append(isFile ? DeclarationText.word(isRequired ? property.name : property.name + "?")
                                : Self.parameterWord(property.name, default: defaultValue, required: isRequired, explode: true))
            infos.append(ParameterInfo(name: property.name, location: .body,
                                       description: resolved?.value["description"]?.string ?? "", required: isRequired,
                                       enumValues: facts.enumValues(property.schema, pointer: property.pointer),
                                       type: isFile ? "file" : facts.typeText(property.schema, pointer: property.pointer),
                                       defaultValue: defaultValue.map(SchemaFacts.text), schema: property.schema))
        }
        var lines: [String] = []
        if chosen.field == "json", media.key.lowercased() != "application/json" {
            lines.append("header " + DeclarationText.word("Content-Type:" + media.key))
        }
        // A body that is not required is sent only when a call gives one of its fields.
        if !words.isEmpty { lines.append(chosen.field + (bodyRequired ? " " : "? ") + words.joined(separator: " ")) }
        // A required JSON body with no field (tic-tac-toe's string mark, a list, a map): a call
        // gives it whole with its Content-Type; no data is made up to send in its place.
        var wholeBody: WholeBody?
        if chosen.field == "json", bodyRequired, words.isEmpty {
            if media.key.lowercased() == "application/json" { lines.append("header " + DeclarationText.word("Content-Type:" + media.key)) }
            wholeBody = WholeBody(mediaType: media.key, type: facts.typeText(media.value["schema"], pointer: at),
                                  example: documentedSample(media.value, mediaType: media.key, pointer: at)?.compactText)
        }
        return (lines, media.value["schema"].map { MediaSchema(mediaType: media.key, schema: $0, pointer: at) }, wholeBody)
    }

    /// The value the document gives for a body (its schema at `pointer`): the media's example, else
    /// the schema's `default`, `const` or first `enum` value; nil when it gives none.
    private func documentedSample(_ media: JSONValue, mediaType: String, pointer: String) -> JSONValue? {
        if let example = example(media, mediaType: mediaType, pointer: String(pointer.dropLast("/schema".count))) { return example }
        guard let (schema, _) = facts.resolved(media["schema"], pointer: pointer) else { return nil }
        if let given = schema["default"] ?? schema["const"] { return given }
        if case .array(let values)? = schema["enum"], let first = values.first { return first }
        return nil
    }

    /// A url-encoded form field's `encoding` as a `style` (`deepObject` for Stripe's `metadata[k]=v`
    /// and `expand[]=x`); nil for the default, the key repeated for a list.
    static func formStyle(_ encoding: JSONValue?) -> String? {
        guard let encoding else { return nil }
        switch encoding["style"]?.string ?? "form" {
        case "deepObject": return "deepObject"
        case "pipeDelimited": return "pipes"
        case "spaceDelimited": return "spaces"
        default: return encoding["explode"] == .bool(false) ? "comma" : nil
        }
    }

    // MARK: - Responses

    /// Each response's schemas; a `sample` per numeric status from its example; the `validate`
    /// value from the success statuses.
    private func responses(_ value: JSONValue?, pointer: String) -> ([ResponseInfo], [String], String) {
        let (infos, samples, validate) = responseParts(value, pointer: pointer)
        return (infos, samples, validate)
    }

    private func responseParts(_ value: JSONValue?, pointer: String) -> ([ResponseInfo], [String], String) {
        guard case .object(let members)? = value else { return ([], [], "2xx") }
        var infos: [ResponseInfo] = []
        var samples: [(code: Int, text: String)] = []
        var success: [Int] = []
        var successRange = false
        for member in members {
            let at = JSONPointer.appending(pointer, member.key)
            let status = member.key.lowercased() == "default" ? "default" : member.key.uppercased()
            if let code = Int(status), (200...299).contains(code) { success.append(code) }
            if status == "2XX" { successRange = true }
            guard let (response, responsePointer) = resolver.resolve(member.value, at: at) else {
                infos.append(ResponseInfo(status: status, description: "", content: []))
                continue
            }
            var contents: [MediaSchema] = []
            var sample: String?
            if case .object(let content)? = response["content"] {
                for media in content {
                    let mediaPointer = JSONPointer.appending(responsePointer + "/content", media.key)
                    let example = example(media.value, mediaType: media.key, pointer: mediaPointer)
                    if let schema = media.value["schema"] { warnShapeProblems(schema, at: mediaPointer + "/schema") }
                    contents.append(MediaSchema(mediaType: media.key, schema: media.value["schema"], pointer: mediaPointer + "/schema",
                                                example: example))
                    if sample == nil, let code = Int(status), (100...599).contains(code), let example {
                        let text = MediaType.isJSON(media.key) ? example.compactText : example.string ?? example.compactText
                        sample = "sample " + DeclarationText.literal(text) + (code == 200 ? "" : " status \(code)")
                    }
                }
            }
            // A success without a body (204) is answered empty, so a stub and `wsh serve` answer it too.
            if sample == nil, response["content"] == nil, let code = Int(status), (200...299).contains(code) {
                sample = "sample \"\"" + (code == 200 ? "" : " status \(code)")
            }
            if let sample, let code = Int(status) { samples.append((code, sample)) }
            infos.append(ResponseInfo(status: status, description: response["description"]?.string ?? "", content: contents,
                                      headers: headers(response["headers"], pointer: responsePointer + "/headers")))
        }
        // The lowest success status first: the first sample is the one a stub answers by default.
        let ordered = samples.enumerated().sorted { Self.sampleRank($0) < Self.sampleRank($1) }.map { $0.element.text }
        let validate = success.isEmpty || successRange ? "2xx" : success.map(String.init).joined(separator: ",")
        return (infos, ordered, validate)
    }

    /// Success statuses first, lowest first; then the others in the document's order.
    private static func sampleRank(_ entry: (offset: Int, element: (code: Int, text: String))) -> (Int, Int) {
        (200...299).contains(entry.element.code) ? (0, entry.element.code) : (1, entry.offset)
    }

    /// An answer's declared headers, each resolved, with its schema and example.
    private func headers(_ value: JSONValue?, pointer: String) -> [HeaderInfo] {
        guard case .object(let members)? = value else { return [] }
        return members.compactMap { member in
            guard let (header, at) = resolver.resolve(member.value, at: JSONPointer.appending(pointer, member.key)) else { return nil }
            let schema = header["schema"] ?? Self.firstContentSchema(header)
            var example = header["example"]
            if example == nil, case .object(let examples)? = header["examples"], let first = examples.first {
                example = resolver.resolve(first.value, at: JSONPointer.appending(at + "/examples", first.key))?.0["value"]
            }
            if example == nil { example = facts.resolved(schema, pointer: at + "/schema")?.value["example"] }
            if let given = example, let schema, !validator.violations(of: given, against: schema, at: at + "/schema").isEmpty { example = nil }
            return HeaderInfo(name: member.key, required: header["required"] == .bool(true), schema: schema, example: example)
        }
    }

    /// A warning per keyword of a response schema (or a schema it refers to) that `expect schema`
    /// cannot read: it refuses to check against such a schema (the unknown types were warned of
    /// already); a key close to a keyword's name may be an annotation, and is not checked.
    private func warnShapeProblems(_ schema: JSONValue, at pointer: String) {
        // Unknown types were warned of already, and so were broken refs (``RefResolver``).
        for problem in JSONSchemaValidator.shapeProblems(of: schema, at: pointer, in: resolver.root)
        where problem.kind != .unknownType && problem.kind != .brokenRef {
            let consequence = problem.kind == .nearMissKeyword ? ": not checked" : ": expect schema refuses to check against it"
            resolver.warn(problem.place, problem.message + consequence)
        }
    }

    /// The media type's example: `example`, else the first of `examples`, else the schema's; nil
    /// when there is none, or when it does not match the schema (warned).

    private func example(_ media: JSONValue, mediaType: String, pointer: String) -> JSONValue? {
        var candidate: (value: JSONValue, pointer: String)?
        if let example = media["example"] {
            candidate = (example, pointer + "/example")
        } else if case .object(let examples)? = media["examples"], let first = examples.first {
            let at = JSONPointer.appending(pointer + "/examples", first.key)
            if let (resolved, resolvedAt) = resolver.resolve(first.value, at: at), let value = resolved["value"] {
                candidate = (value, resolvedAt + "/value")
            }
        } else if let (schema, schemaAt) = facts.resolved(media["schema"], pointer: pointer + "/schema") {
            if let example = schema["example"] {
                candidate = (example, schemaAt + "/example")
            } else if case .array(let list)? = schema["examples"], let first = list.first {
                candidate = (first, schemaAt + "/examples/0")
            }
        }
        guard let candidate else { return nil }
        let isJSON = MediaType.isJSON(mediaType)
        if isJSON, let schema = media["schema"] {
            let violations = validator.violations(of: candidate.value, against: schema, at: pointer + "/schema")
            if let first = violations.first {
                resolver.warn(candidate.pointer, "example does not match its schema (\(first.description)): not used as a sample")
                return nil
            }
        }
        return candidate.value
    }
}
