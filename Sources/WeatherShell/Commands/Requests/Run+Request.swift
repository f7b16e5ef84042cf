import Foundation
import Targets

extension Run {
    /// `get URL ITEM...` and the other method commands, `request METHOD URL ITEM...`: a request with
    /// no declared target. Its items make a target of their own, sent through the same provider,
    /// plugins and history as a declared one, and kept for `target NAME from last`.
    func request(_ statement: RequestStatement) async throws {
        var statement = statement
        statement.flags.authType = try authType(statement.flags)
        let (declared, rawBody) = try adHocTarget(statement)
        var target = declared
        noteRecalledPlaceholders([statement.url] + statement.items)
        let flags = statement.flags
        // `-a` wins over credentials written in the URL, as curl's `-u` and HTTPie's `-a` do.
        if flags.auth != nil, let (stripped, _) = URLCredentials.split(target.baseURL) { target.baseURL = stripped }
        let url = target.baseURL + target.path
        let plugins = try requestAuthPlugin(statement, url: url).map { [$0 as any Plugin] } ?? []
        if flags.follow, options.follow == 0 { target.redirectLimit = ShellOptions.defaultRedirectLimit }
        if flags.offline {
            do {
                printRequest(try await provider(adding: plugins).preparedRequest(target, arguments: CallArguments(body: rawBody)))
            } catch {
                throw failure(error.description(masking: redaction), at: statement.url.span)
            }
            return
        }
        if options.stub != .off {
            throw failure("a request with no target has no sample to answer with under set stub", at: statement.command.span,
                          notes: ["declare a target with a sample (target NAME from last keeps this one), or answer live with: set stub off"])
        }
        var output = statement.output
        var claimed: String?
        if flags.download, output == nil {
            let path = downloadFile(for: url)
            output = Word(parts: [WordPart(content: .literal(path), quoted: true, span: statement.url.span)], span: statement.url.span)
            claimed = path
        }
        var answered = false
        defer { if let claimed { answered ? FilePaths.keep(claimed) : FilePaths.removeIfEmpty(claimed) } }
        let saved = outputOverride
        defer { outputOverride = saved }
        switch flags.print {
        case .headers?: outputOverride = .headers
        case .body?: outputOverride = io.stdoutIsTerminal ? .pretty : .raw
        case .verbose?: outputOverride = .all
        case nil: break
        }
        let response: Response
        do {
            response = try await send(target, CallArguments(body: rawBody), plugins: plugins, bodyFile: try streamedBodyFile(output),
                                      bodySink: flags.print == .verbose ? nil : streamedOutput(for: target, output: output, forced: statement.stream))
        } catch let error as ProviderError {
            keepRequestAuth(statement, sent: error.request)
            if let (name, reason) = error.invalidJSONArgument(masking: redaction.mask), let word = try itemWord(named: name, in: statement) {
                throw failure("'\(name):=' is not valid JSON: \(redaction.mask(reason))", at: word.span,
                              notes: ["a JSON value: name:=42, name:=true, name:='[1, 2]'; text is name=value"])
            }
            throw failure(error.description(masking: redaction), at: statement.url.span, notes: settingNotes(for: error),
                          comesFromTheAnswer: error.comesFromTheAnswer)
        } catch let error as RecordingFailure {
            throw failure(error.description, at: statement.command.span)
        }
        keepRequestAuth(statement, sent: response.request)
        if flags.print == .verbose, output == nil { printRequest(response.request, version: response.httpVersion) }
        try write(response, to: output, statusLine: flags.print != .body)
        answered = true
        if flags.download, let output {
            let path = try expand(output).text
            io.err("wsh: saved \(ByteText.text(response.streamedBodyBytes ?? response.body.count)) to \(path)\n")
        }
        try checkStatus(response, statement)
    }

    /// `-a` (`-A bearer -a`) kept for `target NAME from last` as the Authorization header it sent,
    /// as a typed Authorization header is kept; its credentials masked wherever shown, as the
    /// password is. A Digest answer holds the server's nonce and cannot be sent again: not kept.
    private func keepRequestAuth(_ statement: RequestStatement, sent request: Request?) {
        guard statement.flags.auth != nil, statement.flags.authType != .digest, lastCall != nil,
              let value = request?.header("Authorization") else { return }
        if let space = value.firstIndex(of: " ") { session.mask.add(String(value[value.index(after: space)...])) }
        // The one Authorization the request sent: a typed one it replaced is not kept beside it.
        lastCall?.target.headers.removeAll { $0.name.lowercased() == "authorization" }
        lastCall?.arguments.headers.removeAll { $0.name.lowercased() == "authorization" }
        lastCall?.arguments.headers.append(Header(name: "Authorization", value: value))
    }

    /// HTTPie's `--check-status`: an answer of 3xx (a redirect not followed), 4xx or 5xx is a
    /// failure. (From the system shell, `wsh get URL`, it is always on: ``CommandLineRequest/exitCode(_:answer:io:)``.)
    private func checkStatus(_ response: Response, _ statement: RequestStatement) throws {
        guard (300..<600).contains(response.status) else { return }
        if statement.flags.checkStatus {
            throw failure("HTTP \(response.status) \(response.reason) (--check-status)", at: statement.url.span,
                          notes: ["--check-status fails a request whose answer is a redirect not followed (3xx), 4xx or 5xx"])
        }
    }

    /// The last of the request's items that gives the body field `name` a JSON value.
    private func itemWord(named name: String, in statement: RequestStatement) throws -> Word? {
        try statement.items.last { word in
            switch RequestItem(try expandItem(word).text) {
            case .field(name, .json)?, .fieldFromFile(name, _, true)?: true
            default: false
            }
        }
    }

    /// The target an ad-hoc request stands for: its URL as the base, its items as the defaults of
    /// its query, body and headers, so that calling it with no arguments sends the request. A
    /// body from a file (`@FILE`) is also given as the call's whole body, which names its file
    /// (for the history, and for `target NAME from last` when its bytes are not text).
    func adHocTarget(_ statement: RequestStatement) throws -> (target: Target, body: RawBody?) {
        let commandName = statement.command.literal ?? "request"
        let method: HTTPMethod
        if let methodWord = statement.method {
            let text = try expand(methodWord).text
            guard let token = HTTPMethod(rawValue: text.uppercased()) else {
                throw failure("'\(text.shortened())' is not a method: a method is a token such as GET, POST or PROPFIND", at: methodWord.span)
            }
            method = token
        } else {
            method = Self.commandMethods[commandName] ?? HTTPMethod(rawValue: commandName.uppercased()) ?? .get
        }
        let typed = try expandURL(statement.url, inPath: false).text
        let url: String
        switch RequestURL.resolve(typed, base: options.base) {
        case .success(let resolved): url = resolved
        case .failure(let problem): throw failure("\(problem.message): '\(typed.shortened())'", at: statement.url.span, notes: [problem.note])
        }

        var query: [Parameter] = []
        var fields: [Parameter] = []
        var fieldItems: [FieldItem] = []
        var headers: [Header] = []
        var rawBody: (body: RawBody, word: Word)?
        var hasFile = false
        var jsonWord: Word?
        var previous: String?
        for word in statement.items {
            let text = try expandItem(word).text
            guard let item = RequestItem(text) else {
                // `Authorization: Bearer x`, as curl's -H takes it: the value is in the next words.
                let header = previous.flatMap { $0.hasSuffix(":") ? String($0.dropLast()) : nil }
                throw failure("expected an item: name==value, name=value, name:=JSON, Header:value, field@file or @file", at: word.span,
                              notes: header.map { ["a header's value follows its ':' in the same word; quote a value with blanks: \($0):\"Bearer …\""] } ?? [])
            }
            previous = text
            switch item {
            case .query(let name, let value):
                query.append(Parameter(name: name, defaultValue: .text(value)))
            case .field(let name, let value):
                if case .json = value { jsonWord = jsonWord ?? word }
                fields.append(Parameter(name: name, defaultValue: value))
                fieldItems.append(FieldItem(name: name, value: value, word: word))
            case .fieldFromFile(let name, let path, let json):
                let contents = String(decoding: try readItemFile(path, at: word), as: UTF8.self)
                if json { jsonWord = jsonWord ?? word }
                fields.append(Parameter(name: name, defaultValue: json ? .json(contents) : .text(contents)))
                fieldItems.append(FieldItem(name: name, value: json ? .json(contents) : .text(contents), word: word))
            case .header(let header):
                headers.append(header)
            case .file(let name, let path, let type):
                hasFile = true
                fields.append(Parameter(name: name, defaultValue: try filePart(path, type: type, at: word)))
            case .body(let path):
                if rawBody != nil { throw failure("a request has one body: give one @file", at: word.span) }
                rawBody = (try bodyFile(path, at: word), word)
            }
        }

        if rawBody == nil, !hasFile, statement.bodyStyle == .json, let nested = try nestedJSONBody(fieldItems) {
            fields = nested.fields
            if let array = nested.array, let first = fieldItems.first {
                fields = []
                rawBody = (array, first.word)
            }
        }
        var body: RequestTask?
        if let rawBody {
            if !fields.isEmpty {
                throw failure("a body from a file (@file) cannot be sent with fields too", at: rawBody.word.span,
                              notes: ["send the file alone, or its contents as a field: name=@file"])
            }
            body = .data(rawBody.body.data, contentType: rawBody.body.contentType)
        } else if !fields.isEmpty {
            switch statement.bodyStyle {
            case .multipart: body = .multipart(fields)
            case .form where hasFile: body = .multipart(fields)
            case .json where hasFile: body = .multipart(fields)
            case .form: body = .form(fields)
            case .json: body = .json(fields)
            }
            if let jsonWord, body != .json(fields) {
                throw failure("name:=JSON is a typed JSON field, and this body is not JSON", at: jsonWord.span,
                              notes: ["leave out --form and file items, or give the field as name=value"])
            }
        }
        let task: RequestTask = switch (query.isEmpty, body) {
        case (true, nil): .plain
        case (false, nil): .query(query)
        case (true, let body?): body
        case (false, let body?): .composite(query: query, body: body)
        }
        // In parentheses, which no declared target's name has: `history` and the logger show `(get)`,
        // and `set record` and `history replay` never take it for a declared target.
        let (base, path) = RequestURL.baseAndPath(url)
        return (Target(name: Self.adHocTargetName(method), baseURL: base, path: path, method: method, task: task, headers: headers),
                rawBody?.body)
    }

    /// The name an ad-hoc request's target goes by: `(get)`, `(propfind)`; the common methods'
    /// are written out.
    nonisolated static func adHocTargetName(_ method: HTTPMethod) -> String {
        commonAdHocTargetNames[method] ?? "(" + method.rawValue.lowercased() + ")"
    }

    private nonisolated static let commonAdHocTargetNames = Dictionary(uniqueKeysWithValues: HTTPMethod.allCases.map {
        ($0, "(" + $0.rawValue.lowercased() + ")")
    })

    /// The common methods by their commands (`get`): uppercasing the command cost every request.
    private static let commandMethods = Dictionary(uniqueKeysWithValues: HTTPMethod.allCases.map { ($0.rawValue.lowercased(), $0) })
}
