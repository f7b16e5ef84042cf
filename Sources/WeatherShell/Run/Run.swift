import Foundation
import Targets

/// Stops a run: `exit`, or a failure while `set bail on`. Its diagnostic has already been printed.
public enum Halt: Error {
    case exit(Int32)
    case failure(FailureKind)
}

/// One execution over a ``Session``: the file being run, where its output goes, the last
/// response, the reactor action it is inside, and a reporter that sees every call, `expect`
/// and error. The prompt is one run; each reactor action runs as a child run of the run that
/// sent it; several runs, over one session or over separate ones, can proceed at once.
@ShellActor
public final class Run {
    /// Whether the run is a prompt (bail off) or a script, `-c` or piped input (bail on).
    public enum Mode { case interactive, script }

    public let session: Session
    public let io: ShellIO
    public let mode: Mode
    /// Told of every call, `expect` and error.
    public var reporter: (any RunReporter)?
    /// What this run shares with the run that started it, if any (``Outcomes``).
    let outcomes: Outcomes
    /// The files and packs being run, innermost last: `source` and `use` refuse a cycle, and targets
    /// declared while a pack loads are the pack's.
    var loading: [Loading] = []
    /// The file whose statements are running, for diagnostics and relative paths.
    var currentFile: SourceFile
    /// The first failure of a run with bail off; it decides the exit code at the end. An
    /// action's failures are its sender's too.
    public private(set) var firstFailure: FailureKind? {
        get { outcomes.firstFailure }
        set { outcomes.firstFailure = newValue }
    }
    /// The answer of the last call, for queries and `expect`; an action's call is its sender's too.
    /// Its body is parsed as JSON once, when a query first needs it.
    var lastResponse: Response? {
        get { outcomes.lastResponse }
        set { outcomes.lastResponse = newValue }
    }
    /// Why the last call got no response (masked), when it got none: queries and `expect` say
    /// so instead of reading the answer of the call before it.
    var lastCallGotNoResponse: String? {
        get { outcomes.lastCallGotNoResponse }
        set { outcomes.lastCallGotNoResponse = newValue }
    }
    /// The target and arguments of the last call that sent something, for `target NAME from last`.
    var lastCall: (target: Target, arguments: CallArguments)? {
        get { outcomes.lastCall }
        set { outcomes.lastCall = newValue }
    }
    /// Set in the run of a declared reactor's action: where its `emit`s go.
    private(set) var actionContext: ActionContext?
    /// The reactor commands running inside one another, outermost first: `r9 a`, `r8 a`, ...
    var actionChain: [(reactor: String, action: String)] = []
    /// The action's parameters and `$error`: they hide session variables of the same name for the action only.
    var locals = Variables()
    /// The names that are the run's own (``locals``), set or not: an unset parameter is undefined,
    /// not the session's variable of that name.
    private(set) var localNames: Set<String> = []
    /// `quiet` in an action's run (its calls print nothing), or what `set output` chose in it.
    var outputOverride: ShellOptions.Output?
    /// While an `until` block runs a round that may not be its last, that round's `expect`s, kept
    /// until the round's end says whether they count; nil when checks count as they run.
    var provisionalChecks: [CheckedExpectation]?
    /// A bare `exit` ended an `until` round: its code, its first error's, is taken once the
    /// round's held-back checks are settled.
    var bareExitPending = false
    /// Whether an error about the server's answer ended such a round: a later round may get another answer.
    var answerFailedInRound = false
    /// At the prompt, the file sourced there whose `exit` ended the entry: the prompt stays and
    /// says so (``PromptLoop``), where an `exit` typed at the prompt ends the session.
    var exitedSourcedFile: String?
    /// The file that said that `exit`, when another file it sourced said it (`g.wsh` sourced
    /// `f.wsh`): the note names both.
    var exitSaidIn: String?
    /// At the prompt, the action whose `exit` ended the entry (``Outcomes/exitedAction``).
    var exitedAction: String? {
        get { outcomes.exitedAction }
        set { outcomes.exitedAction = newValue }
    }

    /// A run over a new session, with bail and color following `mode` and the terminal.
    public convenience init(io: ShellIO, mode: Mode) {
        self.init(session: Session(bail: mode == .script, color: io.stdoutIsTerminal && !Environment.noColor), io: io, mode: mode)
    }

    /// A run over `session`.
    public convenience init(session: Session, io: ShellIO, mode: Mode, reporter: (any RunReporter)? = nil) {
        let file = SourceFile(name: "<stdin>", directory: FileManager.default.currentDirectoryPath, text: "")
        self.init(session: session, io: io, mode: mode, reporter: reporter, file: file, outcomes: Outcomes())
    }

    /// The run of a reactor action sent from `parent`: same session, output, reporter and
    /// outcomes; the action's file, `emit` context and parameters; calls print nothing.
    convenience init(action context: ActionContext, file: SourceFile, parameters: Variables, parent: Run) {
        self.init(session: parent.session, io: parent.io, mode: parent.mode, reporter: parent.reporter, file: file,
                  outcomes: parent.outcomes, within: parent)
        actionContext = context
        locals = parameters
        localNames = Set(parameters.names + ["error"])
        outputOverride = .quiet
    }

    /// The run of one statement whose output goes to `| COMMAND` or the pager: same session,
    /// file, parameters and outcomes as `parent`, output held in `io`.
    convenience init(piping parent: Run, io: ShellIO) {
        self.init(session: parent.session, io: io, mode: parent.mode, reporter: parent.reporter, file: parent.currentFile,
                  outcomes: parent.outcomes, within: parent)
        locals = parent.locals
        localNames = parent.localNames
        outputOverride = parent.outputOverride
    }

    /// A run; one started `within` another runs inside its files (``loading``) and reactor actions.
    private init(session: Session, io: ShellIO, mode: Mode, reporter: (any RunReporter)?, file: SourceFile, outcomes: Outcomes,
                 within parent: Run? = nil) {
        self.session = session
        self.io = io
        self.mode = mode
        self.reporter = reporter
        self.currentFile = file
        self.outcomes = outcomes
        loading = parent?.loading ?? []
        actionChain = parent?.actionChain ?? []
    }

    /// Sets a variable from a script argument `NAME=VALUE` or `NAME:=JSON` (typed as LANGUAGE.md
    /// says), a secret when `secret` (`--secret`); the message says what is wrong with an argument that is neither.
    public func define(_ argument: String, secret: Bool = false) -> String? {
        switch ScriptArgument.parse(argument) {
        case .success(let parsed):
            session.define(parsed, secret: secret)
            return nil
        case .failure(let error):
            return error.message
        }
    }

    /// The session's settings.
    var options: ShellOptions {
        get { session.options }
        set { session.options = newValue }
    }

    /// `text` with the session's secrets, and the last call's credentials, as `***`; in JSON text
    /// also where escapes hide them (``Redaction/maskedDecodingJSON(_:)``: `print body`).
    func mask(_ text: String) -> String {
        Redaction(secrets: session.secretsNow).maskedDecodingJSON(text)
    }

    /// Parses and runs `text`. Parse errors are printed and run nothing: then false.
    /// Throws `Halt` when the run must stop (exit, or a failure with bail on).
    @discardableResult
    public func execute(text: String, file name: String, directory: String, firstLine: Int = 1) async throws(Halt) -> Bool {
        try await execute(SourceFile(name: name, directory: directory, text: text, firstLine: firstLine))
    }

    /// Parses and runs a file's text, as ``execute(text:file:directory:firstLine:)``.
    @discardableResult
    func execute(_ file: SourceFile) async throws(Halt) -> Bool {
        let program: Program
        do {
            program = try Parser.parse(file)
        } catch {
            try report(error)
            return false
        }
        try await execute(program)
        return true
    }

    /// Runs each statement; reports errors; stops on the first one when bail is on.
    public func execute(_ program: Program) async throws(Halt) {
        let previous = currentFile
        currentFile = program.file
        defer { currentFile = previous }
        if let problem = checkPluginSettings(program.statements) {
            try report(problem)
            return
        }
        try await execute(program.statements)
    }

    func execute(_ statements: [Statement]) async throws(Halt) {
        for statement in statements {
            try await runStep(at: statement.span) { try await execute(statement) }
        }
    }

    /// The statements of an action's body or `catch`, or of a block (`if`, `for`, `repeat`,
    /// `until`): in a reactor action an error, at any depth of blocks, ends them and goes to the
    /// action (its `catch` runs), as at the top of its body; elsewhere each statement is a step
    /// that reports its error, and bail decides whether the run goes on.
    func executeBlock(_ statements: [Statement]) async throws {
        guard actionContext != nil else { return try await execute(statements) }
        for statement in statements { try await execute(statement) }
    }

    /// Runs one statement's work (or a `.http` file's request): reports its error, stops the run
    /// when it must, and shows its output at a terminal when it ends.
    func runStep(at span: SourceSpan, _ work: () async throws -> Void) async throws(Halt) {
        do {
            try await work()
        } catch let halt as Halt {
            throw halt
        } catch let diagnostic as Diagnostic {
            try report(diagnostic)
        } catch is CancellationError {
            reportInterrupted(at: span)
            throw Halt.failure(.interrupted)
        } catch {
            try report(Diagnostic(.runtime, "\(error)", file: currentFile, span: span))
        }
        refreshServedRoutes()
        if Task.isCancelled {
            reportInterrupted(at: span)
            throw Halt.failure(.interrupted)
        }
        try reportOutputFailures()
        reportHistoryNotices()
        // At a terminal each statement's output shows when it ends (`echo started; call slow`),
        // as in sh; into a pipe or file it stays buffered, for speed.
        if io.stdoutIsTerminal { io.flush() }
    }

    /// Reports failures to write output other than stdout (a log file on a full disk) as runtime errors.
    func reportOutputFailures() throws(Halt) {
        for message in io.takeFailures() {
            try report(Diagnostic(.runtime, message))
        }
    }

    /// Says the run was interrupted in the statement at `span` (Ctrl-C; SIGTERM silently), and tells
    /// the reporter where. At a terminal the tty has echoed `^C` with no newline: start a fresh line
    /// first, unless an action's clean-up did.
    func reportInterrupted(at span: SourceSpan) {
        // SIGTERM ends a script by the signal, silently, as it did before it was handled.
        if !Interruption.wasTermination { io.sayInterrupted() }
        reporter?.report(.interrupted(file: currentFile, span: span))
    }

    /// Prints a diagnostic with secrets masked; with bail on, stops the run.
    func report(_ diagnostic: Diagnostic) throws(Halt) {
        if provisionalChecks != nil, diagnostic.comesFromTheAnswer {
            answerFailedInRound = true
            throw Halt.failure(diagnostic.kind)
        }
        io.err(diagnostic.rendered(mask: { self.mask($0) }))
        reporter?.report(.error(diagnostic.masked { self.mask($0) }))
        if firstFailure == nil { firstFailure = diagnostic.kind }
        outcomes.failures += 1
        if options.bail || diagnostic.kind == .interrupted { throw Halt.failure(diagnostic.kind) }
    }

    /// A runtime error at a span of the running file.
    func failure(_ message: String, at span: SourceSpan?, notes: [String] = [], kind: FailureKind = .runtime,
                 comesFromTheAnswer: Bool = false) -> Diagnostic {
        var diagnostic = Diagnostic(kind, message, file: span == nil ? nil : currentFile, span: span, notes: notes)
        diagnostic.comesFromTheAnswer = comesFromTheAnswer
        return diagnostic
    }

    /// A failure whose message tells its values apart from wsh's wording (``MessageText``).
    func failure(_ message: MessageText, at span: SourceSpan?, notes: [MessageText] = []) -> Diagnostic {
        Diagnostic(.runtime, message, file: span == nil ? nil : currentFile, span: span, notes: notes)
    }

    func execute(_ statement: Statement) async throws {
        if let pipe = statement.pipe { return try await runPiped(statement, into: pipe) }
        if let (pager, size) = pagerCommand(for: statement) { return try await runPaged(statement, pager: pager, size: size) }
        switch statement.kind {
        case .assign(let name, let value):
            if case .word(let word) = value { noteRecalledPlaceholders([word], holding: true, named: name.literal) }
            try assign(name, value)
        case .unset(let names): try unset(names)
        case .vars: listVariables()
        case .set(let option?, let values):
            noteRecalledPlaceholders(values, holding: true)
            try setOption(option, values)
        case .set(nil, _): listOptions()
        case .echo(let words): try echo(words)
        case .print(let values): try printValues(values)
        case .source(let path): try await source(path)
        case .help(let topic): try help(topic)
        // In an `until` round, a bare exit's code waits for the round's held-back checks (``runUntil``).
        case .exit(nil) where provisionalChecks != nil:
            bareExitPending = true
            noteExitInAction(at: statement.span)
            throw Halt.exit(0)
        case .exit(let code):
            let halt = Halt.exit(try exitCode(code))
            noteExitInAction(at: statement.span)
            throw halt
        case .command(let name, let arguments): try await command(name, arguments, statement: statement)
        case .target(let declaration):
            noteRecalledPlaceholders(declaration.fields.flatMap(\.arguments), holding: true)
            try declareTarget(declaration)
        case .call(let call): try await self.call(call)
        case .request(let request): try await self.request(request)
        case .targetFromLast(let name): try declareTargetFromLast(name)
        case .expect(let expectation): try check(expectation)
        case .reactor(let declaration): try declareReactor(declaration)
        case .emit(let assignments): try await emit(assignments)
        case .sleep(let duration): try await pause(duration)
        case .conditional(let conditional): try await run(conditional)
        case .loop(let loop): try await run(loop)
        case .plugin(let name, let settings):
            noteRecalledPlaceholders(settings, holding: true, named: name.literal.map { "plugin \($0)" })
            try runPlugin(name: name, settings: settings)
        }
    }

    /// `exit N`, or a bare `exit`: in a script, the code of the first failure so far (with bail
    /// off, a failed `expect` is still 4), else 0.
    func exitCode(_ word: Word?) throws -> Int32 {
        guard let word else { return mode == .script ? firstFailure?.exitCode ?? 0 : 0 }
        let text = try expand(word).text
        guard let code = Int32(text), (0...255).contains(code) else {
            throw failure("exit code must be a number from 0 to 255", at: word.span)
        }
        return code
    }

    /// Commands that are not keywords: those of the catalog, built-in reactors, declared reactors, or an unknown name.
    func command(_ name: Word, _ arguments: [Word], statement: Statement) async throws {
        let text = name.literal ?? ""
        if let command = CommandCatalog.command(named: text) {
            return try await command.run(arguments, command: name, statement: statement, in: self)
        }
        if let reactor = shellReactor(named: text) {
            return try await runReactor(reactor, arguments, command: name)
        }
        let known = CommandCatalog.names + session.reactorOrder
        var notes: [String] = []
        if text == "curl" || text == "http" || text == "https" {
            // A command line pasted from elsewhere: wsh reads curl's, and HTTPie's items are its own.
            notes.append(text == "curl" ? "to make a target of a curl command: import curl curl URL ...; or send it as: get URL"
                                        : "HTTPie's items work after a method: get URL name==value Header:value")
        } else if ["quit", "logout", "bye"].contains(text) {
            notes.append("did you mean 'exit'? (Ctrl-D at the prompt ends wsh too)")
        } else if text == "wsh>" || text == "...>" {
            // A transcript pasted from the docs, prompt and all.
            notes.append("the line holds the prompt: type (or paste) what follows 'wsh> '")
        } else if text == "assert" || text == "asserts" {
            notes.append("did you mean 'expect'? Hurl's asserts and Postman's tests are written: expect status == 200")
        } else if let guess = Suggestion.closest(to: text, in: known) {
            notes.append("did you mean '\(guess)'?")
        }
        notes.append("type 'help' for the list of commands")
        throw failure("unknown command '\(text.shortened())'", at: name.span, notes: notes)
    }
}


