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
        let text = String(decoding: try readFile(path, at: pathWord.span), as: UTF8.self)
        let file = SourceFile(name: Self.displayPath(path), directory: Self.directory(of: path), text: text)
        session.requestsFileDirectory = file.directory
        let parsed: HTTPFile
        do {
            parsed = try HTTPFileParser.parse(file.text(0..<Int.max))
        } catch {
            throw Diagnostic(.parse, error.message, file: file, span: SourceSpan(error.span), notes: error.notes)
        }
        let previous = currentFile
        currentFile = file
        defer { currentFile = previous }
        var running = HTTPFileRun(file: file, names: HTTPFileRun.targetNames(parsed.requests), items: parsed.items)
        for item in parsed.items {
            switch item {
            case .variable(let variable):
                guard Self.isVariableName(variable.name), !session.commandLineNames.contains(variable.name) else { continue }
                // A value known only when the file runs (an answer, $randomInt, through other
                // variables too) is left for the user to set.
                running.resolved = [:]
                guard variable.value.expressions.allSatisfy({ Self.isKnownBeforeRunning($0.expression) }),
                      let value = try? value(of: .variable(variable.name), at: SourceSpan(variable.span), in: &running) else {
                    io.err("note: \(file.name): @\(variable.name) is known only while the file runs: set it (let \(variable.name) = ...) before a call that uses it\n")
                    continue
                }
                setVariable(variable.name, value)
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
                try declareWritten(declaration, source: "<http \(file.name)>")
            }
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
