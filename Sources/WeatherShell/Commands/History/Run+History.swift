import CallHistory
import Foundation
import Plugins
import Targets

/// `history`: the calls of every session, recorded in the call history (``CallLog``).
extension Run {
    /// The smallest `set history-size`: 64 KB, a few calls.
    static let smallestHistorySize = 64 << 10

    /// Hands one call to the call history, unless `set history off`; returns at once (the log's
    /// own thread masks and writes it). A call that sent nothing (a missing parameter) is not one.
    /// `ownAuth`: the call had its own credential (`-a`), which sent an Authorization header.
    func recordInHistory(_ target: Target, _ arguments: CallArguments, request: Request?, response: Response?,
                         failure: String?, started: ContinuousClock.Instant, ownAuth: Bool) {
        guard options.history, let log = session.callLog, let request = response?.request ?? request else { return }
        var entry = CallEntry(target: target.name, arguments: arguments, request: request, response: response, failure: failure,
                              // The session's secrets and the call's proxy's: the entry adds what its own request sent.
                              elapsed: .now - started, stubbed: options.stub != .off,
                              redaction: Redaction(secrets: session.mask.secrets.adding(session.lastProxyCredentials)))
        entry.sessionHeaders = sessionHeaders(of: response?.firstRequest ?? request, target, arguments, ownAuth: ownAuth)
        log.record(entry, sizeLimit: options.historySize)
    }

    /// The headers of `sent` that the session added rather than the call: the cookie jar's Cookie
    /// and an auth plugin's header (Authorization, or the name it was given), unless the call
    /// carried one of that name itself (its target's or arguments' headers, its URL's user info,
    /// its own `-a`).
    private func sessionHeaders(of sent: Request, _ target: Target, _ arguments: CallArguments, ownAuth: Bool) -> [String] {
        var typed = Set((target.headers + arguments.headers).map { $0.name.lowercased() })
        if ownAuth || URLComponents(string: target.baseURL)?.user != nil { typed.insert("authorization") }
        return sent.headers.map(\.name).filter { name in
            let lowered = name.lowercased()
            return !typed.contains(lowered) && (lowered == "cookie" || lowered == "authorization" || sent.credentialHeaderNames.contains(lowered))
        }
    }

    /// What the call history could not do since the last statement, each kind once: on stderr, and
    /// the run goes on (it is not the statement's failure).
    func reportHistoryNotices() {
        guard let log = session.callLog else { return }
        for notice in log.takeNotices() { io.err("wsh: \(notice)\n") }
    }

    /// `history [N | PATTERN [N]]`, `history show N`, `history replay N [ARGS...]`.
    func history(_ arguments: [Word], command: Word) async throws {
        guard let log = session.callLog else {
            throw failure("this shell keeps no call history", at: command.span)
        }
        let texts = try arguments.map { try expand($0).text }
        // What writing met so far is said before what reading meets.
        _ = try await offLoop { log.flush(within: 5) }
        reportHistoryNotices()
        switch texts.first {
        case "show"?:
            guard texts.count == 2 else { throw failure("usage: history show N", at: command.span) }
            showCall(try storedCall(texts[1], word: arguments[1], in: log))
        case "export"?:
            try await exportHistory(texts, arguments, log: log, command: command)
        case "replay"?:
            let usage = "usage: history replay N [key=value...] [Header:value...] [> FILE]"
            guard texts.count >= 2 else { throw failure(usage, at: command.span) }
            // `> FILE` writes the answer's body to FILE, as after `call`.
            var extra = Array(arguments.dropFirst(2))
            var output: Word?
            if let arrow = extra.firstIndex(where: { $0.bare == ">" }) {
                guard arrow == extra.count - 2 else { throw failure(usage, at: extra[arrow].span) }
                output = extra[arrow + 1]
                extra.removeLast(2)
            }
            try await replay(try storedCall(texts[1], word: arguments[1], in: log), extra: extra, output: output, command: command)
        default:
            var pattern: String?
            var count = 20
            for (index, text) in texts.enumerated() {
                if let number = Int(text), number > 0, index == texts.count - 1 {
                    count = number
                } else if index == 0 {
                    pattern = text
                } else {
                    throw failure("usage: history [N | PATTERN [N]]", at: arguments[index].span)
                }
            }
            let calls: [CallSummary]
            do {
                let (wanted, matching) = (count, pattern)
                calls = try await offLoop { try log.recent(wanted, matching: matching) }
            } catch {
                throw failure("\(error)", at: command.span)
            }
            guard !calls.isEmpty else {
                io.err(pattern.map { "no call in the history matches '\($0.shortened())'\n" } ?? "no calls in the history yet\n")
                return
            }
            listCalls(calls)
        }
    }

    /// `history export har [N | FIRST-LAST] [> FILE]`: the calls (the last N, those numbered FIRST
    /// to LAST, else the newest 10,000) as a HAR 1.2 document (``HARDocument``), as the history
    /// holds them: secrets masked.
    private func exportHistory(_ texts: [String], _ words: [Word], log: CallLog, command: Word) async throws {
        let usage = "usage: history export har [N | FIRST-LAST] [> FILE.har]"
        guard texts.count >= 2, texts[1] == "har" else { throw failure(usage, at: words.dropFirst().first?.span ?? command.span) }
        var restWords = Array(words.dropFirst(2))
        let outputPath = try takeOutputFile(&restWords, usage: usage)
        let rest = try restWords.map { try expand($0).text }
        guard rest.count <= 1 else { throw failure(usage, at: words[3].span) }
        var count = 10_000
        var range: ClosedRange<Int64>?
        if let text = rest.first {
            let bounds = text.split(separator: "-", maxSplits: 1).map { Int64($0) }
            if bounds.count == 1, let number = bounds[0], number > 0 {
                count = Int(number)
            } else if bounds.count == 2, let first = bounds[0], let last = bounds[1], first <= last {
                range = first...last
            } else {
                throw failure(usage, at: words[2].span, notes: ["N is a number of calls, FIRST-LAST the calls' numbers, as history lists them"])
            }
        }
        let calls: [StoredCall]
        do {
            let wanted = range == nil ? count : 10_000
            let summaries = try await offLoop { try log.recent(wanted) }.filter { range?.contains($0.id) ?? true }
            calls = try await offLoop { try summaries.compactMap { try log.call($0.id) } }
        } catch {
            throw failure("\(error)", at: command.span)
        }
        // Masked as the history was; again, for a secret set since.
        let text = mask(HARDocument.text(calls.map(HARDocument.Entry.init), creatorVersion: Shell.version))
        try writeOutput(text, to: outputPath, at: command.span)
        if let outputPath { io.err("wrote \(calls.count) call\(calls.count == 1 ? "" : "s") to \(Self.displayPath(outputPath))\n") }
    }

    /// `#  time  target  method  URL  status  ms`, in columns, oldest first.
    private func listCalls(_ calls: [CallSummary]) {
        let rows = calls.map { call in
            [String(call.id), Self.timeText(call.time), call.target, call.method, mask(call.url),
             call.status.map { String($0) + (call.stubbed ? " stub" : "") } ?? "failed",
             String(Int(call.elapsedMilliseconds.rounded()))]
        }
        // At a terminal a row fits its width (`history show N` has every column whole).
        let columns = io.stdoutIsTerminal ? Pager.terminalSize()?.columns : nil
        for line in Self.historyTable(rows, columns: columns) {
            io.out(mask(line) + "\n")
        }
    }

    /// The columns of `history`'s listing, in the order a narrow terminal gives them up, each for
    /// a URL that has room enough: the time, the method, the ms, the target (`#`, the URL and the
    /// status stay).
    private static let givenUpColumns = [1, 3, 6, 2]

    /// The listing's lines: the header, then `rows` (cells as ``listCalls(_:)`` makes them) in
    /// columns. Within `columns`, each line fits: a long URL is cut with `…`, and when even a URL
    /// cut to 12 columns leaves a line too wide, columns are left out (``givenUpColumns``).
    static func historyTable(_ rows: [[String]], columns: Int?) -> [String] {
        let header = ["#", "time", "target", "method", "URL", "status", "ms"]
        let urlColumn = 4
        var shown = Array(header.indices)
        var rows = rows
        var widths = header.indices.map { column in ([header] + rows).map { TerminalColumns.width(of: $0[column].unicodeScalars) }.max() ?? 0 }
        if let columns {
            /// The columns the cells other than the URL take, with the two blanks between each two.
            func others() -> Int { shown.filter { $0 != urlColumn }.reduce(0) { $0 + widths[$1] } + 2 * (shown.count - 1) }
            let enough = min(12, widths[urlColumn])
            for column in givenUpColumns where columns - others() < enough {
                shown.removeAll { $0 == column }
            }
            let room = max(2, columns - others())
            if widths[urlColumn] > room {
                for index in rows.indices where TerminalColumns.width(of: rows[index][urlColumn].unicodeScalars) > room {
                    rows[index][urlColumn] = TerminalColumns.prefix(rows[index][urlColumn], columns: room - 1) + "…"
                }
                widths[urlColumn] = room
            }
        }
        let numeric: Set<Int> = [0, 6]
        return ([header] + rows).map { row in
            let cells = shown.map { column in
                let cell = row[column]
                let pad = String(repeating: " ", count: max(0, widths[column] - TerminalColumns.width(of: cell.unicodeScalars)))
                return numeric.contains(column) ? pad + cell : cell + pad
            }
            return cells.joined(separator: "  ").trimmingTrailingBlanks()
        }
    }

    /// `2025-06-01 14:03:22`, local time.
    static func timeText(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func storedCall(_ text: String, word: Word, in log: CallLog) throws -> StoredCall {
        guard let id = Int64(text), id > 0 else {
            throw failure("'\(text.shortened())' is not a call number; 'history' lists them", at: word.span)
        }
        let call: StoredCall?
        do {
            call = try log.call(id)
        } catch {
            throw failure(error.description, at: word.span)
        }
        guard let call else { throw failure("the history has no call \(id)", at: word.span, notes: ["'history' lists the calls it has"]) }
        return call
    }

    /// The request as sent (line, headers, body) and the answer (status line, headers, body), masked.
    private func showCall(_ call: StoredCall) {
        let summary = call.summary
        io.out("call \(summary.id)  \(Self.timeText(summary.time))  target \(summary.target)  \(Int(summary.elapsedMilliseconds.rounded())) ms"
               + (summary.stubbed ? "  (answered from a sample)" : "") + "\n")
        io.out("\(summary.method) \(summary.url)\n")
        for header in call.requestHeaders { io.out("\(header.name): \(header.value)\n") }
        if let body = call.requestBody, !body.isEmpty {
            io.out("\n")
            showBody(body, contentType: call.requestHeaders.last { $0.name.lowercased() == "content-type" }?.value)
        }
        io.out("\n")
        if let finalURL = call.finalURL { io.out("(redirected to \(finalURL))\n") }
        guard let status = summary.status else {
            io.out("no answer: \(summary.failure ?? "the call failed")\n")
            return
        }
        let request = Request(method: HTTPMethod(rawValue: summary.method) ?? .get, url: summary.url, headers: call.requestHeaders)
        let response = Response(status: status, reason: call.reason ?? "", headers: call.responseHeaders ?? [], body: call.body ?? Data(),
                                elapsed: .milliseconds(double: summary.elapsedMilliseconds), request: request, targetName: summary.target)
        ResponsePrinter(io: io, color: paintsStdout, redaction: { self.redaction }, targetName: summary.target).print(response, as: .all)
        // Into a pipe the body goes as it came: what follows starts on a line of its own.
        if !io.stdoutIsTerminal, let last = response.body.last, last != UInt8(ascii: "\n") { io.out("\n") }
        if let size = call.bodySize, size > (call.body?.count ?? 0) {
            io.out("[the body was \(ByteText.text(size)); the history keeps its first \(ByteText.text(call.body?.count ?? 0))]\n")
        }
        if let failure = summary.failure { io.out("failed: \(failure)\n") }
    }

    private func showBody(_ body: Data, contentType: String?) {
        if io.stdoutIsTerminal, ResponsePrinter.isBinary(body, contentType: contentType) {
            io.out("[binary body: \(ByteText.text(body.count))]\n")
            return
        }
        io.out(bytes: body)
        if body.last != UInt8(ascii: "\n") { io.out("\n") }
    }

    /// Sends a recorded call again. With its target declared in this session, the target is
    /// called again with the recorded arguments (`extra` ones replacing those of the same name),
    /// so every secret the target or a plugin adds is filled again from this session; an
    /// argument that held a secret was not kept and must be given again. Without the target, the
    /// recorded request is sent as it is, unless the history masked part of it.
    private func replay(_ call: StoredCall, extra: [Word], output: Word?, command: Word) async throws {
        let name = call.summary.target
        let target: Target
        var arguments = CallArguments()
        if let declared = session.targets[name] {
            if let missing = missingSample(declared) { throw failure(missing, at: command.span) }
            target = try compiledTarget(declared)
            let given = try callArguments(extra, for: target).arguments
            let givenNames = Set(given.values.map(\.name) + given.queryItems.map(\.name) + given.headers.map { $0.name.lowercased() })
            for text in call.arguments {
                // As the history wrote them: a text that starts with @ was written `name=@...`, a file `name@path`.
                let recorded: (name: String, value: ParameterValue)?
                switch RequestItem(text) {
                case .field(let parameter, let value): recorded = (parameter, value)
                case .fieldFromFile(let parameter, let rest, let json): recorded = (parameter, json ? .json("@" + rest) : .text("@" + rest))
                case .file(let parameter, let path, let type): recorded = (parameter, .file(FileReference(path: path, contentType: type).written))
                case .query(let name, let value) where !givenNames.contains(name):
                    if !call.maskedArguments.contains(name) { arguments.queryItems.append((name, value)) }
                    recorded = nil
                case .header(let header) where !givenNames.contains(header.name.lowercased()):
                    if !call.maskedArguments.contains(header.name) { arguments.headers.append(header) }
                    recorded = nil
                case .body(let path) where given.body == nil:
                    arguments.body = try bodyFile(path, at: command)
                    recorded = nil
                default: recorded = nil
                }
                if let (parameter, value) = recorded, !givenNames.contains(parameter), !call.maskedArguments.contains(parameter) {
                    arguments.values.append((parameter, value))
                }
            }
            let missing = call.maskedArguments.filter { !givenNames.contains($0) && !givenNames.contains($0.lowercased()) }
            if !missing.isEmpty {
                let forms = call.arguments.filter { text in missing.contains { text.hasPrefix($0 + "=") || text.hasPrefix($0 + ":") } }
                    .map { $0.replacingOccurrences(of: Redaction.placeholder, with: "VALUE") }
                throw failure("call \(call.summary.id) gave \(missing.map { "'\($0)'" }.joined(separator: ", ")) a secret, which the history does not keep",
                              at: command.span, notes: ["give it again: history replay \(call.summary.id) \(forms.joined(separator: " "))"])
            }
            arguments.values += given.values
            arguments.queryItems += given.queryItems
            arguments.headers += given.headers
            arguments.body = given.body ?? arguments.body
        } else {
            // What the session added (the jar's Cookie, a plugin's Authorization) is left to the jar
            // and the plugins in effect now; what the call itself gave and the history masked is refused.
            let withheld = call.withheldFromCall
            guard withheld.isEmpty else {
                throw failure("call \(call.summary.id) cannot be sent again as recorded: the history masked its "
                              + withheld.joined(separator: ", "), at: command.span,
                              notes: [name.hasPrefix("(")
                                  ? "an ad-hoc request has no target to fill its secrets from: type it again with them as variables from env"
                                  : "declare target '\(name)' (use its pack, or source its file) and replay: its secrets come from the session again"])
            }
            guard extra.isEmpty else {
                throw failure("arguments replace a call's own only when its target '\(name)' is declared", at: extra[0].span)
            }
            guard options.stub == .off else {
                throw failure("target '\(name)' is not declared, so it has no sample to answer with under set stub", at: command.span)
            }
            let added = call.sessionHeaders
            guard let method = HTTPMethod(rawValue: call.summary.method) else {
                throw failure("call \(call.summary.id) used the method \(call.summary.method), which wsh cannot send", at: command.span)
            }
            target = Target(name: name, baseURL: call.summary.url, method: method,
                            task: call.requestBody.map { .data($0, contentType: nil) } ?? .plain,
                            headers: call.requestHeaders.filter { !added.contains($0.name.lowercased()) })
        }
        let response: Response
        do {
            response = try await send(target, arguments)
        } catch let error as ProviderError {
            throw failure(error.description(masking: redaction), at: command.span)
        } catch let error as RecordingFailure {
            if let answer = lastResponse { try write(answer, to: output) }
            throw failure(error.description, at: command.span)
        }
        try write(response, to: output)
    }
}

private extension String {
    func trimmingTrailingBlanks() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// `history`: past calls across sessions
struct HistoryCommand: ShellCommand {
    static let entry = CommandCatalog.Entry(
        name: "history", usage: "history [N | PATTERN [N]] | history show N | history replay N [key=value...] [Header:value...] [> FILE] | history export har [N | FIRST-LAST] [> FILE]",
        summary: "past calls across sessions; one call's request and answer; send it again; write calls as HAR")

    static func completions(after previous: [String], word: String, in session: CompletionSnapshot) -> [String]? {
        if previous.count == 1 { return ["show", "replay", "export"] }
        if previous.count == 2, previous[1] == "export" { return ["har"] }
        return nil
    }

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        try await run.history(arguments, command: command)
    }
}
