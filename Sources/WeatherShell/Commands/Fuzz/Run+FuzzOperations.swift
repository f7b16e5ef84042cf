import Checks
import Foundation
import Fuzzing
import OpenAPI
import Plugins
import Targets

/// A target as `fuzz` sends it: the compiled target, where it is sent, and what the fuzzer knows of it.
struct FuzzTarget {
    var target: Target
    /// The base URL calls go to.
    var base: String
    var operation: FuzzOperation
    /// Whether `call NAME` can say an input again: not when the declared path carries the query
    /// items the fuzzer sends as parameters (a .http file's URL).
    var callSaysInputs = true
    /// Body fields whose default holds a secret: sent as declared in every call, never generated.
    var fixedBodyFields: [Parameter] = []
}

extension Run {
    /// What the fuzzer knows of a target: its parameters with their schemas (its OpenAPI
    /// operation's, else guessed from the declared defaults), its body, and its answers (the
    /// operation's responses, else its samples' statuses and shapes).
    func fuzzTarget(_ declared: DeclaredTarget) throws -> FuzzTarget {
        let compiled = try compiledTarget(declared)
        let target = Self.queryItemsAsParameters(compiled)
        let base = target.baseURL.isEmpty ? options.base ?? "" : target.baseURL
        let query = target.task.queryParameters
        let bodyFields = target.task.bodyParameters
        let placed = Set((query + bodyFields).map(\.name))
        let pathNames = target.parameters.map(\.name).filter { !placed.contains($0) }
        let document = declared.openAPI?.operation
        func info(_ name: String, _ location: ParameterInfo.Location) -> ParameterInfo? {
            document?.parameters.first { $0.name == name && $0.location == location }
        }
        // A secret's value, or a credential typed as text (`appid=...`): sent as declared, never generated.
        func isSecret(_ value: ParameterValue?, named name: String) -> Bool {
            guard let value else { return false }
            return mask(value.text) != value.text || Redaction.isCredentialName(name)
        }
        var parameters: [FuzzOperation.Parameter] = []
        for name in pathNames {
            let schema = info(name, .path)?.schema ?? Self.pathSchema(name, samples: target.samples, last: name == pathNames.last)
            parameters.append(.init(name: name, location: .path, required: true, schema: schema, schemaIsGuess: info(name, .path)?.schema == nil))
        }
        for parameter in query {
            let documented = info(parameter.name, .query)?.schema
            parameters.append(.init(name: parameter.name, location: .query, required: info(parameter.name, .query)?.required ?? parameter.isRequired,
                                    schema: documented ?? FuzzOperation.schema(guessedFrom: parameter.defaultValue),
                                    fixed: isSecret(parameter.defaultValue, named: parameter.name), alwaysSent: parameter.defaultValue != nil, schemaIsGuess: documented == nil))
        }
        for header in target.requiredHeaders {
            parameters.append(.init(name: header, location: .header, required: true,
                                    schema: info(header, .header)?.schema ?? .object([JSONMember(key: "type", value: .string("string"))])))
        }
        var operation = FuzzOperation(name: target.name, method: target.method.rawValue, path: target.path, parameters: parameters,
                                      root: declared.openAPI?.schemas.root ?? .null, schemasAreContract: document != nil)
        switch target.task.bodyTask {
        case .json: operation.bodyKind = .json
        case .form: operation.bodyKind = .form
        case .multipart: operation.bodyKind = .multipart
        case .data(let data, _):
            // A JSON body written out (a .http file's, a curl command's): its fields fuzzed, typed by their values.
            if case .object? = try? JSONValue.parse(data), let body = try? JSONValue.parse(data) {
                operation.bodyKind = .json
                operation.bodySchema = FuzzOperation.shape(of: body, requiringKeys: true)
                operation.bodyRequired = true
            }
        default:
            // A JSON body with no fields to declare (an array, a string, a map of
            // additionalProperties): the operation's schema is the whole body's.
            if let body = document?.requestBody, body.schema != nil, MediaType.isJSON(body.mediaType) { operation.bodyKind = .json }
        }
        let fixedFields = bodyFields.filter { isSecret($0.defaultValue, named: $0.name) }
        if operation.bodyKind != nil, operation.bodySchema == nil {
            if let schema = document?.requestBody?.schema, fixedFields.isEmpty {
                operation.bodySchema = schema
                operation.bodyRequired = document?.requestBodyRequired ?? false
            } else {
                // The declared fields as an object's properties, each typed by its default; a
                // secret's field is left to its declared value (FuzzTarget.fixedBodyFields).
                let generated = bodyFields.filter { !isSecret($0.defaultValue, named: $0.name) }
                let properties = generated.map { JSONMember(key: $0.name, value: FuzzOperation.schema(guessedFrom: $0.defaultValue)) }
                let required = generated.filter(\.isRequired).map { JSONValue.string($0.name) }
                operation.bodySchemaIsContract = false
                operation.bodySchema = .object([JSONMember(key: "type", value: .string("object")),
                                                JSONMember(key: "properties", value: .object(properties)),
                                                JSONMember(key: "required", value: .array(required))])
                operation.bodyRequired = true
            }
            operation.bodyFieldsAlwaysSent = bodyFields.filter { $0.defaultValue != nil && !isSecret($0.defaultValue, named: $0.name) }.map(\.name)
        }
        if let document {
            operation.answers = document.responses.map { response in
                FuzzOperation.Answer(status: response.status, content: response.content.map { media in
                    .init(mediaType: media.mediaType,
                          schema: MediaType.isJSON(media.mediaType) || TextAnswerSchema.isText(media.mediaType) ? media.schema : nil)
                })
            }
        } else {
            operation.answers = target.samples.map { sample in
                let shape = (try? JSONValue.parse(sample.body)).map { FuzzOperation.shape(of: $0) }
                return FuzzOperation.Answer(status: String(sample.status), content: [.init(mediaType: "", schema: shape)])
            }
        }
        return FuzzTarget(target: target, base: base, operation: operation, callSaysInputs: !compiled.path.contains("?"), fixedBodyFields: fixedFields)
    }

    /// A path parameter's schema guessed from the samples: typed by the sample's member of that
    /// name, or its `id` for the path's last parameter (`/orders/{id}` answers `{"id": 7, ...}`);
    /// a string otherwise.
    static func pathSchema(_ name: String, samples: [Sample], last: Bool) -> JSONValue {
        for sample in samples where (200...299).contains(sample.status) {
            guard let body = try? JSONValue.parse(sample.body) else { continue }
            if let value = body[name] ?? (last ? body["id"] : nil), value.string != nil || value.double != nil {
                return FuzzOperation.schema(guessedFrom: .json(value.compactText))
            }
        }
        return .object([JSONMember(key: "type", value: .string("string"))])
    }

    /// A path's own query (`/search?q=hello`, as a .http file writes a URL) as query parameters
    /// with those values as defaults, so that they are fuzzed as declared ones are.
    static func queryItemsAsParameters(_ target: Target) -> Target {
        guard let mark = target.path.firstIndex(of: "?") else { return target }
        var target = target
        let items = target.path[target.path.index(after: mark)...].split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return Parameter(name: PercentEncoding.decode(parts[0]), defaultValue: .text(parts.count > 1 ? PercentEncoding.decode(parts[1]) : ""))
        }.filter { !$0.name.isEmpty }
        target.path = String(target.path[..<mark])
        target.task = switch target.task {
        case .plain: .query(items)
        case .query(let query): .query(items + query)
        case .composite(let query, let body): .composite(query: items + query, body: body)
        case let body: .composite(query: items, body: body)
        }
        return target
    }

    /// One fuzz call: the target with every parameter left to the input (a secret's default
    /// kept), no status validation and no retries, through the session's provider with its auth
    /// plugins only (no log line, spinner or retry per call). Each hop of a redirect goes to this
    /// machine or an `allowed` host, or is refused unsent, as `wsh load`'s are.
    /// `declared`, the credentials the targets declare, are masked in its curl reproducers.
    func fuzzCall(_ request: FuzzRequest, _ fuzzed: FuzzTarget, timeout: Duration, allowed: [String], declared: Redaction) async -> FuzzOutcome {
        var target = fuzzed.target
        var arguments = CallArguments()
        if let url = request.url {
            // A Location on another origin is not followed: the fuzz run was allowed this one only.
            guard let resolved = URL(string: url, relativeTo: URL(string: fuzzed.base))?.absoluteURL,
                  let base = URL(string: fuzzed.base), resolved.scheme == base.scheme, resolved.host == base.host, resolved.port == base.port else {
                return FuzzOutcome(notSent: "the Location \(redaction.maskedURL(url)) is on another origin than \(redaction.maskedURL(fuzzed.base))")
            }
            target = Target(name: target.name)
            target.baseURL = resolved.absoluteString
            target.path = ""
        } else {
            (target, arguments) = Self.wireRequest(request.input, for: fuzzed)
        }
        target.validationType = .none
        target.retryCount = 0
        target.timeout = timeout
        var provider = provider()
        provider.plugins = provider.plugins.filter { $0 is AuthPlugin }
        provider.stubBehavior = .never
        provider.transport = AllowedHostsTransport(allowed: allowed, action: "fuzz", next: provider.transport)
        do {
            let response = try await provider.request(target, arguments: arguments)
            return FuzzOutcome(status: response.status, headers: response.headers, body: Array(response.body), curl: curl(for: response.request, declared))
        } catch {
            if let response = error.response {
                return FuzzOutcome(status: response.status, headers: response.headers, body: Array(response.body), curl: curl(for: response.request, declared))
            }
            // An input wsh cannot make a request of (a path value that breaks the URL) was not sent.
            if error.step == .endpoint || error.step == .encoding { return FuzzOutcome(notSent: error.description(masking: redaction)) }
            // A hop refused as another host gets no curl command: it would send there what wsh would not.
            let command = error.request.flatMap { Self.refusedHost($0.url, allowed: allowed) == nil ? curl(for: $0, declared) : nil }
            return FuzzOutcome(failure: error.isCancelled ? "interrupted" : error.description(masking: redaction), curl: command)
        }
    }

    /// The target and arguments that send `input`: path, query and header values as given, a JSON
    /// body as one piece of JSON text (so a generated body may be any value), form and multipart
    /// fields each by name.
    static func wireRequest(_ input: FuzzCase, for fuzzed: FuzzTarget) -> (Target, CallArguments) {
        var target = fuzzed.target
        // The input says which headers are sent: a required one left out is a case to try.
        target.requiredHeaders = []
        let query = target.task.queryParameters.map { declared in
            fuzzed.operation.parameters.first { $0.name == declared.name && $0.fixed } != nil ? declared : Parameter(name: declared.name, isOptional: true)
        }
        var values: [(name: String, value: ParameterValue)] = []
        var headers: [Header] = []
        for value in input.parameters {
            let texts = FuzzCase.texts(value.value, in: value.location)
            switch value.location {
            case .path, .query: values += texts.map { (value.name, .text($0)) }
            case .header: headers.append(Header(name: value.name, value: texts.first ?? ""))
            }
        }
        var body: RawBody?
        var bodyTask: RequestTask?
        let contentType = target.headers.last { $0.name.lowercased() == "content-type" }?.value
        if let raw = input.rawBody {
            body = RawBody(data: Data(raw.utf8), contentType: contentType ?? "application/json")
        } else if let sent = input.body {
            switch fuzzed.operation.bodyKind {
            case .json?:
                var whole = sent
                if case .object(let members) = sent, !fuzzed.fixedBodyFields.isEmpty {
                    let fixed = fuzzed.fixedBodyFields.compactMap { field in
                        field.defaultValue.map { JSONMember(key: field.name, value: Self.jsonValue(of: $0)) }
                    }
                    whole = .object(members.filter { member in !fixed.contains { $0.key == member.key } } + fixed)
                }
                body = RawBody(data: Data(whole.compactText.utf8), contentType: contentType ?? "application/json")
            case .form?, .multipart?:
                let members: [JSONMember] = if case .object(let list) = sent { list } else { [] }
                var declaredFields = fuzzed.fixedBodyFields
                for member in members where !declaredFields.contains(where: { $0.name == member.key }) {
                    declaredFields.append(Parameter(name: member.key, isOptional: true))
                    values += FuzzCase.texts(member.value, in: .query).map { (member.key, .text($0)) }
                }
                bodyTask = fuzzed.operation.bodyKind == .form ? .form(declaredFields) : .multipart(declaredFields)
            case nil:
                break
            }
        }
        let bodyPart: RequestTask? = body != nil ? nil : bodyTask
        switch (query.isEmpty, bodyPart) {
        case (true, nil): target.task = .plain
        case (false, nil): target.task = .query(query)
        case (true, let task?): target.task = task
        case (false, let task?): target.task = .composite(query: query, body: task)
        }
        return (target, CallArguments(values: values, headers: headers, body: body))
    }

    /// A declared value as JSON: `key:=JSON` as it parses, anything else as a string.
    nonisolated static func jsonValue(of value: ParameterValue) -> JSONValue {
        if case .json(let text) = value, let parsed = try? JSONValue.parse(text) { return parsed }
        return .string(value.text)
    }

    /// The request as a curl command to run, secrets and the credentials the targets declare
    /// (`declared`) masked, or written as their environment variables. A value the fuzzer made up
    /// for a field named like a credential is no secret: the reproducer sends it as it was.
    func curl(for request: Request, _ declared: Redaction) -> String? {
        let masking = Redaction(secrets: redaction.secrets.adding(declared.secretValues))
        let printer = RequestCommandPrinter(tool: .curl, purpose: .run, redaction: masking, references: environmentReferences)
        return (try? printer.command(for: request))?.text
    }
}
