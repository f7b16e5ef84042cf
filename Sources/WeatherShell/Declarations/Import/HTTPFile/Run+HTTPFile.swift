import Checks
import Foundation
import Targets

extension Run {
    /// Runs a `.http` file (`wsh FILE.http`, `wsh test FILE.http`, `source FILE.http`): its file
    /// variables are set and its requests sent in file order, each declared as a target first
    /// (named by `# @name`, else by its `###` title, else `request-N`), so `call NAME` sends it
    /// again afterwards. An error points at the `.http` file's line and column.
    func runHTTPFile(_ file: SourceFile) async throws(Halt) {
        let text = file.text(0..<Int.max)
        let previous = currentFile
        currentFile = file
        defer { currentFile = previous }
        let parsed: HTTPFile
        do {
            parsed = try HTTPFileParser.parse(text)
        } catch {
            try report(Diagnostic(.parse, error.message, file: file, span: SourceSpan(error.span), notes: error.notes))
            return
        }
        var running = HTTPFileRun(file: file, names: HTTPFileRun.targetNames(parsed.requests), items: parsed.items)
        for case .request(let request) in parsed.items {
            try await runStep(at: SourceSpan(request.span)) { try await send(request, in: &running) }
        }
    }

    /// One request: its expressions resolved and set as variables for the call, its target
    /// declared, then called; its answer kept for `{{NAME.response...}}`.
    private func send(_ request: HTTPFile.Request, in running: inout HTTPFileRun) async throws {
        let name = running.names[running.requestIndex]
        running.requestIndex += 1
        var request = request
        for index in request.headers.indices {
            let header = request.headers[index]
            guard header.name.lowercased() == "authorization" else { continue }
            let value = try resolve(header.value, in: &running)
            if let basic = HTTPFileTarget.basicAuthorization(header, text: value.value) {
                request.headers[index].value = HTTPTemplate(parts: [.text(basic)])
                if value.isSecret { session.mask.add(String(basic.dropFirst(6))) }
            }
        }
        var values: [String: Variable] = [:]
        var expressions = (request.url.expressions + request.headers.flatMap(\.value.expressions))
        for case .text(let template) in request.body { expressions += template.expressions }
        for (expression, span) in expressions where values[running.variableName(expression)] == nil {
            values[running.variableName(expression)] = try value(of: expression, at: SourceSpan(span), in: &running)
        }
        let text: String
        do {
            text = try HTTPFileTarget.declaration(request, name: name, directory: currentFile.directory) { expression in
                running.variableName(expression)
            }
        } catch {
            throw failure(error.message, at: SourceSpan(error.span), notes: error.notes)
        }
        // Expressions in a file included with `<@` are known only now that it has been read.
        for name in Self.variableReferences(in: text) where values[name] == nil && name.hasPrefix(HTTPFileRun.prefix) {
            guard let expression = running.expression(named: name) else { continue }
            values[name] = try value(of: expression, at: SourceSpan(request.span), in: &running)
        }
        try declareWritten(text, source: "<http \(currentFile.name)>")
        for (name, value) in values { session.variables[name] = value }
        let cookies = options.cookies
        if request.noCookieJar { options.cookies = false }
        defer {
            options.cookies = cookies
            for name in values.keys { session.variables[name] = nil }
        }
        let span = SourceSpan(request.span)
        lastResponse = nil
        try await call(CallStatement(target: Word(parts: [WordPart(content: .literal(name), quoted: false, span: span)], span: span),
                                     arguments: [], output: nil))
        if let response = lastResponse {
            running.answers[name] = response
            if let given = request.name { running.answers[given] = response }
        }
    }

    /// `use http FILE.http [as PREFIX]`: declares a target per request of the file, to call with
    /// `call NAME` (`PREFIX.NAME`), and sets its file variables (a `--var` of the same name wins).
    /// A `{{name}}` is the wsh variable `$name` when the call is made; `{{$uuid}}` and
    /// `{{$timestamp}}` are wsh's own. What is known only while the file runs (an answer's
    /// value, `$randomInt`, the environment) is refused: run the file for those.
    func useHTTPFile(_ arguments: [Word]) throws {
        let pathWord = arguments[1]
        var prefix = ""
        if arguments.count == 4 {
            let text = try expand(arguments[3]).text
            guard Parser.isDottedTargetName(text) else {
                throw failure("a prefix is letters, digits, '_', '-' and '.' inside", at: arguments[3].span)
            }
            prefix = text + "."
        }
        let path = resolvePath(try expand(pathWord).text)
        let text = String(decoding: try readFile(path, at: pathWord.span), as: UTF8.self)
        let directory = (path as NSString).deletingLastPathComponent
        let file = SourceFile(name: Self.displayPath(path), directory: directory.isEmpty ? "." : directory, text: text)
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
                // A value known only when the file runs (an answer, $randomInt) is left for the user to set.
                guard variable.value.expressions.allSatisfy({ Self.isKnownBeforeRunning($0.expression) }) else {
                    io.err("note: \(file.name): @\(variable.name) is known only while the file runs: set it (let \(variable.name) = ...) before a call that uses it\n")
                    continue
                }
                setVariable(variable.name, try value(of: .variable(variable.name), at: SourceSpan(variable.span), in: &running))
            case .request(var request):
                let name = prefix + running.names[running.requestIndex]
                running.requestIndex += 1
                for index in request.headers.indices {
                    guard case .text(let text)? = request.headers[index].value.parts.first, request.headers[index].value.parts.count == 1,
                          let basic = HTTPFileTarget.basicAuthorization(request.headers[index], text: text) else { continue }
                    request.headers[index].value = HTTPTemplate(parts: [.text(basic)])
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
                    let span = (request.url.expressions + request.headers.flatMap(\.value.expressions)).first { $0.expression == expression }?.span
                    throw failure("this value is known only while the file runs, so 'use http' cannot make it part of a target",
                                  at: SourceSpan(span ?? request.span),
                                  notes: ["run the file instead: wsh \(file.name); a {{name}} is a wsh variable: letters, digits and '_'"])
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
    private static func isVariableName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.enumerated().allSatisfy { Lexer.isNameByte($1, first: $0 == 0) }
    }

    /// The text of a template, for a file variable's value: `\n`, `\r` and `\t` in its text are
    /// the characters, as REST Client reads them.
    private func resolve(_ template: HTTPTemplate, in running: inout HTTPFileRun) throws -> Variable {
        var text = ""
        var secret = false
        for part in template.parts {
            switch part {
            case .text(let literal):
                text += literal.replacingOccurrences(of: "\\n", with: "\n").replacingOccurrences(of: "\\r", with: "\r")
                    .replacingOccurrences(of: "\\t", with: "\t")
            case .expression(let expression, let span):
                let value = try value(of: expression, at: SourceSpan(span), in: &running)
                text += value.value
                secret = secret || value.isSecret
            }
        }
        return Variable(value: text, isSecret: secret)
    }

    /// What one `{{...}}` stands for now. Values from the environment and `.env` are secrets.
    private func value(of expression: HTTPExpression, at span: SourceSpan, in running: inout HTTPFileRun) throws -> Variable {
        switch expression {
        case .variable(let name):
            // `--var NAME=...` wins over the file's `@NAME`, as over a script's `let`; the file's
            // over the environment's. A file variable holds wherever it is written in the file.
            if session.commandLineNames.contains(name), let given = variable(named: name) { return given }
            if let template = running.fileVariables[name] {
                guard running.resolving.insert(name).inserted else {
                    throw failure("the file variable '\(name)' refers to itself", at: span)
                }
                defer { running.resolving.remove(name) }
                return try resolve(template, in: &running)
            }
            if let given = variable(named: name) { return given }
            throw failure("no variable '\(name)' is set", at: span,
                          notes: ["set it in the file (@\(name) = VALUE), with --var \(name)=VALUE, or in an environment (--env)"])
        case .uuid: return Variable(typed: .string(UUID().uuidString.lowercased()))
        case .timestamp: return Variable(typed: .number(String(Int64(Date().timeIntervalSince1970.rounded(.down)))))
        case .isoTimestamp: return Variable(typed: .string(GeneratedValue.rfc3339(Date())))
        case .randomInt(let low, let high): return Variable(typed: .number(String(Int.random(in: low..<high))))
        case .processEnv(var name, let named):
            if named { name = try value(of: .variable(name), at: span, in: &running).value }
            guard let value = ProcessInfo.processInfo.environment[name] else {
                throw failure("the environment variable '\(name)' is not set", at: span)
            }
            session.mask.add(value)
            return Variable(value: value, isSecret: true, environmentName: name)
        case .dotenv(let name):
            let values = try running.dotenv(run: self, at: span)
            guard let value = values[name] else {
                throw failure("'\(name)' is not in \(Self.displayPath(running.dotenvPath))", at: span)
            }
            session.mask.add(value)
            return Variable(value: value, isSecret: true)
        case .percentEncoded(let inner):
            var value = try value(of: inner, at: span, in: &running)
            value = Variable(value: PercentEncoding.encode(value.value), isSecret: value.isSecret)
            if value.isSecret { session.mask.add(value.value) }
            return value
        case .date(let date):
            return Variable(typed: .string(Self.text(of: date)))
        case .requestBody(let request):
            let sent = try running.answer(of: request, run: self, at: span).request
            return Variable(value: sent.body.map { String(decoding: $0, as: UTF8.self) } ?? "", isSecret: false)
        case .requestHeader(let request, let name):
            let sent = try running.answer(of: request, run: self, at: span).request
            guard let value = sent.headers.last(where: { $0.name.lowercased() == name.lowercased() })?.value else {
                throw failure("'\(request)' sent no header '\(name)'", at: span)
            }
            return Variable(value: value, isSecret: false)
        case .responseBody(let request, let path) where path.hasPrefix("/"):
            let response = try running.answer(of: request, run: self, at: span)
            let contentType = response.header("Content-Type")
            do {
                let found = try QueryFilters.xPath(path, on: Array(response.body), markup: QueryFilters.Markup(contentType: contentType),
                                                   encoding: CharsetDecoding.charset(of: contentType))
                if case .array(let nodes) = found, nodes.count == 1 { return Variable(typed: nodes[0]) }
                return Variable(typed: found)
            } catch let error as QueryFilters.Failure {
                throw failure("\(request).response.body.\(path): \(mask(error.message))", at: span)
            }
        case .responseBody(let request, let path):
            let response = try running.answer(of: request, run: self, at: span)
            if path == "*" { return Variable(value: response.text, isSecret: false) }
            let found: JSONValue
            do {
                found = try QueryFilters.apply(.jsonpath(path), to: try response.json())
            } catch let error as QueryFilters.Failure {
                throw failure("\(request).response.body.\(path): \(mask(error.message))", at: span)
            } catch {
                throw failure("the answer to '\(request)' is not JSON, so \(path) has nothing to read", at: span)
            }
            if case .array(let nodes) = found, nodes.count == 1 { return Variable(typed: nodes[0]) }
            return Variable(typed: found)
        case .responseHeader(let request, let name):
            let response = try running.answer(of: request, run: self, at: span)
            guard let value = response.header(name) else {
                throw failure("the answer to '\(request)' has no header '\(name)'", at: span)
            }
            return Variable(value: value, isSecret: false)
        }
    }

    /// A REST Client date: the time now shifted, as a number of seconds, RFC 1123 or ISO 8601.
    private static func text(of date: HTTPDate) -> String {
        let moment = Date().addingTimeInterval(TimeInterval(date.offset))
        switch date.format {
        case .timestamp: return String(Int64(moment.timeIntervalSince1970.rounded(.down)))
        case .rfc1123: return DateText.text(moment, strftime: "%a, %d %b %Y %H:%M:%S GMT") ?? ""
        case .iso8601(local: false): return DateText.iso(moment, fractionDigits: 3)
        case .iso8601(local: true):
            let offset = TimeZone.current.secondsFromGMT(for: moment)
            let local = DateText.iso(moment.addingTimeInterval(TimeInterval(offset)), fractionDigits: 3).dropLast()
            let sign = offset < 0 ? "-" : "+"
            let hours = abs(offset) / 3600, minutes = abs(offset) % 3600 / 60
            return local + sign + (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes)
        }
    }

    /// The `${name}` references in a declaration's text.
    private static func variableReferences(in text: String) -> [String] {
        text.components(separatedBy: "${").dropFirst().compactMap { $0.split(separator: "}", maxSplits: 1).first.map(String.init) }
    }
}

/// What running one `.http` file keeps between its requests.
@ShellActor
struct HTTPFileRun {
    /// The start of the variables that stand for `{{...}}` while a request is sent.
    static let prefix = "http_"
    let file: SourceFile
    /// Each request's target name, in file order.
    let names: [String]
    var requestIndex = 0
    /// The file's `@name = value` lines: each holds in the whole file, the last of a name winning.
    let fileVariables: [String: HTTPTemplate]
    /// The file variables being resolved, so that one that refers to itself is an error.
    var resolving: Set<String> = []
    /// The last answer to each request, by its target name and its `@name`.
    var answers: [String: Response] = [:]
    private var expressionNames: [HTTPExpression: String] = [:]
    private var dotenvValues: [String: String]?

    init(file: SourceFile, names: [String], items: [HTTPFile.Item]) {
        self.file = file
        self.names = names
        var variables: [String: HTTPTemplate] = [:]
        for case .variable(let variable) in items { variables[variable.name] = variable.value }
        fileVariables = variables
    }

    /// The variable a `{{...}}` is sent as: one per distinct expression of the file.
    mutating func variableName(_ expression: HTTPExpression) -> String {
        if let name = expressionNames[expression] { return name }
        let name = Self.prefix + String(expressionNames.count + 1)
        expressionNames[expression] = name
        return name
    }

    func expression(named name: String) -> HTTPExpression? {
        expressionNames.first { $0.value == name }?.key
    }

    var dotenvPath: String { (file.directory as NSString).appendingPathComponent(".env") }

    mutating func dotenv(run: Run, at span: SourceSpan) throws -> [String: String] {
        if let dotenvValues { return dotenvValues }
        guard let data = FileManager.default.contents(atPath: dotenvPath) else {
            throw run.failure("there is no .env file beside \(file.name) for {{$dotenv}}", at: span)
        }
        let values = DotenvFile.values(String(decoding: data, as: UTF8.self))
        dotenvValues = values
        return values
    }

    func answer(of request: String, run: Run, at span: SourceSpan) throws -> Response {
        guard let response = answers[request] else {
            let known = names.contains(request)
            throw run.failure(known ? "the request '\(request)' has not been answered yet: requests run in file order"
                                    : "no request is named '\(request)'", at: span,
                              notes: known ? [] : ["name a request with # @name \(request) on a line before it"])
        }
        return response
    }

    /// Target names for the requests: `@name`, else the `###` title, as target names are written
    /// (letters, digits, `_`, `-`), else `request-N`; a name taken twice gets `-2`, `-3`...
    static func targetNames(_ requests: [HTTPFile.Request]) -> [String] {
        var taken: Set<String> = []
        return requests.enumerated().map { index, request in
            let written = (request.name ?? request.title).map { text in
                String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "-" })
                    .trimmingCharacters(in: CharacterSet(charactersIn: "-"))
            }
            var name = written.flatMap { $0.isEmpty || !($0.first?.isLetter ?? false) ? nil : $0 } ?? "request-\(index + 1)"
            if taken.contains(name) {
                var counter = 2
                while taken.contains("\(name)-\(counter)") { counter += 1 }
                name = "\(name)-\(counter)"
            }
            taken.insert(name)
            return name
        }
    }
}

extension HTTPFile.Item {
    var span: Range<Int> {
        switch self {
        case .variable(let variable): variable.span
        case .request(let request): request.span
        }
    }
}

extension SourceSpan {
    init(_ range: Range<Int>) {
        self.init(start: range.lowerBound, end: range.upperBound)
    }
}
