import Foundation

extension Run {
    /// `use http FILE.http [as PREFIX]`: declares a target per request of the file, to call with
    /// `call NAME` (`PREFIX.NAME`), and sets its file variables (a `--var` of the same name wins).
    /// A `{{name}}` is the wsh variable `$name` when the call is made; `{{$uuid}}` and
    /// `{{$timestamp}}` are wsh's own. A request with what is computed only while the file runs
    /// (an answer's value, `$randomInt`, the environment) is not declared, with a warning at it.
    func useHTTPFile(_ arguments: [Word]) throws {
        let pathWord = arguments[1]
        let prefix = try namePrefix(arguments.count == 4 ? arguments[3] : nil).map { $0 + "." } ?? ""
        let path = resolvePath(try expand(pathWord).text)
        if path.lowercased().hasSuffix(".json") {
            throw failure("\(Self.displayPath(path)) is JSON, not a .http file", at: pathWord.span,
                          notes: ["a Postman collection is read with: use postman \(Self.displayPath(path))"])
        }
        let file = try readSourceFile(path, at: pathWord.span)
        session.requestsFileDirectory = file.directory
        let parsed: HTTPFile
        do {
            parsed = try HTTPFileParser.parse(file.text)
        } catch {
            throw Diagnostic(.parse, error.message, file: file, span: SourceSpan(error.span), notes: error.notes)
        }
        let previous = currentFile
        currentFile = file
        defer { currentFile = previous }
        var running = HTTPFileRun(file: file, names: HTTPFileRun.targetNames(parsed.requests), items: parsed.items)
        var variables = HTTPFileVariables(file: file, items: parsed.items)
        setFileVariables(&variables, noting: true)
        session.httpFileVariables.removeAll { $0.file.name == file.name }
        session.httpFileVariables.append(variables)
        for item in parsed.items {
            switch item {
            case .variable:
                continue
            case .request(var request):
                let name = prefix + running.names[running.requestIndex]
                running.requestIndex += 1
                for index in request.headers.indices {
                    let header = request.headers[index]
                    guard case .text(let text)? = header.value.parts.first, header.name.lowercased() == "authorization" else { continue }
                    if header.value.parts.count == 1, let basic = HTTPFileTarget.basicAuthorization(header, text: text) {
                        request.headers[index].value = HTTPTemplate(parts: [.text(basic)])
                    } else if HTTPFileTarget.isBasic(text), header.value.parts.count > 1 {
                        // REST Client encodes the pair when it sends it; a target holds no step that would.
                        throw failure("'Basic' with variables is encoded when the file runs, so 'use http' cannot make it part of a target",
                                      at: SourceSpan(header.span), notes: ["run the file (wsh \(file.name)), or in a .wsh file: plugin auth basic USER:PASS host HOST"])
                    }
                }
                var refused: [HTTPExpression] = []
                let declaration: String
                do {
                    declaration = try HTTPFileTarget.declaration(request, name: name, directory: file.directory) { expression in
                        switch expression {
                        case .variable(let name) where Self.isVariableName(name): return name
                        case .uuid: return "uuid"
                        case .timestamp: return "timestamp"
                        case .isoTimestamp: return "newDate"
                        default:
                            refused.append(expression)
                            return "_"
                        }
                    }
                } catch {
                    throw failure(error.message, at: SourceSpan(error.span), notes: error.notes)
                }
                if let expression = refused.first {
                    // The other requests are still declared, as `use openapi` declares what it can.
                    var expressions = request.url.expressions + request.headers.flatMap(\.value.expressions)
                    for case .text(let template) in request.body { expressions += template.expressions }
                    let place = file.location(of: (expressions.first { $0.expression == expression }?.span ?? request.span).lowerBound)
                    let why = if case .variable = expression {
                        "a target reads variables named with letters, digits and '_' only"
                    } else {
                        "it is computed when the file runs (wsh \(file.name) sends it)"
                    }
                    io.err("warning: \(file.name):\(place.line):\(place.column): '\(name)' not declared: \(mask(expression.written)) cannot be part of a target: \(why)\n")
                    continue
                }
                // An error when it is called names the request's line in the file, not one wsh wrote.
                let line = file.location(of: request.span.lowerBound).line
                try declareWritten(declaration, source: "<http \(file.name)>", place: "\(file.name):\(line), request '\(name)'")
            }
        }
    }

    /// Sets the file variables of a `use http` file that can be known before it runs. `noting`
    /// (on `use http`), one that cannot is a note; after `set env` (not `noting`), one the user set
    /// since is left as it is, and one that reads what is no longer set goes.
    func setFileVariables(_ variables: inout HTTPFileVariables, noting: Bool) {
        let previous = currentFile
        currentFile = variables.file
        defer { currentFile = previous }
        let name = variables.file.name
        var running = HTTPFileRun(file: variables.file, names: [], items: variables.items)
        for case .variable(let variable) in variables.items {
            guard Self.isVariableName(variable.name), !session.commandLineNames.contains(variable.name) else { continue }
            let setBefore = variables.set[variable.name]
            if !noting, let now = session.variables[variable.name], now.environmentFile == nil, now.value != setBefore { continue }
            // A value known only when the file runs (an answer, $randomInt, through other
            // variables too) is left for the user to set.
            guard variable.value.expressions.allSatisfy({ Self.isKnownBeforeRunning($0.expression) }) else {
                if noting { io.err("note: \(name): @\(variable.name) is known only while the file runs: set it (let \(variable.name) = ...) before a call that uses it\n") }
                continue
            }
            running.resolved = [:]
            do {
                let value = try value(of: .variable(variable.name), at: SourceSpan(variable.span), in: &running)
                setVariable(variable.name, value)
                variables.set[variable.name] = value.value
            } catch {
                // Most often a variable of an environment not chosen yet: `set env` sets it then.
                if setBefore != nil {
                    setVariable(variable.name, nil)
                    variables.set[variable.name] = nil
                }
                if noting {
                    let why = (error as? Diagnostic).map { $0.masked(mask).message } ?? "it reads what is not set"
                    io.err("note: \(name): @\(variable.name) is not set yet (\(why)): set env NAME sets it from an environment "
                           + "that gives what it reads; or set it, let \(variable.name) = ...\n")
                }
            }
        }
    }

    /// After `set env`: the file variables of each `use http` file, from the environment now chosen.
    func setFileVariablesAgain() {
        for index in session.httpFileVariables.indices {
            setFileVariables(&session.httpFileVariables[index], noting: false)
        }
    }

    /// Whether `use http` can give an expression in a file variable its value when it reads the file.
    private static func isKnownBeforeRunning(_ expression: HTTPExpression) -> Bool {
        switch expression {
        case .variable, .uuid, .timestamp, .isoTimestamp, .date, .processEnv, .dotenv: true
        case .percentEncoded(let inner): isKnownBeforeRunning(inner)
        case .randomInt, .responseBody, .responseHeader, .requestBody, .requestHeader: false
        }
    }

    /// A name `${name}` reads whole.
    nonisolated static func isVariableName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.enumerated().allSatisfy { Lexer.isNameByte($1, first: $0 == 0) }
    }
}

/// A `use http` file's variables (`@base = {{host}}/api`): `set env` sets them again from the
/// environment it chooses, as the JetBrains client reads them again when the environment changes.
struct HTTPFileVariables {
    var file: SourceFile
    var items: [HTTPFile.Item]
    /// Each variable's value as it was set from the file, so that one the user set since is kept.
    var set: [String: String] = [:]
}
