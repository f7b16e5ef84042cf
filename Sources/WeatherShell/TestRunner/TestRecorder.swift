import Foundation
import Targets

/// Builds a ``TestFileResult`` from the events of one file's run: the worker's reporter.
///
/// Every text is masked as it is recorded, with the ``Redaction`` the last call carried, the
/// session's secrets then and the values of the `env NAME`s the file names, so nothing later can
/// leak what it never held. When the file ends, every record is masked once more with the session's
/// secrets that some record was made without (a value typed in a check before the `let k = env
/// NAME` line that makes it a secret), on top of what it was masked with. The last call's own
/// credentials are no such secret: they mask what shows that call, not the calls before it.
@ShellActor
final class TestRecorder: RunReporter {
    /// Bodies up to this size are kept in the result (masked first, then cut).
    nonisolated static let keptBodyLimit = 64 * 1024
    /// Bodies larger than this are not masked nor kept: masking parses the whole body.
    nonisolated static let maskedBodyLimit = 4 * 1024 * 1024

    private let path: String
    private let started = ContinuousClock.now
    private var calls: [TestCallRecord] = []
    private var checks: [TestCheckRecord] = []
    private var errors: [TestErrorRecord] = []
    private var warnings: [String] = []
    private var firstFailure: TestFailure?
    /// Where an interrupt (Ctrl-C, SIGTERM) stopped the file, and the call it stopped: an error
    /// of the file when the file was interrupted (an action's call stopped by a newer action is not).
    private var interruption: TestErrorRecord?
    private var lastCallRedaction = Redaction()
    /// The session's secrets now (`--secret`, and the values `let … = env NAME` read): a file's
    /// text is masked with them before its first call too, a check or error excerpt that quotes one among them.
    var sessionSecrets: () -> SecretSet = { SecretSet() }
    /// The session's own secrets now, without the last call's credentials (which
    /// ``sessionSecrets`` holds): `--secret`, the values `let … = env NAME` read and those made from them.
    var sessionWideSecrets: () -> SecretSet = { SecretSet() }
    /// The values of the environment variables the file and the files it sources name (`env
    /// NAME`), secrets from the file's first line on: a file that does not parse never runs the
    /// `let` that would make them secrets.
    private var namedEnvironmentValues: [String] = []
    /// The files whose `env NAME`s are in ``namedEnvironmentValues``, by name.
    private var namedEnvironmentFiles: Set<String> = []
    /// What the event being recorded is masked with: the last call's redaction with the session's
    /// secrets then and ``namedEnvironmentValues``.
    private var redaction = Redaction()
    /// The session-wide secret values (the session's and ``namedEnvironmentValues``) that every
    /// event so far was masked with; nil before the first event. The others are masked again when the file ends.
    private var sharedAtEveryEvent: Set<String>?
    /// A diagnostic a failed check, an error or the first failure was made from, and the
    /// redaction it was masked with: its excerpt is cut again from the source when the file ends.
    private struct Cut {
        var diagnostic: Diagnostic
        var redaction: Redaction
    }
    /// The diagnostics of the failed checks and of the errors, by index.
    private var checkCuts: [Int: Cut] = [:]
    private var errorCuts: [Int: Cut] = [:]
    private var firstFailureCut: Cut?
    /// The last call's answer, whose body is masked and kept only if a failed check looks at it
    /// or the file ends there: masking every body cost each call its parse, and keeping them all
    /// made a loop of calls a result of hundreds of MB.
    private var pendingBody: (index: Int, response: Response, redaction: Redaction)?

    /// Whether every call's bodies are kept (`wsh test --report-har`), not only those a failed check saw.
    private let keepsEveryBody: Bool

    init(path: String, keepsEveryBody: Bool = false) {
        self.path = path
        self.keepsEveryBody = keepsEveryBody
    }

    private var now: Double { Self.milliseconds(started.duration(to: .now)) }

    nonisolated static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    func report(_ event: RunEvent) {
        if case .call(_, _, _, _, let callRedaction, _) = event { lastCallRedaction = callRedaction }
        redaction = currentRedaction()
        switch event {
        case .call(let target, let unanswered, let response, let failure, _, let callStarted):
            record(target: target, unanswered: unanswered, response: response, failure: failure, started: callStarted)
        case .expect(let result):
            let (line, column) = result.file.location(of: Self.expressionStart(result))
            checks.append(TestCheckRecord(source: redaction.mask(result.source), file: result.file.name, line: line, column: column,
                                          passed: result.passed, atMilliseconds: now, callIndex: calls.isEmpty ? nil : calls.count - 1))
            if !result.passed { keepPendingBody() }
        case .error(let diagnostic):
            record(diagnostic)
        case .warning(let text):
            let masked = redaction.mask(text)
            if !warnings.contains(masked) { warnings.append(masked) }
        case .interrupted(let file, let span):
            // The innermost statement reports first: a block around it says nothing more.
            guard interruption == nil else { return }
            let (line, column) = file.location(of: span.start)
            let message = "interrupted by \(Interruption.name)"
            var notes: [String] = []
            if let call = calls.last, call.failure?.hasPrefix("interrupted") == true {
                notes.append("the call in flight: \(call.method ?? "GET") \(call.url ?? "")")
            }
            interruption = TestErrorRecord(kind: "interrupted", message: message, file: file.name, line: line, column: column, notes: notes,
                                           rendered: "\(file.name):\(line):\(column): \(message)\n" + notes.map { "note: \($0)\n" }.joined())
        }
    }

    /// The last call's redaction with the session's secrets now and ``namedEnvironmentValues``;
    /// the session-wide ones (``sharedSecrets()``) are noted in ``sharedAtEveryEvent``.
    private func currentRedaction() -> Redaction {
        let values = Set(sharedSecrets().values)
        sharedAtEveryEvent = sharedAtEveryEvent?.intersection(values) ?? values
        return Redaction(secrets: lastCallRedaction.secrets.adding(sessionSecrets().values + namedEnvironmentValues))
    }

    /// The secrets of the whole session now, not the last call's credentials: its own
    /// (``sessionWideSecrets``) and ``namedEnvironmentValues``.
    private func sharedSecrets() -> SecretSet {
        sessionWideSecrets().adding(namedEnvironmentValues)
    }

    /// Adds the values of the `env NAME`s `file` names to the secrets, once per file: the file
    /// being run before it starts, a sourced one when its error comes.
    func nameEnvironment(of file: SourceFile) {
        guard namedEnvironmentFiles.insert(file.name).inserted else { return }
        for value in NamedEnvironment.values(namedIn: file) where !namedEnvironmentValues.contains(value) {
            namedEnvironmentValues.append(value)
        }
    }

    private func record(target: String, unanswered: Request?, response: Response?, failure: String?, started callStarted: ContinuousClock.Instant) {
        let ended = now
        // An answer says how long it took; a call with none (a timeout, Ctrl-C) took from its start to now.
        let elapsed = response.map { Self.milliseconds($0.elapsed) } ?? Self.milliseconds(callStarted.duration(to: .now))
        var call = TestCallRecord(target: target, startMilliseconds: max(0, ended - elapsed), milliseconds: elapsed)
        call.failure = failure.map(redaction.mask)
        if let response {
            // The request the test made, the first: after redirects, `response.request` is the last hop's.
            let sent = response.firstRequest
            // A secret sent on one hop is masked in every hop's URL, as the call history masks them.
            let redaction = response.hops.isEmpty ? self.redaction : self.redaction.including(secretsSentFor: response)
            call.method = sent.method.rawValue
            call.url = redaction.maskedURL(sent.url)
            if !response.hops.isEmpty {
                call.finalUrl = redaction.maskedURL(response.request.url)
                call.redirects = response.hops.map { hop in
                    TestRedirect(method: hop.request.method.rawValue, url: redaction.maskedURL(hop.url), status: hop.status,
                                 location: hop.headers.last { $0.name.lowercased() == "location" }.map { redaction.maskedURL($0.value) })
                }
            }
            call.status = response.status
            call.reason = response.reason
            call.requestHeaders = sent.headers.map { TestHeader(redaction.maskedHeader($0)) }
            call.responseHeaders = response.headers.map { TestHeader(redaction.maskedHeader($0)) }
            call.bodyBytes = response.streamedBodyBytes ?? response.body.count
        } else if let unanswered {
            // No answer (a timeout, a refused connection): what was sent still says which call failed.
            call.method = unanswered.method.rawValue
            call.url = redaction.maskedURL(unanswered.url)
            call.requestHeaders = unanswered.headers.map { TestHeader(redaction.maskedHeader($0)) }
        }
        calls.append(call)
        pendingBody = response.map { (calls.count - 1, $0, redaction) }
        if keepsEveryBody, let response {
            let sent = response.firstRequest
            if let body = sent.body, !body.isEmpty, body.count <= Self.maskedBodyLimit {
                calls[calls.count - 1].requestBody = Self.cut(redaction.maskedBody(body, contentType: sent.headers.last {
                    $0.name.lowercased() == "content-type" }?.value), to: Self.keptBodyLimit)
            }
            keepPendingBody()
        }
    }

    /// Masks and keeps the body of the last call's answer.
    private func keepPendingBody() {
        guard let (index, response, redaction) = pendingBody else { return }
        pendingBody = nil
        // A body printed as it arrived keeps its copy in `body`; one written to a file does not.
        guard response.streamedBodyBytes == nil || !response.body.isEmpty, response.body.count <= Self.maskedBodyLimit else { return }
        if ResponsePrinter.isBinary(response.body, contentType: response.header("Content-Type")) {
            // Its bytes as they came, unless a secret is spelled out in them, or they are JSON
            // that names a credential (`"password"`, with one byte that is not UTF-8).
            let decoded = String(decoding: response.body, as: UTF8.self)
            guard redaction.mask(decoded) == decoded,
                  !Redaction.opensJSONContainer(response.body) || Redaction.namesNothingSensitive(response.body) else { return }
            calls[index].bodyBase64 = response.body.prefix(Self.keptBodyLimit).base64EncodedString()
            calls[index].bodyCut = response.body.count > Self.keptBodyLimit
            return
        }
        let text = redaction.maskedBody(response.body, contentType: response.header("Content-Type"))
        calls[index].body = Self.cut(text, to: Self.keptBodyLimit)
        calls[index].bodyCut = calls[index].body?.utf8.count != text.utf8.count
    }

    private func record(_ reported: Diagnostic) {
        // The run masked it with the session's secrets; the files' named environment values are masked here.
        if let file = reported.file, !namedEnvironmentFiles.contains(file.name) {
            nameEnvironment(of: file)
            redaction = currentRedaction()
        }
        let diagnostic = reported.masked(redaction.maskedDecodingJSON)
        let location = diagnostic.file.flatMap { file in diagnostic.span.map { file.location(of: $0.start) } }
        let place = location.map { "\(diagnostic.file?.name ?? path):\($0.line):\($0.column)" } ?? path
        // A failed `expect` was recorded as a check just before: its diagnostic gives the check
        // its message. One that could not be evaluated is an error of the file as well. A failed
        // one a reactor's `catch` ran after (checks of its own, maybe) comes once the `catch` ends.
        var checkIndex: Int?
        let excerpt = Self.excerpt(of: diagnostic, mask: redaction.mask)
        let failedCheck = diagnostic.kind == .expectation
            ? checks.lastIndex { !$0.passed && $0.message == nil }
            : checks.indices.last.flatMap { !checks[$0].passed && checks[$0].message == nil ? $0 : nil }
        if let last = failedCheck {
            let check = checks[last]
            if firstFailure == nil {
                // Where the caret is: the error's place (`$undefined`), the expression's without one.
                firstFailure = TestFailure(location: location == nil ? "\(check.file):\(check.line):\(check.column)" : place,
                                           message: diagnostic.message, notes: diagnostic.notes,
                                           excerpt: excerpt)
                firstFailureCut = Cut(diagnostic: diagnostic, redaction: redaction)
            }
            checks[last].message = diagnostic.message
            checks[last].notes = diagnostic.notes
            checks[last].excerpt = excerpt
            checkCuts[last] = Cut(diagnostic: diagnostic, redaction: redaction)
            if diagnostic.kind == .expectation { return }
            checkIndex = last
        }
        if firstFailure == nil {
            firstFailure = TestFailure(location: place, message: diagnostic.message, notes: diagnostic.notes, excerpt: excerpt)
            firstFailureCut = Cut(diagnostic: diagnostic, redaction: redaction)
        }
        errorCuts[errors.count] = Cut(diagnostic: diagnostic, redaction: redaction)
        errors.append(TestErrorRecord(kind: Self.kindName(diagnostic.kind), message: diagnostic.message, file: diagnostic.file?.name,
                                      line: location?.line, column: location?.column, notes: diagnostic.notes,
                                      rendered: diagnostic.rendered(mask: redaction.mask), excerpt: excerpt, checkIndex: checkIndex))
    }

    /// The diagnostic's source line and caret, masked by `mask`; nil when it has no place in a file.
    private static func excerpt(of diagnostic: Diagnostic, mask: (String) -> String) -> String? {
        guard let file = diagnostic.file, let span = diagnostic.span, file.place == nil else { return nil }
        return Diagnostic.excerpt(file: file, span: span, mask: mask)
    }

    /// The result with every text masked once more with the session-wide secrets some event was
    /// masked without. An excerpt and an error's rendered text are cut again from their diagnostic
    /// with the secrets it was masked with and those, as a secret cut at a window's edge would not
    /// match a mask applied afterwards.
    private func maskedAgain(_ result: TestFileResult) -> TestFileResult {
        let late = sharedSecrets().values.filter { sharedAtEveryEvent?.contains($0) != true }
        guard !late.isEmpty else { return result }
        var result = result
        let lateRedaction = Redaction(secrets: late)
        result.mask(with: lateRedaction)
        func redaction(of cut: Cut) -> Redaction { Redaction(secrets: cut.redaction.secrets.adding(late)) }
        // A message and its notes are masked again from their diagnostic too: in their values
        // only, where wsh's words are told apart (`doe` learned late must not garble "does").
        func masked(_ cut: Cut) -> Diagnostic { cut.diagnostic.masked(redaction(of: cut).maskedDecodingJSON) }
        for (index, cut) in checkCuts where result.checks.indices.contains(index) {
            let diagnostic = masked(cut)
            result.checks[index].message = diagnostic.message
            result.checks[index].notes = diagnostic.notes
            result.checks[index].excerpt = Self.excerpt(of: cut.diagnostic, mask: redaction(of: cut).mask)
        }
        for index in result.errors.indices {
            guard let cut = errorCuts[index] else {
                // An exit code's or an interrupt's error: no source line, its text made here.
                result.errors[index].rendered = lateRedaction.maskedDecodingJSON(result.errors[index].rendered)
                continue
            }
            let mask = redaction(of: cut)
            let diagnostic = masked(cut)
            result.errors[index].message = diagnostic.message
            result.errors[index].notes = diagnostic.notes
            result.errors[index].excerpt = Self.excerpt(of: cut.diagnostic, mask: mask.mask)
            result.errors[index].rendered = diagnostic.rendered(mask: mask.maskedDecodingJSON)
        }
        if let cut = firstFailureCut {
            let diagnostic = masked(cut)
            result.firstFailure?.message = diagnostic.message
            result.firstFailure?.notes = diagnostic.notes
            result.firstFailure?.excerpt = Self.excerpt(of: cut.diagnostic, mask: redaction(of: cut).mask)
        }
        return result
    }

    /// Where the expression of an `expect` starts, after the keyword: where a failure points.
    private static func expressionStart(_ result: ExpectationResult) -> Int {
        let keyword = "expect "
        let start = result.span.start
        let text = result.file.text(start..<min(result.span.end, start + keyword.utf8.count))
        return text == keyword ? start + keyword.utf8.count : start
    }

    private static func kindName(_ kind: FailureKind) -> String {
        switch kind {
        case .usage: "usage"
        case .parse: "parse"
        case .runtime: "runtime"
        case .expectation: "expectation"
        case .interrupted: "interrupted"
        }
    }

    /// The result of the file, which ended with `exitCode`, `interrupted` when by Ctrl-C or SIGTERM.
    func result(exitCode: Int32, interrupted: Bool) -> TestFileResult {
        keepPendingBody()
        if exitCode != 0, !interrupted, errors.isEmpty, !checks.contains(where: { !$0.passed }) {
            // `exit 4` or `exit 3` with nothing failed before it: a failure, or an error, of its own in every report.
            let message = "the file exited with code \(exitCode)"
            errors.append(TestErrorRecord(kind: exitCode == FailureKind.expectation.exitCode ? "expectation" : "runtime", message: message,
                                          file: path, rendered: "\(path): \(message)"))
            if firstFailure == nil { firstFailure = TestFailure(location: path, message: message) }
        }
        let outcome: TestFileResult.Outcome
        // 130 after Ctrl-C, 143 after SIGTERM: `exit 130` written in the file is its own verdict.
        if interrupted, exitCode == Interruption.exitCode {
            outcome = .interrupted
            if let interruption {
                errors.append(interruption)
                if firstFailure == nil {
                    firstFailure = TestFailure(location: "\(interruption.file ?? path):\(interruption.line ?? 1):\(interruption.column ?? 1)",
                                               message: interruption.message, notes: interruption.notes)
                }
            }
        } else if errors.contains(where: { $0.kind != "expectation" }) {
            outcome = .errored
        } else if checks.contains(where: { !$0.passed }) || !errors.isEmpty || exitCode != 0 {
            // An `until` that ran out fails the file even where `set bail off` let it go on to `exit 0`.
            outcome = .failed
        } else {
            outcome = .passed
        }
        var result = TestFileResult(path: path, outcome: outcome, milliseconds: now)
        result.calls = calls
        result.checks = checks
        result.errors = errors
        result.warnings = warnings
        result.firstFailure = firstFailure
        return maskedAgain(result)
    }

    /// The text cut to at most `limit` UTF-8 bytes, at a character boundary.
    static func cut(_ text: String, to limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: limit)
        while end > text.startIndex, end.samePosition(in: text.unicodeScalars) == nil {
            end = text.utf8.index(before: end)
        }
        return String(text.unicodeScalars[..<end])
    }
}

extension TestHeader {
    init(_ header: Header) {
        self.init(name: header.name, value: header.value)
    }
}
