import Foundation
import Targets

/// Stops a run: `exit`, or a failure while `set bail on`. Its diagnostic has already been printed.
public enum Halt: Error {
    case exit(Int32)
    case failure(FailureKind)
}

/// Runs parsed statements in one session: variables, options, targets, reactors and the last response.
@ShellActor
public final class Interpreter {
    /// Whether the session is a prompt (bail off) or a script, `-c` or piped input (bail on).
    public enum Mode { case interactive, script }

    public let io: ShellIO
    public let mode: Mode
    var variables = Variables()
    var mask = SecretMask() {
        didSet {
            sharedMask.value = mask
            builtPlugins = nil
        }
    }
    /// The mask for reactor stores, which echo state from their own executors.
    let sharedMask = SharedValue(SecretMask())
    var options: ShellOptions
    /// Canonical paths of the files being run, innermost last: `source` refuses a cycle.
    var sourceStack: [String] = []
    /// The file whose statements are running, for diagnostics and relative paths.
    var currentFile: SourceFile
    /// The first failure of a run with bail off; it decides the exit code at the end.
    public private(set) var firstFailure: FailureKind?
    /// Declared targets.
    var targets = TargetRegistry()
    /// What completion derives from the targets, kept until they change.
    var completionTargets: CompletionTargetView?
    /// The answer of the last call, for queries and `expect`; its body is parsed as JSON once, when a query first needs it.
    var lastResponse: Response?
    /// Reactors by command name, and the order they were first used or declared.
    var reactors: [String: ShellReactor] = [:]
    var reactorOrder: [String] = []
    /// How reactors echo state; shared with their stores.
    let echoStyle: SharedValue<EchoStyle>
    /// Set while a declared reactor's action runs.
    var actionContext: ActionContext?
    /// How many reactor commands are running inside one another.
    var actionDepth = 0
    /// Which plugins are on, their settings and order (`plugin`, `plugins`).
    var pluginSettings = PluginSettings() {
        didSet { builtPlugins = nil }
    }
    /// The plugins `pluginSettings` and `mask` make, built on the first call after either changes.
    var builtPlugins: [any Plugin]?

    public init(io: ShellIO, mode: Mode) {
        self.io = io
        self.mode = mode
        self.options = ShellOptions(bail: mode == .script, colorEnabled: io.stdoutIsTerminal && !Environment.noColor)
        self.currentFile = SourceFile(name: "<stdin>", directory: FileManager.default.currentDirectoryPath, text: "")
        self.echoStyle = SharedValue(EchoStyle(mode: .line, color: options.colorEnabled))
    }

    /// Variables given as script arguments: like make's command-line variables, a `let` of
    /// the same name in the script leaves them as given, so a script can hold defaults.
    var commandLineNames: Set<String> = []

    /// Sets a variable from a script argument `NAME=VALUE`.
    public func define(_ name: String, _ value: String) {
        variables[name] = Variable(value: value, isSecret: false)
        commandLineNames.insert(name)
    }

    /// Parses and runs `text`. Parse errors are printed and run nothing.
    /// Throws `Halt` when the run must stop (exit, or a failure with bail on).
    public func run(text: String, file name: String, directory: String, firstLine: Int = 1) async throws(Halt) {
        let file = SourceFile(name: name, directory: directory, text: text, firstLine: firstLine)
        let program: Program
        do {
            program = try Parser.parse(file)
        } catch {
            try report(error)
            return
        }
        try await run(program)
    }

    /// Runs each statement; reports errors; stops on the first one when bail is on.
    public func run(_ program: Program) async throws(Halt) {
        let previous = currentFile
        currentFile = program.file
        defer { currentFile = previous }
        try await run(program.statements)
    }

    func run(_ statements: [Statement]) async throws(Halt) {
        for statement in statements {
            do {
                try await execute(statement)
            } catch let halt as Halt {
                throw halt
            } catch let diagnostic as Diagnostic {
                try report(diagnostic)
            } catch is CancellationError {
                reportInterrupted()
                throw Halt.failure(.interrupted)
            } catch {
                try report(Diagnostic(.runtime, "\(error)", file: currentFile, span: statement.span))
            }
            if Task.isCancelled {
                reportInterrupted()
                throw Halt.failure(.interrupted)
            }
            try reportOutputFailures()
        }
    }

    /// Reports failures to write output other than stdout (a log file on a full disk) as runtime errors.
    func reportOutputFailures() throws(Halt) {
        for message in io.takeFailures() {
            try report(Diagnostic(.runtime, message))
        }
    }

    /// At a terminal the tty has echoed `^C` with no newline: start a fresh line first.
    func reportInterrupted() {
        io.err((io.stderrIsTerminal ? "\n" : "") + "wsh: interrupted\n")
    }

    /// Prints a diagnostic with secrets masked; with bail on, stops the run.
    func report(_ diagnostic: Diagnostic) throws(Halt) {
        io.err(diagnostic.rendered(mask: { self.mask($0) }))
        if firstFailure == nil { firstFailure = diagnostic.kind }
        if options.bail || diagnostic.kind == .interrupted { throw Halt.failure(diagnostic.kind) }
    }

    /// A runtime error at a span of the running file.
    func failure(_ message: String, at span: SourceSpan?, notes: [String] = [], kind: FailureKind = .runtime) -> Diagnostic {
        Diagnostic(kind, message, file: span == nil ? nil : currentFile, span: span, notes: notes)
    }

    func execute(_ statement: Statement) async throws {
        switch statement.kind {
        case .assign(let name, let value): try assign(name, value)
        case .unset(let names): try unset(names)
        case .vars: listVariables()
        case .set(let option, let values): try setOption(option, values)
        case .echo(let words): try echo(words)
        case .print(let values): try printValues(values)
        case .source(let path): try await source(path)
        case .help(let topic): try help(topic)
        case .exit(let code): throw Halt.exit(try exitCode(code))
        case .command(let name, let arguments): try await command(name, arguments, statement: statement)
        case .target(let declaration): try declareTarget(declaration)
        case .call(let call): try await self.call(call)
        case .expect(let expectation): try check(expectation)
        case .reactor(let declaration): try declareReactor(declaration)
        case .emit(let assignments): try await emit(assignments)
        case .plugin(let name, let settings): try runPlugin(name: name, settings: settings)
        }
    }

    private func exitCode(_ word: Word?) throws -> Int32 {
        guard let word else { return 0 }
        let text = try expand(word).text
        guard let code = Int32(text), (0...255).contains(code) else {
            throw failure("exit code must be a number from 0 to 255", at: word.span)
        }
        return code
    }

    /// Commands that are not keywords: built-in reactors, declared reactors, or an unknown name.
    func command(_ name: Word, _ arguments: [Word], statement: Statement) async throws {
        let text = name.literal ?? ""
        switch text {
        case "targets": return try listTargets(arguments)
        case "show": return try showTarget(arguments, command: name)
        case "forget": return try forgetTarget(arguments, command: name)
        case "use":
            guard let pack = arguments.first else { throw failure("usage: use PACK", at: name.span) }
            return try await usePack(pack)
        case "state": return try await printState(arguments)
        case "plugins": return try listPlugins(arguments, command: name)
        default: break
        }
        if let reactor = shellReactor(named: text) {
            return try await runReactor(reactor, arguments, command: name)
        }
        let known = CommandCatalog.names + reactorOrder
        var notes: [String] = []
        if let guess = Suggestion.closest(to: text, in: known) { notes.append("did you mean '\(guess)'?") }
        notes.append("type 'help' for the list of commands")
        throw failure("unknown command '\(text.shortened())'", at: name.span, notes: notes)
    }
}

extension String {
    /// The text cut to `limit` characters with an ellipsis, for quoting user input in messages.
    func shortened(_ limit: Int = 60) -> String {
        count <= limit ? self : prefix(limit) + "…"
    }
}
