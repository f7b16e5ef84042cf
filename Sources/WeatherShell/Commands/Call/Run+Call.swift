import Foundation
import OpenAPI
import Plugins
import Targets

extension Run {
    /// `call NAME [key=value] [key:=json] [name==value] [Header:value] [field@FILE] [@FILE] [--all [--max-pages N]] [> FILE]`.
    func call(_ statement: CallStatement) async throws {
        let declared = try declaredTarget(statement.target)
        if let missing = missingSample(declared) {
            throw failure(missing, at: statement.target.span,
                          notes: ["give it one with sample @FILE, or answer live with: set stub off"])
        }
        let target = try compiledTarget(declared)
        var words = statement.arguments
        let maxPages = try takePagingOptions(&words)
        let (arguments, argumentWords) = try callArguments(words, for: target)
        if arguments.body == nil, let whole = declared.openAPI?.operation.wholeBody {
            throw failure("missing body for target '\(declared.name)': its OpenAPI document requires one", at: statement.target.span,
                          notes: [Self.wholeBodyHint(whole, target: declared.name)])
        }
        noteRecalledPlaceholders(words)
        if let maxPages {
            return try await callAllPages(declared, target, arguments, maxPages: maxPages, statement: statement, argumentWords: argumentWords)
        }
        let response: Response
        do {
            response = try await send(target, arguments, bodyFile: try streamedBodyFile(statement.output),
                                      bodySink: streamedOutput(for: target, output: statement.output, forced: statement.stream))
        } catch let error as ProviderError {
            throw diagnostic(for: error, statement: statement, argumentWords: argumentWords)
        } catch let error as RecordingFailure {
            // The answer came: it is shown before the failure to record it.
            if let answer = lastResponse { try write(answer, to: statement.output) }
            throw failure(error.description, at: statement.target.span)
        }
        try write(response, to: statement.output)
        if declared.validatesSchema { try checkDeclaredSchema(declared, response, at: statement.target.span) }
    }

    /// How a call gives a body its OpenAPI document requires whole: `call put-square @FILE`, what
    /// the file holds, and the document's example of it.
    static func wholeBodyHint(_ whole: WholeBody, target: String) -> String {
        let kind = whole.type.isEmpty ? whole.mediaType : "\(whole.mediaType), \(whole.type)"
        return "give it whole from a file: call \(target) @FILE (\(kind))" + (whole.example.map { "; the document's example: \($0.shortened(60))" } ?? "")
    }

    /// Sends a call through the provider and keeps its answer (an error's response too) as the
    /// last response, recorded under `set record`; a cancelled call throws `CancellationError`,
    /// any other failure `ProviderError`, and an answer that could not be recorded `RecordingFailure`.
    func send(_ target: Target, _ arguments: CallArguments, plugins: [any Plugin] = [], bodyFile: String? = nil,
              bodySink: (any ResponseBodySink)? = nil) async throws -> Response {
        var response: Response
        let started = ContinuousClock.now
        noteSecretInURL(target.baseURL)
        // The proxy's credentials go with the call: `set proxy off` after it leaves its answer masked.
        let proxyCredentials = session.proxyCredentials
        do {
            response = try await provider(adding: plugins).request(target, arguments: arguments, writingBodyTo: bodyFile, streamingBodyTo: bodySink)
            response = readBack(response)
            warnOfWhatTheAnswerHides(response)
        } catch {
            session.lastSentRequest = error.request ?? error.response?.request
            session.lastReceivedResponse = error.response
            session.lastProxyCredentials = proxyCredentials
            if error.response == nil {
                lastResponse = nil
                lastCallGotNoResponse = error.isCancelled || Task.isCancelled ? "it was interrupted" : error.description(masking: redaction)
            }
            if error.isCancelled || Task.isCancelled {
                // Sent, then stopped by Ctrl-C (or SIGTERM): the history shows it `failed`, saying
                // why, and the reports have it as the call in flight.
                if let sent = error.request ?? error.response?.request {
                    let failure = "interrupted (\(Interruption.name))"
                    reporter?.report(.call(target: target.name, unanswered: sent, response: nil, failure: failure, redaction: redaction,
                                           started: started))
                    recordInHistory(target, arguments, request: error.request, response: error.response, failure: failure, started: started,
                                    ownAuth: !plugins.isEmpty)
                }
                throw CancellationError()
            }
            var error = error
            error.response = error.response.map(readBack)
            if let response = error.response {
                warnOfWhatTheAnswerHides(response)
                lastResponse = response
                lastCallGotNoResponse = nil
                // The call fails for its own reason; a failure to record its answer is said beside it.
                if let reason = recordAnswer(response, of: target) { io.err(Diagnostic(.runtime, reason).rendered(mask: { self.mask($0) })) }
            }
            if error.request != nil || error.response != nil { lastCall = (target, arguments) }
            let redaction = redaction
            let failure = error.description(masking: redaction)
            reporter?.report(.call(target: target.name, unanswered: error.response == nil ? error.request : nil, response: error.response,
                                   failure: failure, redaction: redaction, started: started))
            recordInHistory(target, arguments, request: error.request, response: error.response, failure: failure, started: started,
                            ownAuth: !plugins.isEmpty)
            throw error
        }
        session.lastSentRequest = response.request
        session.lastReceivedResponse = response
        session.lastProxyCredentials = proxyCredentials
        lastResponse = response
        lastCallGotNoResponse = nil
        lastCall = (target, arguments)
        reporter?.report(.call(target: target.name, unanswered: nil, response: response, failure: nil, redaction: redaction, started: started))
        recordInHistory(target, arguments, request: nil, response: response, failure: nil, started: started, ownAuth: !plugins.isEmpty)
        if let reason = recordAnswer(response, of: target) { throw RecordingFailure(description: reason) }
        return response
    }

    /// Says that the server answered an upload early and stopped reading it, so the rest of the
    /// body was not sent (``UploadCut``), or that a POST or PATCH was sent again: the answer alone
    /// does not show either.
    private func warnOfWhatTheAnswerHides(_ response: Response) {
        if let note = response.sentAgainNote { io.err("note: \(mask(note))\n") }
        guard let cut = response.uploadCut else { return }
        io.err("warning: \(mask(cut.warning(for: response.request)))\n")
    }

    /// What a query or `expect` says when there is no last response.
    var noResponseMessage: String {
        lastCallGotNoResponse.map { "no response: the last call got none (\($0))" } ?? "no response yet: call a target first"
    }

    /// Under `set stub`, a target without a `sample` has nothing to answer with: an error naming
    /// it, rather than an empty 200 that looks like a real answer.
    func missingSample(_ declared: DeclaredTarget) -> String? {
        guard options.stub != .off, !declared.hasSample else { return nil }
        return "target '\(declared.name)' has no sample to answer with under set stub"
    }

    /// The provider for the next call, with today's options and plugins, and `extra` plugins before
    /// them for this call only (a request's `-a`, which wins over a session's `plugin auth`).
    func provider(adding extra: [any Plugin] = []) -> Provider<Target> {
        let stub: StubBehavior = switch options.stub {
        case .off: .never
        case .immediate: .immediate
        case .delayed(let delay): .delayed(delay)
        }
        var provider = Provider<Target>(
            transport: session.callGuard.map { $0.sending(through: session.transport) } ?? session.transport, plugins: extra + activePlugins(), stubBehavior: stub, stubStatus: options.stubStatus,
            sessionTimeout: options.timeout, baseURL: options.base)
        provider.redirectLimit = options.follow
        provider.redirectsKeepCredentials = options.followTrusted
        provider.defaultHeaders = options.defaultHeaders
        provider.compress = options.compress
        provider.bodyLimit = options.maxBody ?? Int.max
        provider.cookieJar = options.cookies ? session.cookieJar : nil
        return provider
    }

    /// Plugins in effect, in order (see Plugins/Run+Plugins.swift).
    func activePlugins() -> [any Plugin] { currentPlugins() }

    /// `parameters: a, b`, or `parameters: (none)`.
    static func parametersNote(_ names: [String]) -> String {
        "parameters: " + (names.isEmpty ? "(none)" : names.joined(separator: ", "))
    }

    func diagnostic(for error: ProviderError, statement: CallStatement, argumentWords: [String: Word]) -> Diagnostic {
        if let unknown = error.unknownParameter {
            var notes: [String] = []
            let guess = Suggestion.closest(to: unknown, in: error.parameters)
            notes.append((guess.map { "did you mean '\($0)'? " } ?? "") + Self.parametersNote(error.parameters))
            return failure("unknown parameter '\(unknown.shortened())' for target '\(error.targetName)'",
                           at: argumentWords[unknown]?.span ?? statement.target.span, notes: notes)
        }
        if let misplaced = error.misplacedArgument, let word = argumentWords[misplaced] {
            return failure(error.description(masking: redaction), at: word.span)
        }
        if let missing = error.missingHeader {
            return failure("missing header '\(missing)' for target '\(error.targetName)'", at: statement.target.span,
                           notes: ["give it as \(missing):VALUE"])
        }
        if let missing = error.missingParameter {
            return failure("missing parameter '\(missing)' for target '\(error.targetName)'", at: statement.target.span,
                           notes: ["give it as \(missing)=VALUE; " + Self.parametersNote(error.parameters)])
        }
        var notes = settingNotes(for: error)
        if error.isMissingBaseURL { notes.insert("declare `base` in the target, or give one for all with `set base URL`", at: 0) }
        return failure(error.description(masking: redaction), at: statement.target.span, notes: notes,
                       comesFromTheAnswer: error.comesFromTheAnswer)
    }

    /// Once a session, when a URL is about to be shown as `***` because it holds an `env` value
    /// (`let base = env API_BASE`): that the value is a secret, and how to say it is not.
    private func noteSecretInURL(_ url: String) {
        guard !session.notedSecretInURL else { return }
        for name in session.variables.names {
            guard let variable = session.variables[name], variable.isSecret, let environmentName = variable.environmentName,
                  variable.value.count >= 4, url.contains(variable.value) else { continue }
            session.notedSecretInURL = true
            io.err("wsh: note: URLs show $\(name) as *** (a value from env is a secret); if \(environmentName) is no secret: "
                   + "let \(name) = env \(environmentName) public\n")
            return
        }
    }

    /// What a user can set to get past a failure of the transport: the body limit, the redirect limit.
    func settingNotes(for error: ProviderError) -> [String] {
        if error.isBodyTooLarge { return ["set max-body raises the limit (set max-body 200MB), or lifts it (set max-body off)"] }
        if error.isTooManyRedirects {
            return ["set follow N (or a target's follow N) follows more; set follow off answers with the redirect itself"]
        }
        return []
    }

    /// An answer whose body went to a file (`> FILE`), with that body read back for queries, `expect`
    /// and the history when it is no larger than `set max-body`; a larger one stays only in the file.
    /// A body sent to what is not a regular file (`> /dev/null`) was kept as it went.
    private func readBack(_ response: Response) -> Response {
        // Only a regular file is read back: reading /dev/stdout, a terminal or a FIFO could wait forever.
        guard response.body.isEmpty, let saved = response.streamedBodyBytes, saved > 0, let path = response.request.responseBodyFile,
              saved <= options.maxBody ?? Int.max, BodyFile.isRegularFile(path),
              let body = FileManager.default.contents(atPath: path) else { return response }
        var response = response
        response.body = body
        return response
    }

    /// The file of `> FILE`, checked writable before the call so that the answer's body can be
    /// written to it as it arrives, with no size limit; nil with no `> FILE`, or under `set record`,
    /// which keeps the body to save it as a sample.
    func streamedBodyFile(_ outputWord: Word?) throws -> String? {
        guard let outputWord, options.record == nil else { return nil }
        let path = Environment.expandingHome(try expand(outputWord).text)
        if let reason = BodyFile.checkWritable(path) {
            throw failure("cannot write '\(path.shortened())': \(reason)", at: outputWord.span)
        }
        return path
    }

    /// What prints the body of a live call's answer as it arrives, when that body goes to stdout and
    /// the answer is one to stream: into a pipe (or with `set output raw`) every accepted answer,
    /// as curl writes them; at a terminal, where bodies are pretty printed whole, an answer of a
    /// streaming media type (server-sent events, NDJSON, JSON lines) or any with `--stream`, unless
    /// it is binary or in a charset that needs converting. Only a 2xx answer the target's `validate`
    /// accepts is streamed: another may be retried, or ends as an error showing its body. The body
    /// is still kept for queries, within `set max-body`; past it, it is printed but not kept.
    func streamedOutput(for target: Target, output outputWord: Word?, forced: Bool) -> StreamedOutput? {
        guard outputWord == nil, options.record == nil, options.stub == .off else { return nil }
        let mode = outputOverride ?? options.output ?? (io.stdoutIsTerminal ? .pretty : .raw)
        guard mode == .raw || mode == .pretty else { return nil }
        let validation = target.validationType
        let atTerminal = io.stdoutIsTerminal
        let spinner = activePlugins().lazy.compactMap { $0 as? LoadingPlugin }.first
        let name = target.name
        return StreamedOutput(io: io, takes: { status, headers in
            // Another status may be retried by a plugin, or is the call's error: its body is shown whole.
            guard (200..<300).contains(status), validation.accepts(status) else { return false }
            let type = headers.value(named: "Content-Type")
            if mode == .pretty, !forced, !StreamedOutput.isStreamingType(type) { return false }
            guard atTerminal else { return true }
            return mode == .raw || (!CharsetDecoding.needsConversion(type) && !ResponsePrinter.isBinaryType(type))
        }, started: { spinner?.answerArrives(for: name) })
    }

    /// Prints the body by the output setting, or writes it to a file; the status line goes to stderr
    /// at a terminal, unless `statusLine` is false (HTTPie's `-b`: only the body).
    func write(_ response: Response, to outputWord: Word?, statusLine: Bool = true) throws {
        // `set output all` and `headers` print the status line with the headers, on stdout.
        // An action's output is its state's echo: a call in it shows no status line, piped or not.
        if statusLine, io.stderrIsTerminal, actionChain.isEmpty, ![.quiet, .all, .headers].contains(outputOverride ?? options.output) {
            io.err(styled: StatusLine.text(response, stubbed: options.stub != .off, color: options.colorEnabled) + "\n")
        }
        // Already written to its file, or printed, as it arrived (``streamedBodyFile(_:)``,
        // ``streamedOutput(for:output:forced:)``).
        if response.streamedBodyBytes != nil { return }
        if let outputWord {
            let path = Environment.expandingHome(try expand(outputWord).text)
            if let reason = BodyFile.write(response.body, to: path) {
                throw failure("cannot write '\(path.shortened())': \(reason)", at: outputWord.span)
            }
            return
        }
        let output = outputOverride ?? options.output ?? (io.stdoutIsTerminal ? .pretty : .raw)
        ResponsePrinter(io: io, color: paintsStdout, redaction: { self.redaction }, targetName: response.targetName)
            .print(response, as: output)
    }
}

/// `HTTP 200 OK  143 ms  412 B`; `HTTP 200 OK  stub  0 ms  412 B` for an answer from a sample.
enum StatusLine {
    static func text(_ response: Response, stubbed: Bool = false, color: Bool) -> String {
        let ms = Int(response.elapsed.milliseconds.rounded())
        let status = TerminalText.escaped("HTTP \(response.status) \(response.reason)")
        let colored = !color ? status : (response.status < 400 ? "\u{1B}[32m" : "\u{1B}[31m") + status + "\u{1B}[0m"
        return "\(colored)  \(stubbed ? "stub  " : "")\(ms) ms  \(ByteText.text(response.streamedBodyBytes ?? response.body.count))"
    }
}
