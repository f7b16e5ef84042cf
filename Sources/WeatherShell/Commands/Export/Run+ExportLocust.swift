import Foundation
import Targets

extension Run {
    /// `export locust [TARGET... | FILE.wsh] [> locustfile.py]`: a locustfile that does the work
    /// `wsh load` does (docs/load.md): one `FastHttpUser`, whose task is the scenario's calls,
    /// captures and `expect`s in order (a failed one reported to Locust with its wsh line), or
    /// one task per target. Each request is the one wsh would send; a variable stays a variable
    /// (`self.v["name"]`), a secret is read from the environment, never written.
    func exportLocust(_ arguments: [Word], command: Word) async throws {
        var words = Array(arguments.dropFirst())
        let outputPath = try takeOutputFile(&words, usage: "usage: export locust [TARGET... | FILE.wsh] [> locustfile.py]")
        var writer = LocustWriter()
        var plugins: [String] = []
        if words.count == 1, let name = try? expand(words[0]).text, name.lowercased().hasSuffix(".wsh") {
            let path = resolvePath(name)
            let file = try readSourceFile(path, at: words[0].span)
            let program = try Parser.parse(file)
            let previous = currentFile
            currentFile = file
            defer { currentFile = previous }
            // The setup (targets, use, set) runs here, as each user of wsh load runs it first. Not its
            // plugins, which a locustfile does not have, but they are checked: one given a `let` (`plugin
            // auth bearer $token`) would be an undefined variable here, and its `let`s are the
            // scenario's, read from the environment.
            if let problem = checkPluginSettings(program.statements) { throw problem }
            try await execute(Program(file: file, statements: program.statements.filter { LoadRun.isSetup($0) && Self.pluginName($0) == nil }))
            plugins = program.statements.compactMap(Self.pluginName)
            let scenario = program.statements.filter { !LoadRun.isSetup($0) }
            guard scenario.contains(where: { if case .call = $0.kind { true } else { false } }) else {
                throw failure("\(file.name) has no calls to write: a scenario is calls, captures and expects", at: words[0].span,
                              notes: ["for a task per target: export locust TARGET..."])
            }
            try await writer.task(named: "scenario", scenario, in: self)
        } else {
            let declared = try words.isEmpty ? session.targets.all : words.map { try declaredTarget($0) }
            guard !declared.isEmpty else { throw failure("no targets to export: declare some first", at: command.span) }
            for target in declared {
                let statement = Statement(kind: .call(CallStatement(target: Word(parts: [WordPart(content: .literal(target.name), quoted: false, span: command.span)], span: command.span), arguments: [], output: nil)),
                                          span: command.span, commandSpan: command.span)
                try await writer.task(named: target.name, [statement], in: self)
            }
        }
        try writeOutput(mask(writer.text(run: self)), to: outputPath, at: command.span)
        if !plugins.isEmpty {
            io.err("note: a locustfile has no plugins (\(plugins.map { "plugin \($0)" }.joined(separator: ", "))): "
                   + (plugins.contains("auth") ? "give a header such as Authorization in the target, from a variable\n" : "they are left out\n"))
        }
        let credentials = writer.literalSecrets.names + writer.typedCredentials(run: self)
        if !credentials.isEmpty {
            let variables = credentials.map(LocustWriter.environmentName)
            io.err("note: \(variables.joined(separator: ", ")) stand for credentials typed as text: the locustfile reads them from the environment\n")
        }
    }
}

extension Run {
    /// `auth` for `plugin auth bearer ...`; nil for a statement that is no plugin.
    static func pluginName(_ statement: Statement) -> String? {
        guard case .plugin(let name, _) = statement.kind else { return nil }
        return name.literal ?? "?"
    }
}

/// Writes a locustfile from statements: a call is a request in a `with ... catch_response=True`
/// block, and the captures and `expect`s after it go in that block.
@ShellActor
struct LocustWriter {
    private var tasks: [String] = []
    /// The variables the file reads: each set in `on_start` from its value now, or from the
    /// environment for a secret; those the scenario sets itself are left to it.
    private var read: Set<String> = []
    private var assigned: Set<String> = []
    private var host: String?
    /// Credentials typed as text in the targets (`query appid=...`, `header X-Api-Key:...`, a
    /// URL's password): never written, each read from the environment variable its name gives
    /// (``environmentName(_:)``), as `export http` makes them `{{variables}}`.
    private(set) var literalSecrets = LiteralSecretNames(taken: [])
    /// Variables a `let` of the scenario sets to a credential typed as text.
    private var typedInScenario: Set<String> = []

    mutating func task(named name: String, _ statements: [Statement], in run: Run) async throws {
        var lines = ["    @task", "    def \(Self.identifier(name))(self):"]
        var inCall = false
        for statement in statements {
            let indent = inCall ? "            " : "        "
            switch statement.kind {
            case .call(let call):
                lines += try await request(call, in: run, at: statement)
                inCall = true
            case .assign(let name, let value):
                guard let variable = name.literal else { throw run.failure("export locust: a variable's name must be written out", at: name.span) }
                assigned.insert(variable)
                switch value {
                case .query(let query):
                    guard inCall else { throw run.failure("export locust: a query needs a call before it", at: statement.span) }
                    // As in wsh: a capture of a value that is not there fails, and the iteration ends.
                    lines.append(indent + "self.v[\(Self.python(variable))] = " + (try Self.query(query, run: run)))
                    lines.append(indent + "if self.v[\(Self.python(variable))] is WSH_MISSING:")
                    lines.append(indent + "    resp.failure(\(Self.python(Self.place(of: statement, in: run) + ": no value")))")
                    lines.append(indent + "    return")
                case .word(let word):
                    if let literal = word.literal, LiteralCredentials.isTyped(name: variable, value: literal) {
                        // Never written: read from the environment, as a secret is.
                        typedInScenario.insert(variable)
                        lines.append(indent + "self.v[\(Self.python(variable))] = os.environ[\(Self.python(Self.environmentName(variable)))]")
                    } else {
                        lines.append(indent + "self.v[\(Self.python(variable))] = " + (try expression(word, run: run)))
                    }
                case .env(let env, let fallback, _, _):
                    let name = Self.python(env.literal ?? variable)
                    // A default is written unless it is a credential typed as text.
                    if let fallback = fallback?.literal, !LiteralCredentials.isTyped(name: variable, value: fallback) {
                        lines.append(indent + "self.v[\(Self.python(variable))] = os.environ.get(\(name), \(Self.python(fallback)))")
                    } else {
                        lines.append(indent + "self.v[\(Self.python(variable))] = os.environ[\(name)]")
                    }
                }
            case .expect(let expectation):
                guard inCall else { throw run.failure("export locust: an expect needs a call before it", at: statement.span) }
                let message = Self.python(Self.place(of: statement, in: run))
                lines.append(indent + "if not (\(try condition(expectation, run: run))):")
                lines.append(indent + "    resp.failure(\(message))")
                // As bail does in wsh: the rest of the iteration is not run.
                lines.append(indent + "    return")
            case .sleep(let word):
                guard let duration = DurationText.parse(try run.expand(word).text) else { throw run.failure("export locust: sleep takes a duration", at: word.span) }
                lines.append(indent + "time.sleep(\(duration.milliseconds / 1000))")
            case .echo, .print:
                continue
            default:
                let source = run.currentFile.text(statement.span.start..<statement.span.end)
                throw run.failure("export locust cannot write this statement: \(source.shortened()); a locustfile takes calls, let captures, expect, sleep",
                                  at: statement.span)
            }
        }
        if lines.count == 2 { lines.append("        pass") }
        tasks.append(lines.joined(separator: "\n"))
    }

    /// `FILE:LINE: STATEMENT`, what a failure in the locustfile says.
    private static func place(of statement: Statement, in run: Run) -> String {
        let source = run.currentFile.text(statement.span.start..<statement.span.end)
        return "\(run.currentFile.name):\(run.currentFile.location(of: statement.span.start).line): \(source)"
    }

    /// The call as wsh would send it: the request prepared with a marker for each variable,
    /// each marker then written as the variable.
    private mutating func request(_ call: CallStatement, in run: Run, at statement: Statement) async throws -> [String] {
        let declared = try run.declaredTarget(call.target)
        var names = Set(call.arguments.flatMap(\.variableNames))
        names.formUnion(declared.declaration.fields.flatMap { $0.arguments.flatMap(\.variableNames) })
        var markers: [String: String] = [:]
        var saved: [(String, Variable?)] = []
        for name in names {
            let marker = "wshlocust" + UUID().uuidString.lowercased().filter { $0 != "-" }
            markers[marker] = name
            saved.append((name, run.session.variables[name]))
            run.session.variables[name] = Variable(value: marker, isSecret: false)
        }
        defer { for (name, value) in saved { run.session.variables[name] = value } }
        read.formUnion(names)
        let target = try run.compiledTarget(declared)
        let (arguments, _) = try run.callArguments(call.arguments, for: target)
        var provider = run.provider()
        // The target's own request: a plugin's credential is the session's, not the file's.
        provider.plugins = []
        provider.defaultHeaders = []
        provider.cookieJar = nil
        provider.compress = false
        let request: Request
        do {
            request = try await provider.preparedRequest(target, arguments: arguments)
        } catch {
            throw run.failure("export locust: cannot write call \(declared.name): \(run.mask(error.description(masking: run.redaction)))", at: statement.span)
        }
        guard let url = URL(string: request.url), let scheme = url.scheme, let hostName = url.host else {
            throw run.failure("export locust: call \(declared.name) has no absolute URL", at: statement.span)
        }
        let origin = "\(scheme)://\(hostName.contains(":") ? "[\(hostName)]" : hostName)" + (url.port.map { ":\($0)" } ?? "")
        if host == nil { host = origin }
        let path = request.url.hasPrefix(origin) && origin == host ? String(request.url.dropFirst(origin.count)) : request.url
        // Credentials typed as text are variables too, read from the environment, in each form
        // the request holds them (percent-encoded in the URL, escaped in JSON).
        let basics = request.headers.filter { Self.basicCredential($0) != nil }.map(\.value)
        for (name, value) in run.redaction.sentSecrets(of: request)
        where value.count >= SecretForms.minimumLength && !markers.keys.contains(where: { value.contains($0) })
            && !basics.contains(where: { $0.hasSuffix(" " + value) }) {
            literalSecrets.taken.formUnion(read.union(assigned))
            let variable = literalSecrets.name(for: value, sentAs: name)
            for form in [value, PercentEncoding.encode(value), String(JSONValue.quoted(value).dropFirst().dropLast())] {
                markers[form] = variable
            }
        }
        var parts = ["\(Self.python(request.method.rawValue))", Self.expression(path.isEmpty ? "/" : path, markers: markers, escaping: .url)]
        let headers = request.headers.filter { !["content-length", "host"].contains($0.name.lowercased()) }
        if !headers.isEmpty {
            parts.append("headers={" + headers.map { header in
                // A Basic credential is encoded when the file runs, from its parts' variables.
                let value = Self.basicCredential(header).map { "\"Basic \" + base64.b64encode((\(Self.expression($0, markers: markers, escaping: .none))).encode()).decode()" }
                return "\(Self.python(header.name)): \(value ?? Self.expression(header.value, markers: markers, escaping: .none))"
            }.joined(separator: ", ") + "}")
        }
        if let body = request.body, !body.isEmpty {
            let type = request.headers.last { $0.name.lowercased() == "content-type" }?.value ?? ""
            // A variable's value is escaped as wsh escapes it there: `&` and `=` in a form are data, not separators.
            let escaping: Escaping = MediaType.isJSON(type) ? .json : MediaType.essence(of: type) == "application/x-www-form-urlencoded" ? .url : .none
            parts.append("data=(" + Self.expression(String(decoding: body, as: UTF8.self), markers: markers, escaping: escaping) + ").encode()")
        }
        parts.append("name=\(Self.python(declared.name))")
        parts.append("catch_response=True")
        return ["        with self.client.request(\(parts.joined(separator: ", "))) as resp:", "            pass"]
    }

    /// The `USER:PASSWORD` of an `Authorization: Basic` header, decoded.
    private static func basicCredential(_ header: Header) -> String? {
        guard header.name.lowercased() == "authorization" else { return nil }
        let words = header.value.split(separator: " ", maxSplits: 1)
        guard words.count == 2, words[0].lowercased() == "basic" else { return nil }
        return Redaction.basicPair(String(words[1]))
    }

    /// The environment variable a credential typed as text is read from: its name in capitals
    /// (`X_API_KEY` for `X_Api_Key`).
    static func environmentName(_ name: String) -> String {
        name.uppercased()
    }

    /// A word's value as Python: text with its variables.
    private func expression(_ word: Word, run: Run) throws -> String {
        if let literal = word.literal {
            if let number = Double(literal), !word.isQuoted { return literal.contains(".") || literal.contains("e") ? "\(number)" : literal }
            return Self.python(literal)
        }
        let names = word.variableNames
        if names.count == 1, word.parts.count == 1 { return "self.v.get(\(Self.python(names[0])))" }
        throw run.failure("export locust: write a variable alone ($name), not inside other text", at: word.span)
    }

    /// `.a.b[0]`, `status`, `header NAME` as Python over `resp`.
    static func query(_ query: Query, run: Run) throws -> String {
        guard query.filters.isEmpty, query.pathVariables.isEmpty else {
            throw run.failure("export locust: a query with filters or variables cannot be written in Python here", at: query.span)
        }
        switch query.source {
        case .status: return "resp.status_code"
        case .header(let name): return "resp.headers.get(\(python(name)), WSH_MISSING)"
        case .body: return "resp.text"
        case .path(let steps):
            var path: [String] = []
            for step in steps {
                switch step {
                case .key(let key): path.append(python(key))
                case .index(let index): path.append(String(index))
                default: throw run.failure("export locust: only .key and [index] steps can be written in Python here", at: query.span)
                }
            }
            return "wsh_value(resp, [\(path.joined(separator: ", "))])"
        default:
            throw run.failure("export locust: this query cannot be written in Python here: write status, header NAME or a .path", at: query.span)
        }
    }

    /// An `expect` as Python that holds where wsh's holds: values compared typed (`true` is no
    /// `1`, `"1"` no `1`), and a check on a value that is not there failing, `not` or no `not`.
    private func condition(_ expectation: Expectation, run: Run) throws -> String {
        guard case .query(let query) = expectation.subject else {
            throw run.failure("export locust writes an expect only on a query of the answer (status, header NAME, .path)", at: expectation.span)
        }
        let subject = try Self.query(query, run: run)
        if expectation.op == .exists { return expectation.negated ? "\(subject) is WSH_MISSING" : "\(subject) is not WSH_MISSING" }
        let expected = try expectation.expected.map { try expectedValue($0, of: expectation, run: run) } ?? "None"
        let test: String = switch expectation.op {
        case .equal: "wsh_same(v, \(expected))"
        case .notEqual: "not wsh_same(v, \(expected))"
        case .less: "wsh_compare(v, \(expected)) < 0"
        case .lessOrEqual: "wsh_compare(v, \(expected)) <= 0"
        case .greater: "wsh_compare(v, \(expected)) > 0"
        case .greaterOrEqual: "wsh_compare(v, \(expected)) >= 0"
        case .contains: "wsh_contains(v, \(expected))"
        case .includes: "any(wsh_same(x, \(expected)) for x in v)"
        case .startsWith: "isinstance(v, str) and v.startswith(wsh_text(\(expected)))"
        case .endsWith: "isinstance(v, str) and v.endswith(wsh_text(\(expected)))"
        case .matches: "isinstance(v, str) and re.search(wsh_text(\(expected)), v) is not None"
        default: throw run.failure("export locust: expect \(expectation.op.rawValue) cannot be written in Python here", at: expectation.span)
        }
        // A test of another type fails, `not` or no `not` (`status not startsWith 5`), as wsh's does.
        let applies: String? = switch expectation.op {
        case .startsWith, .endsWith, .matches: "lambda v: isinstance(v, str)"
        case .contains: "lambda v: isinstance(v, (str, list, dict))"
        case .includes: "lambda v: isinstance(v, list)"
        default: nil
        }
        return "wsh_check(\(subject), lambda v: \(test), \(expectation.negated ? "True" : "False")\(applies.map { ", " + $0 } ?? ""))"
    }

    /// The expected value as Python, typed as wsh types it: a literal by how it is written (`1`,
    /// `true`, `null`, `[1]`, `"1"`; the quoted JSON text of a list or object after `==` as that
    /// list or object), a lone variable as its value when the file runs.
    private func expectedValue(_ word: Word, of expectation: Expectation, run: Run) throws -> String {
        guard word.variableNames.isEmpty else { return try expression(word, run: run) }
        var value = try run.typedValue(of: word)
        if expectation.op == .equal || expectation.op == .notEqual, word.isQuoted, case .string(let text) = value,
           let json = try? JSONValue.parse(Data(text.utf8)), json.isObjectOrArray {
            value = json
        }
        return "json.loads(\(Self.python(value.compactText)))"
    }

    /// The variables holding a credential typed as text (a `let` of the scenario, or one set
    /// before it), which the locustfile reads from the environment.
    func typedCredentials(run: Run) -> [String] {
        let before = read.subtracting(assigned).filter { name in
            run.session.variables[name].map { !$0.isSecret && LiteralCredentials.isTyped(name: name, value: $0.value) } ?? false
        }
        return typedInScenario.union(before).sorted()
    }

    /// The file: imports, the helpers, the user with its variables, the tasks.
    func text(run: Run) -> String {
        var start: [String] = []
        let references = Dictionary(run.environmentReferences.map { ($0.value, $0.environmentName) }, uniquingKeysWith: { first, _ in first })
        let typed = Set(typedCredentials(run: run))
        for name in read.subtracting(assigned).sorted() {
            guard let variable = run.session.variables[name] else { continue }
            if variable.isSecret {
                // A secret is never written: its environment variable is read when the file runs.
                let environment = references[variable.value] ?? name.uppercased()
                start.append("        self.v[\(Self.python(name))] = os.environ[\(Self.python(environment))]")
            } else if typed.contains(name) {
                start.append("        self.v[\(Self.python(name))] = os.environ[\(Self.python(Self.environmentName(name)))]")
            } else {
                start.append("        self.v[\(Self.python(name))] = \(Self.python(variable.value))")
            }
        }
        for name in literalSecrets.names {
            start.append("        self.v[\(Self.python(name))] = os.environ[\(Self.python(Self.environmentName(name)))]")
        }
        return """
            # A locustfile written by wsh \(Shell.version) (export locust): the same requests, captures and checks as wsh load.
            # Run it: locust -f locustfile.py --headless -u 10 -r 10 -t 30s
            import base64
            import json
            import os
            import re
            import time
            from datetime import datetime, timezone
            from urllib.parse import quote

            from locust import FastHttpUser, constant, task


            # A value that is not there (a missing key, an answer that is not JSON): every check on it
            # fails, with not or without, as in wsh; a JSON null is None, and is there.
            WSH_MISSING = object()


            def wsh_value(resp, path):
                \"\"\"The value at a path of keys and indexes in a JSON answer, or WSH_MISSING.\"\"\"
                try:
                    value = resp.json()
                except Exception:
                    return WSH_MISSING
                for step in path:
                    if isinstance(step, int) and isinstance(value, list) and -len(value) <= step < len(value):
                        value = value[step]
                    elif isinstance(step, str) and isinstance(value, dict) and step in value:
                        value = value[step]
                    else:
                        return WSH_MISSING
                return value


            def wsh_check(value, test, negated, applies=None):
                \"\"\"A check as wsh makes it: on a value that is not there, or not of the type the test takes, it fails, with not or without.\"\"\"
                if value is WSH_MISSING or (applies is not None and not applies(value)):
                    return False
                held = bool(test(value))
                return not held if negated else held


            def wsh_same(left, right):
                \"\"\"Equal as wsh compares: typed (true is no 1, "1" is no 1), numbers by value, lists and objects member by member.\"\"\"
                if isinstance(left, bool) or isinstance(right, bool):
                    return isinstance(left, bool) and isinstance(right, bool) and left == right
                if isinstance(left, (int, float)) and isinstance(right, (int, float)):
                    return left == right
                if isinstance(left, list) and isinstance(right, list):
                    return len(left) == len(right) and all(wsh_same(a, b) for a, b in zip(left, right))
                if isinstance(left, dict) and isinstance(right, dict):
                    return left.keys() == right.keys() and all(wsh_same(left[k], right[k]) for k in left)
                return type(left) is type(right) and left == right


            def wsh_contains(value, part):
                \"\"\"A list holds a typed element, an object a key, a string a part; anything else holds nothing.\"\"\"
                if isinstance(value, list):
                    return any(wsh_same(item, part) for item in value)
                if isinstance(value, (dict, str)):
                    return wsh_text(part) in value
                return False


            def wsh_text(value):
                \"\"\"A value as wsh writes it into a request: a string as it is, anything else as compact JSON.\"\"\"
                return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), ensure_ascii=False)


            def wsh_moment(text):
                \"\"\"The moment an ISO 8601 date names, in UTC, or None.\"\"\"
                if len(text) < 10 or text[4:5] != "-" or text[7:8] != "-":
                    return None
                try:
                    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
                except ValueError:
                    return None
                return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


            def wsh_compare(left, right):
                \"\"\"-1, 0 or 1 as wsh compares: numbers as numbers, two dates as moments, other text as text.\"\"\"
                for value in (left, right):
                    if value is None or isinstance(value, (bool, list, dict)):
                        raise ValueError("only numbers, dates and text order: " + wsh_text(value))
                if isinstance(left, (int, float)) and isinstance(right, (int, float)):
                    return (left > right) - (left < right)
                left, right = str(left), str(right)
                if wsh_number(left) and wsh_number(right):
                    raise ValueError("two numbers as text do not order as numbers: read them with | toInt")
                moments = (wsh_moment(left), wsh_moment(right))
                if None not in moments:
                    left, right = moments
                return (left > right) - (left < right)


            def wsh_number(text):
                return re.fullmatch(r"[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?", text) is not None


            class WshUser(FastHttpUser):
                host = \(host.map(Self.python) ?? "None")
                wait_time = constant(0)

                def on_start(self):
                    self.v = {}
            \(start.joined(separator: "\n"))

            \(tasks.joined(separator: "\n\n"))

            """
    }

    /// A Python string literal: a JSON one is, with the same escapes.
    static func python(_ text: String) -> String {
        JSONValue.quoted(text)
    }

    /// How a variable's value is written where its marker was.
    enum Escaping {
        case none, url, json
    }

    /// Text with markers in it as a Python expression: the literal parts, and each marker as its
    /// variable (percent-encoded in a URL, escaped inside a JSON string).
    static func expression(_ text: String, markers: [String: String], escaping: Escaping) -> String {
        var pieces: [String] = []
        var rest = Substring(text)
        while let found = markers.keys.compactMap({ marker in rest.range(of: marker).map { (marker, $0) } }).min(by: { $0.1.lowerBound < $1.1.lowerBound }) {
            if found.1.lowerBound > rest.startIndex { pieces.append(python(String(rest[..<found.1.lowerBound]))) }
            let value = "wsh_text(self.v.get(\(python(markers[found.0] ?? ""))))"
            switch escaping {
            case .none: pieces.append(value)
            case .url: pieces.append("quote(\(value), safe=\"\")")
            case .json: pieces.append("json.dumps(\(value))[1:-1]")
            }
            rest = rest[found.1.upperBound...]
        }
        if !rest.isEmpty || pieces.isEmpty { pieces.append(python(String(rest))) }
        return pieces.joined(separator: " + ")
    }

    /// A Python name from a target's name.
    static func identifier(_ name: String) -> String {
        let cleaned = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
        return cleaned.first?.isNumber == false ? cleaned : "t_" + cleaned
    }
}
