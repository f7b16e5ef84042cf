import Foundation
import Targets

extension Run {
    /// `export http [TARGET...] [> FILE]`: the targets (all, in the order they were declared, when
    /// none is named) as a `.http` file, each request as the target makes it (plugins such as
    /// `plugin auth` are the session's, not the target's, and are not written). A required
    /// parameter with no default is written `{{name}}`; a secret is never written: one from the
    /// environment is `{{$processEnv NAME}}`, any other `{{variable}}`, to give in
    /// http-client.private.env.json (a note says which).
    func exportHTTP(_ arguments: [Word], command: Word) async throws {
        var words = Array(arguments.dropFirst())
        let outputPath = try takeOutputFile(&words, usage: "usage: export http [TARGET...] [> FILE.http]")
        let declaredTargets = try words.isEmpty ? session.targets.all : words.map { try declaredTarget($0) }
        let (placeholders, unsourced) = secretPlaceholders()
        // The target's own request: no plugin's credential or cookie, none of wsh's client headers
        // (User-Agent, Accept, Accept-Encoding), which the tool that runs the file sends its own of.
        var exportProvider = provider()
        exportProvider.plugins = []
        exportProvider.defaultHeaders = []
        exportProvider.compress = false
        exportProvider.cookieJar = nil
        var blocks: [String] = []
        // The variables the targets read, with their values now (nil: not set), to write as the
        // file's `@name = value` lines; and the targets whose body ends in a line break.
        var readVariables: [String: Variable?] = [:]
        // Variables sent where a credential goes (`header Authorization:$h`, `query appid=$q`):
        // like a secret, never written as `@name = value`.
        var credentialPlaced: Set<String> = []
        var trailingBreaks: [String] = [], carriageReturns: [String] = []
        // The variables that stand for a secret as a JSON string holds it, escaped.
        var jsonEscaped: [String] = []
        // Named apart from the variables the file asks for already (a secret variable's, `{{id}}`...).
        var literalSecrets = LiteralSecretNames(taken: Set(unsourced + declaredTargets.flatMap { declared in
            declared.declaration.fields.flatMap { $0.arguments.flatMap(\.variableNames) }
        }))
        let openBrace = literalSecrets.freeName(HTTPFileWriter.openBrace)
        literalSecrets.taken.insert(openBrace)
        for declared in declaredTargets {
            // The variables the declaration reads stay variables: `$host` is written `{{host}}`,
            // `$uuid` `{{$uuid}}`, whether set now or not (compiled with a marker for each).
            var extra = placeholders
            var markers: [(name: String, saved: Variable?, token: String)] = []
            let names = Set(declared.declaration.fields.flatMap { $0.arguments.flatMap(\.variableNames) })
            let inBase = Set(declared.declaration.fields.filter { $0.name == "base" }.flatMap { $0.arguments.flatMap(\.variableNames) })
            for name in names.sorted() {
                let current = session.variables[name]
                if let current, current.isSecret { continue }  // written by secretPlaceholders, from its value
                // In a base URL the marker must be a URL itself; lowercase, as a host is written.
                let token = "wshexport" + UUID().uuidString.lowercased().filter { $0 != "-" }
                let marker = inBase.contains(name) ? "http://\(token).invalid" : token
                let written = ["uuid": "{{$uuid}}", "newUuid": "{{$uuid}}", "timestamp": "{{$timestamp}}", "newDate": "{{$isoTimestamp}}"][name]
                    ?? "{{\(name)}}"
                extra.append((marker, written))
                markers.append((name, current, token))
                if written == "{{\(name)}}" { readVariables[name] = .some(current) }
                session.variables[name] = Variable(value: marker, isSecret: false)
            }
            let compiled = Result { try compiledTarget(declared) }
            for (name, saved, _) in markers { session.variables[name] = saved }
            let target = try compiled.get()
            var values: [(name: String, value: ParameterValue)] = []
            for parameter in target.parameters where parameter.isRequired {
                let marker = "wsh-export-\(UUID().uuidString)"
                values.append((parameter.name, .text(marker)))
                extra.append((marker, "{{\(parameter.name)}}"))
            }
            // A header's name as a variable `--var` can set: X-Request-Id is {{X_Request_Id}}.
            let headers = target.requiredHeaders.map { name in
                let marker = "wsh-export-\(UUID().uuidString)"
                extra.append((marker, "{{\(name.replacingOccurrences(of: "-", with: "_"))}}"))
                return Header(name: name, value: marker)
            }
            var request: Request
            do {
                request = try await exportProvider.preparedRequest(target, arguments: CallArguments(values: values, headers: headers))
            } catch {
                throw failure("cannot write '\(declared.name)': \(mask(error.description))", at: command.span)
            }
            let sentSecrets = redaction.sentSecrets(of: request).map(\.value)
            for (name, _, token) in markers where sentSecrets.contains(where: { $0.contains(token) }) { credentialPlaced.insert(name) }
            // A multipart file part is `< PATH`, read when the file runs: its bytes as they are (the
            // body's own lines are joined with CRLF), not as they were when it was exported.
            let files = target.task.bodyParameters.compactMap { parameter -> String? in
                guard case .file(let written)? = parameter.defaultValue else { return nil }
                return FileReference(written).path
            }
            var checked = request.body
            if let body = request.body, !files.isEmpty,
               let type = request.headers.last(where: { $0.name.lowercased() == "content-type" })?.value {
                let directory = outputPath.map(Self.directory(of:)) ?? FileManager.default.currentDirectoryPath
                request.body = HTTPFileWriter.filePartsAsReferences(body, contentType: type, files: files.map { file in
                    let absolute = Self.path(file, relativeTo: FileManager.default.currentDirectoryPath)
                    return (absolute, absolute.hasPrefix(directory + "/") ? "./" + absolute.dropFirst(directory.count + 1) : absolute)
                })
                checked = HTTPFileWriter.filePartsAsReferences(body, contentType: type, files: files.map { file in
                    (Self.path(file, relativeTo: FileManager.default.currentDirectoryPath), nil)
                })
            }
            guard HTTPFileWriter.canWrite(checked) else {
                throw failure("'\(declared.name)' sends a body a .http file cannot hold as text (binary, or with lines it reads as ###, < or >)",
                              at: command.span)
            }
            // A .http body ends at its last line that is not blank: a line break after it is not sent;
            // its lines are joined by \n (a multipart body's by \r\n).
            let isMultipart = request.headers.last(where: { $0.name.lowercased() == "content-type" })?.value.lowercased().hasPrefix("multipart/") == true
            if let body = request.body, !isMultipart {
                let isBreak = { (byte: UInt8) in byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }
                if let last = body.last, isBreak(last) { trailingBreaks.append(declared.name) }
                if body.reversed().drop(while: isBreak).contains(UInt8(ascii: "\r")) { carriageReturns.append(declared.name) }
            }
            let redirects = target.redirectLimit ?? options.follow
            func written(escapingBraces: Bool = true, mask: (String) -> String = { $0 }) -> String {
                HTTPFileWriter.request(name: declared.name, summary: target.doc.isEmpty ? nil : target.doc, request: request,
                                       followsRedirects: redirects > 0, placeholders: extra, openBrace: openBrace, escapingBraces: escapingBraces,
                                       mask: mask)
            }
            // Secrets written literally (`query appid=...`, a Postman collection's credential) are
            // variables too, named for where they are sent; one that holds another (`user:password`)
            // leaves the part that is not secret as it is.
            let text = written(escapingBraces: false)
            let literals = (redaction.sentSecrets(of: request) + session.mask.values.map { (Self.placeName(of: $0, in: request), $0) }).filter { literal in
                literal.value.count >= SecretForms.minimumLength && !extra.contains { $0.value == literal.value }
                    && (text.contains(literal.value) || text.contains(PercentEncoding.encode(literal.value)))
            }
            for (name, value) in literals where !literals.contains(where: { $0.value.count < value.count && value.contains($0.value) }) {
                extra.append((value, "{{\(literalSecrets.name(for: value, sentAs: name))}}"))
            }
            // A secret inside a JSON string is sent escaped (`abc\"def`), which neither its variable
            // (the file would send `abc"def`, breaking the JSON) nor `***` stands for: the file
            // asks for the escaped form as a variable of its own, `{{k1_json}}`.
            for (value, written) in extra {
                let escaped = String(JSONValue.quoted(value).dropFirst().dropLast())
                guard escaped != value, text.contains(escaped) else { continue }
                let name = literalSecrets.name(for: escaped, sentAs: (written.dropFirst(2).dropLast(2).split(separator: " ").last ?? "secret") + "_json")
                extra.append((escaped, "{{\(name)}}"))
                if !jsonEscaped.contains(name) { jsonEscaped.append(name) }
            }
            extra.sort { $0.value.count > $1.value.count }
            blocks.append(written(mask: { self.mask($0) }))
        }
        var file = blocks.joined(separator: "\n")
        // A variable set now, not a secret nor an environment's, is the file's `@name = value`, so
        // that the file sends what the targets send; a value a `@name` line cannot hold is said.
        var defined: [String] = [], unwritable: [String] = [], fromEnvironment: [String] = [], unset: [String] = []
        var credentialsToGive: [String] = []
        for name in readVariables.keys.sorted() where file.contains("{{\(name)}}") {
            guard case .some(let current?) = readVariables[name] else {
                unset.append(name)
                continue
            }
            if current.environmentFile != nil {
                fromEnvironment.append(name)
            } else if credentialPlaced.contains(name) || LiteralCredentials.isTyped(name: name, value: current.value)
                        || mask(current.value) != current.value {
                // A credential typed as text, as `save` judges one, or a value that holds a secret
                // (one read from a login's answer): the file's user gives it.
                credentialsToGive.append(name)
            } else if Self.fitsFileVariable(current.value) {
                defined.append("@\(name) = \(current.value)")
            } else {
                unwritable.append(name)
            }
        }
        let holdsBraces = file.contains("{{\(openBrace)}}")
        if holdsBraces { defined.append("@\(openBrace) = {") }
        if !defined.isEmpty { file = defined.joined(separator: "\n") + "\n\n" + file }
        // Masked already where it holds values (each request); its `@name = value` lines hold no secret.
        try writeOutput(file, to: outputPath, at: command.span)
        let toGive = unsourced.filter { file.contains("{{\($0)}}") } + credentialsToGive + literalSecrets.names.filter { file.contains("{{\($0)}}") }
        if !toGive.isEmpty {
            io.err("note: \(toGive.map { "{{\($0)}}" }.joined(separator: ", ")) \(toGive.count == 1 ? "stands for a secret" : "stand for secrets"): "
                   + "give \(toGive.count == 1 ? "it" : "them") in http-client.private.env.json\n")
        }
        func listed(_ names: [String]) -> String { names.map { "{{\($0)}}" }.joined(separator: ", ") }
        let escaped = jsonEscaped.filter { file.contains("{{\($0)}}") }
        if !escaped.isEmpty {
            io.err("note: \(listed(escaped)) \(escaped.count == 1 ? "is a secret" : "are secrets") inside a JSON string: give "
                   + "\(escaped.count == 1 ? "it" : "each") as the string holds it, escaped (\\\" for a quote, \\\\ for a backslash, \\t for a tab)\n")
        }
        if !fromEnvironment.isEmpty, let environment = session.environment?.name {
            io.err("note: \(listed(fromEnvironment)) \(fromEnvironment.count == 1 ? "comes" : "come") from the environment '\(environment)': run the file with --env \(environment)\n")
        }
        if !unset.isEmpty { io.err("note: \(listed(unset)) \(unset.count == 1 ? "is" : "are") not set: give \(unset.count == 1 ? "it" : "them") with --var NAME=VALUE or in an environment\n") }
        if !unwritable.isEmpty {
            io.err("note: \(listed(unwritable)) not written as @NAME = VALUE: a value of several lines, with {{, a \\ or blanks at its ends is not "
                   + "read back as it is; give them with --var NAME=VALUE\n")
        }
        if holdsBraces {
            io.err("note: a {{ the targets send is written {{\(openBrace)}}{, so that the file sends it as it is, not as a variable\n")
        }
        for name in carriageReturns {
            io.err("note: '\(name)': its body holds a carriage return (\\r), which a .http file cannot hold: the file sends its lines ended by \\n alone\n")
        }
        for name in trailingBreaks {
            io.err("note: '\(name)': its body ends in a line break, which a .http file cannot hold: the file sends the body without it\n")
        }
    }

    /// Whether `value` reads back whole from a `.http` file's `@name = value` line.
    private static func fitsFileVariable(_ value: String) -> Bool {
        !value.contains { $0 == "\n" || $0 == "\r" || $0 == "\\" } && !value.contains("{{") && value.trimmingBlanks == value
    }

    /// The name of the header or query item `request` sends `value` in (a collection's API key
    /// under `X-Client`), else `secret`.
    private static func placeName(of value: String, in request: Request) -> String {
        if let header = request.headers.first(where: { $0.value.contains(value) }) { return header.name }
        let query = request.url.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
        for pair in query.split(separator: "&") where pair.hasSuffix("=" + value) || pair.hasSuffix("=" + PercentEncoding.encode(value)) {
            return PercentEncoding.decode(pair.prefix { $0 != "=" })
        }
        return "secret"
    }

    /// Each secret variable's value and what a `.http` file writes for it, longest value first;
    /// and the names written as plain `{{variables}}`, which the file's user must give.
    private func secretPlaceholders() -> ([(value: String, written: String)], [String]) {
        var placeholders: [(value: String, written: String)] = []
        var unsourced: [String] = []
        for name in session.variables.names {
            // One too short to be masked anywhere (`DEBUG=1` of a .env) would stand for every `1` of the file.
            guard let variable = session.variables[name], variable.isSecret, variable.value.count >= SecretForms.minimumLength else { continue }
            if let environmentName = variable.environmentName, EnvironmentOverlay.value(environmentName) == variable.value {
                placeholders.append((variable.value, "{{$processEnv \(environmentName)}}"))
            } else {
                placeholders.append((variable.value, "{{\(name)}}"))
                unsourced.append(name)
            }
        }
        return (placeholders.sorted { $0.value.count > $1.value.count }, unsourced)
    }
}

/// Names for secrets written literally in targets, as the `{{variables}}` an exported `.http` file
/// asks for: the name each is sent under (`X-API-Key` as `X_API_Key`), one name a value.
struct LiteralSecretNames {
    private var byValue: [String: String] = [:]
    /// The names given, in order.
    private(set) var names: [String] = []
    /// Names the file uses for other values.
    var taken: Set<String>

    init(taken: Set<String>) {
        self.taken = taken
    }

    mutating func name(for value: String, sentAs sentName: String) -> String {
        if let name = byValue[value] { return name }
        let base = String(sentName.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        let name = freeName(base.isEmpty ? "secret" : base)
        byValue[value] = name
        names.append(name)
        return name
    }

    /// `base`, or `base_2`, `base_3`... the first that no name given or taken is.
    func freeName(_ base: String) -> String {
        var name = base
        var suffix = 2
        while names.contains(name) || taken.contains(name) {
            name = "\(base)_\(suffix)"
            suffix += 1
        }
        return name
    }
}

/// `export`: write targets in another tool's format
struct ExportCommand: ShellCommand {
    static let entry = CommandCatalog.Entry(name: "export", usage: "export http [TARGET...] [> FILE.http] | export locust [TARGET... | FILE.wsh] [> locustfile.py]",
                                            summary: "write targets as a .http file (JetBrains HTTP Client, VS Code REST Client), or a scenario as a locustfile")

    static func completions(after previous: [String], word: String, in session: CompletionSnapshot) -> [String]? {
        previous.count == 1 ? ["http", "locust"] : nil
    }

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        switch arguments.first?.bare {
        case "http": try await run.exportHTTP(arguments, command: command)
        case "locust": try await run.exportLocust(arguments, command: command)
        default: throw run.failure("usage: \(entry.usage)", at: arguments.first?.span ?? command.span)
        }
    }
}
