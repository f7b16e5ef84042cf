import Checks
import Foundation
import Targets

extension Run {
    /// Runs a `.http` file (`wsh FILE.http`, `wsh test FILE.http`, `source FILE.http`): its file
    /// variables are set and its requests sent in file order, each declared as a target first
    /// (named by `# @name`, else by its `###` title, else `request-N`), so `call NAME` sends it
    /// again afterwards. An error points at the `.http` file's line and column.
    func runHTTPFile(_ file: SourceFile) async throws(Halt) {
        do {
            try await runHTTPRequests(file)
        } catch let halt as Halt {
            throw halt
        } catch {
            // Out of a reactor action each error is reported where it happens: none comes here.
            try report(error as? Diagnostic ?? Diagnostic(.runtime, "\(error)", file: file))
        }
    }

    /// The work of ``runHTTPFile(_:)``. In a reactor action (`source FILE.http` in its body) the
    /// first error (a request that fails, a file that does not parse) is thrown: it ends the
    /// action and runs its `catch`, as a `.wsh` file's does. Elsewhere each error is reported, and
    /// bail decides whether the file goes on.
    func runHTTPRequests(_ file: SourceFile) async throws {
        let inAction = actionContext != nil
        func problem(_ diagnostic: Diagnostic) throws {
            if inAction { throw diagnostic }
            try report(diagnostic)
        }
        if let unreadable = file.unreadableText { return try problem(unreadable) }
        let text = file.text
        let previous = currentFile
        currentFile = file
        defer { currentFile = previous }
        let parsed: HTTPFile
        do {
            parsed = try HTTPFileParser.parse(text)
        } catch {
            try problem(Diagnostic(.parse, error.message, file: file, span: SourceSpan(error.span), notes: error.notes))
            return
        }
        // What the file itself gets wrong (a file it includes that is not there, a shorthand wsh
        // does not send, a timeout too long) is found before anything is sent.
        for var request in parsed.requests {
            // A path with variables is read when its request comes.
            request.body.removeAll(where: \.pathHasVariables)
            do {
                _ = try HTTPFileTarget.declaration(request, name: "check", directory: file.directory) { _ in "x" }
            } catch {
                try problem(Diagnostic(.runtime, error.message, file: file, span: SourceSpan(error.span), notes: error.notes))
                return
            }
        }
        var running = HTTPFileRun(file: file, names: HTTPFileRun.targetNames(parsed.requests), items: parsed.items)
        for case .request(let request) in parsed.items {
            if inAction {
                try await send(request, in: &running)
            } else {
                try await runStep(at: SourceSpan(request.span)) { try await send(request, in: &running) }
            }
        }
    }

    /// One request: its expressions resolved and set as variables (a file variable as `$name`,
    /// any other expression as `$http_N`, kept after the call so that `call NAME` sends it again),
    /// its target declared, then called; its answer kept for `{{NAME.response...}}`.
    private func send(_ request: HTTPFile.Request, in running: inout HTTPFileRun) async throws {
        let name = running.names[running.requestIndex]
        running.requestIndex += 1
        running.resolved = [:]
        var request = request
        for index in request.body.indices {
            guard case .file(let path, let substitutes, let encoding, let span) = request.body[index], request.body[index].pathHasVariables else { continue }
            var template: HTTPTemplate
            do {
                template = try HTTPFileParser.template(of: path)
            } catch {
                throw failure(error.message, at: SourceSpan(span))
            }
            // The path's expressions are said at its `<` line, not at their place in the path alone.
            template.parts = template.parts.map { if case .expression(let expression, _) = $0 { .expression(expression, span: span) } else { $0 } }
            request.body[index] = .file(path: try resolve(template, in: &running, at: SourceSpan(span)).value,
                                        substitutes: substitutes, encoding: encoding, span: span)
        }
        for index in request.headers.indices {
            let header = request.headers[index]
            guard header.name.lowercased() == "authorization" else { continue }
            let value = try resolve(header.value, in: &running)
            do {
                try HTTPFileTarget.refuseShorthand(header, text: value.value)
            } catch {
                throw failure(error.message, at: SourceSpan(error.span), notes: error.notes)
            }
            if let basic = HTTPFileTarget.basicAuthorization(header, text: value.value) {
                request.headers[index].value = HTTPTemplate(parts: [.text(basic)])
                if value.isSecret { session.mask.add(String(basic.dropFirst(6))) }
            }
        }
        // Every expression the declaration writes, those of a file included with `<@` too: that
        // file is read only as the declaration is made.
        var used: [HTTPExpression] = []
        let text: String
        do {
            text = try HTTPFileTarget.declaration(request, name: name, directory: currentFile.directory) { expression in
                used.append(expression)
                return running.variableName(expression)
            }
        } catch {
            throw failure(error.message, at: SourceSpan(error.span), notes: error.notes)
        }
        var places: [HTTPExpression: Range<Int>] = [:]
        var own = request.url.expressions + request.headers.flatMap(\.value.expressions)
        for case .text(let template) in request.body { own += template.expressions }
        for (expression, span) in own where places[expression] == nil { places[expression] = span }
        var values: [String: Variable] = [:]
        for expression in used where values[running.variableName(expression)] == nil {
            // One in an included file is said at the request.
            let value = try value(of: expression, at: SourceSpan(places[expression] ?? request.span), in: &running)
            // A variable already set (an environment's, a --var, the session's) is sent as it is.
            if case .variable(let variable) = expression, Self.isVariableName(variable),
               session.commandLineNames.contains(variable) || running.fileVariables[variable] == nil && self.variable(named: variable) != nil { continue }
            values[running.variableName(expression)] = value
        }
        do {
            // A file run has no prefix to take (`source FILE` has no `as`): the request can have a name of its own.
            try declareWritten(text, source: "<http \(currentFile.name)>", otherwise: "or give the request a name of its own (# @name NAME)")
        } catch let diagnostic as Diagnostic {
            // Said at the request, not in the declaration wsh wrote for it.
            throw failure(diagnostic.message, at: SourceSpan(request.span), notes: diagnostic.notes)
        }
        for (name, value) in values { setVariable(name, value) }
        let cookies = options.cookies
        if request.noCookieJar { options.cookies = false }
        defer { options.cookies = cookies }
        let span = SourceSpan(request.span)
        lastResponse = nil
        let path = request.saveTo.map { Self.savePath(Run.path($0.path, relativeTo: currentFile.directory), overwrites: $0.overwrites) }
        let output = path.map { Word(parts: [WordPart(content: .literal($0), quoted: true, span: span)], span: span) }
        do {
            try await call(CallStatement(target: Word(parts: [WordPart(content: .literal(name), quoted: false, span: span)], span: span),
                                         arguments: [], output: output))
        } catch {
            if let path, request.saveTo?.overwrites == false { FilePaths.removeIfEmpty(path) }
            throw error
        }
        if let path, request.saveTo?.overwrites == false { FilePaths.keep(path) }
        if let response = lastResponse {
            running.answers[name] = response
            if let given = request.name { running.answers[given] = response }
        }
    }

    /// Where `>> PATH` saves: PATH, or when a file is there already, PATH with `-1`, `-2`... before
    /// its extension, as JetBrains does, the name claimed at once; `>>! PATH` overwrites.
    static func savePath(_ path: String, overwrites: Bool) -> String {
        guard !overwrites else { return path }
        let url = URL(fileURLWithPath: path)
        let stem = url.deletingPathExtension().path, suffix = url.pathExtension.isEmpty ? "" : "." + url.pathExtension
        return FilePaths.claimFreeName(path) { "\(stem)-\($0)\(suffix)" }
    }

    /// The text of a template, for a file variable's value: `\n`, `\r` and `\t` in its text are
    /// the characters, as REST Client reads them.
    func resolve(_ template: HTTPTemplate, in running: inout HTTPFileRun, at place: SourceSpan? = nil) throws -> Variable {
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
            if text.utf8.count > HTTPFileRun.longestValue {
                throw failure("a value made of file variables grew past \(ByteText.text(HTTPFileRun.longestValue))", at: place)
            }
        }
        return Variable(value: text, isSecret: secret)
    }

    /// What one `{{...}}` stands for now. Values from the environment and `.env` are secrets.
    func value(of expression: HTTPExpression, at span: SourceSpan, in running: inout HTTPFileRun) throws -> Variable {
        switch expression {
        case .variable(let name):
            // `--var NAME=...` wins over the file's `@NAME`, as over a script's `let`; the file's
            // over the environment's. A file variable holds wherever it is written in the file.
            if session.commandLineNames.contains(name), let given = variable(named: name) { return given }
            if let template = running.fileVariables[name] {
                if let known = running.resolved[name] { return known }
                guard running.resolving.count < HTTPFileRun.deepestReference else {
                    throw failure("file variables refer to one another more than \(HTTPFileRun.deepestReference) deep", at: span)
                }
                guard running.resolving.insert(name).inserted else {
                    throw failure("the file variable '\(name)' refers to itself", at: span)
                }
                defer { running.resolving.remove(name) }
                let value = try resolve(template, in: &running, at: span)
                running.resolved[name] = value
                return value
            }
            if let given = variable(named: name) { return given }
            // As httpyac reads it: the `.env` beside the file, with no environment chosen too.
            if FileManager.default.fileExists(atPath: running.dotenvPath), let value = try running.dotenv(run: self, at: span)[name] {
                session.mask.add(value)
                return Variable(value: value, isSecret: true)
            }
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
        case .dotenv(var name, let named):
            if named { name = try value(of: .variable(name), at: span, in: &running).value }
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
}
