import CallHistory
import Foundation
import Plugins

/// How wsh was started (parsed by the `wsh` executable).
public struct LaunchOptions: Sendable, Equatable {
    /// A script path, or `-` for stdin.
    public var file: String?
    /// `-c STATEMENTS`.
    public var command: String?
    /// `NAME=VALUE` after the script path.
    public var assignments: [String]
    /// `--secret NAME=VALUE`: variables set as ``assignments`` are, each a secret from the start.
    public var secretAssignments: [String] = []
    /// `--stub`: answer from `sample` data.
    public var stub: Bool
    /// `--norc`: skip init.wsh.
    public var noRC: Bool
    /// `--env NAME`: the environment to choose before anything runs (`set env NAME`).
    public var environment: String?
    /// `wsh serve FILE...`: the files whose targets to serve, and how.
    public var serve: (files: [String], settings: ServeSettings)? {
        get { serveFiles.map { ($0, serveSettings) } }
        set {
            serveFiles = newValue?.files
            serveSettings = newValue?.settings ?? ServeSettings()
        }
    }
    private var serveFiles: [String]?
    private var serveSettings = ServeSettings()
    /// `wsh fuzz ...`: the files to run or read first, and what to fuzz how.
    var fuzz: (files: [String], options: FuzzOptions)? {
        get { fuzzFiles.map { ($0, fuzzOptions) } }
        set {
            fuzzFiles = newValue?.files
            fuzzOptions = newValue?.options ?? FuzzOptions()
        }
    }
    private var fuzzFiles: [String]?
    /// `wsh load ...`: the scenario and how hard.
    var load: LoadOptions?
    private var fuzzOptions = FuzzOptions()
    /// `wsh test ...`: the files to run as tests, and how.
    public var test: TestSettings?
    /// `wsh get URL ITEM...`: a method and the request's arguments, sent once.
    public var request: [String]?

    public init(file: String? = nil, command: String? = nil, assignments: [String] = [], stub: Bool = false, noRC: Bool = false,
                request: [String]? = nil) {
        self.request = request
        self.file = file
        self.command = command
        self.assignments = assignments
        self.stub = stub
        self.noRC = noRC
    }
}

/// The entry point: runs a script, `-c` statements, piped input or the interactive prompt.
@ShellActor
public enum Shell {
    public nonisolated static let version = "0.4.13"

    /// Runs wsh and returns its exit code. A script stopped by SIGTERM, once its call in flight is
    /// recorded and its output written, ends by the signal, as it would have with no handler.
    public static func run(_ options: LaunchOptions) async -> Int32 {
        if let test = options.test {
            return await test.workerFile == nil ? TestRunner.run(test) : runTestWorker(test)
        }
        let code = await runShell(options)
        if Interruption.wasTermination { SignalDeath.die(of: SIGTERM) }
        return code
    }

    /// What ``run(_:)`` does for all but `wsh test`: the history and output are finished when it returns.
    private static func runShell(_ options: LaunchOptions) async -> Int32 {
        let stdinIsTerminal = isatty(STDIN_FILENO) == 1
        let interactive = options.command == nil && options.file == nil && options.request == nil && options.serve == nil
            && options.fuzz == nil && options.load == nil && stdinIsTerminal
        StandardInput.isFree = !stdinIsTerminal && (options.command != nil || options.request != nil || (options.file ?? "-") != "-")
        let io = ShellIO()
        defer { io.flush() }
        let run = Run(io: io, mode: interactive ? .interactive : .script)
        run.session.callLog = CallLog { CallLog.defaultPath(stateDirectory: Environment.stateDirectory) }
        defer { finishHistory(run) }
        // The process exits as soon as this returns: freeing every target and response of the
        // session first would be wasted work (docs/dev/performance.md: loading 10,000 targets).
        _ = Unmanaged.passRetained(run)
        if io.stdoutIsTerminal {
            // At a terminal an echo shows what changed, cut to the screen; in pipes whole lines, as scripts expect.
            run.session.options.echo = .changes
            run.session.echoStyle.value.mode = .changes
            run.session.echoStyle.value.cutToTerminal = true
        }
        if options.stub {
            run.session.options.stub = .immediate
            run.session.optionOrigins[.stub] = "--stub"
        }
        LogFile.onWriteFailure { [io] message in io.noteFailure(message) }
        // A script, `-c`, piped input, `wsh load` or `wsh serve` stopped by SIGTERM (a CI job
        // cancelled, `docker stop`) stops as on Ctrl-C: a load test prints the summary of what ran
        // and writes its reports, a mock server closes its connections and says it stopped.
        let terminates = !interactive && options.fuzz == nil
        let interrupts = InterruptHandler(interactive: interactive, terminates: terminates)
        Interruption.endRemovingClaims(on: terminates ? [SIGHUP] : [SIGHUP, SIGTERM])
        let cwd = FileManager.default.currentDirectoryPath

        if let serve = options.serve {
            if let code = chooseEnvironment(options.environment, beside: serve.files.first, run) { return code }
            return await serveFiles(serve.files, serve.settings, run, interrupts)
        }
        if let load = options.load {
            if let code = chooseEnvironment(options.environment, beside: load.files.first, run) { return code }
            return await LoadRun.run(load, run, interrupts)
        }
        if let fuzz = options.fuzz {
            if let code = chooseEnvironment(options.environment, beside: fuzz.files.first, run) { return code }
            return await fuzzFiles(fuzz.files, fuzz.options, run, interrupts)
        }
        // `wsh --norc get URL`: the verb was read as a script, and its URL as a script argument.
        if let file = options.file, CommandLineRequest.isVerb(file), case .failure(let problem) = ReadableFile.read(file) {
            io.err("wsh: error: cannot read '\(file)': \(problem)\n" + CommandLineRequest.noteForMissingScript(file, problem))
            return FailureKind.usage.exitCode
        }
        // Script arguments and `--var`s, before `-c`, a script, piped input or the prompt runs.
        for (assignment, secret) in options.assignments.map({ ($0, false) }) + options.secretAssignments.map({ ($0, true) }) {
            if let problem = run.define(assignment, secret: secret) {
                // `wsh fuzz x.wsh`: no script named fuzz says more than that x.wsh is no NAME=VALUE.
                if let file = options.file, file != "-", !FileManager.default.fileExists(atPath: file),
                   case .failure(let missing) = ReadableFile.read(file) {
                    io.err("wsh: error: cannot read '\(file)': \(missing)\n" + CommandLineRequest.noteForMissingScript(file, missing))
                    return FailureKind.usage.exitCode
                }
                io.err("wsh: error: script arguments are NAME=VALUE or NAME:=JSON, got '\(assignment.shortened())': \(problem)\n")
                return FailureKind.usage.exitCode
            }
        }
        // `--env NAME`, from the files beside the script, else in the current directory.
        let script = options.file.flatMap { $0 == "-" ? nil : $0 }
        if let code = chooseEnvironment(options.environment, beside: script, run) { return code }
        if let request = options.request {
            let code = await finish(run, interrupts) {
                try await run.execute(text: CommandLineRequest.statement(CommandLineRequest.readingStdin(request)), file: "<command line>",
                                      directory: cwd)
            }
            return CommandLineRequest.exitCode(code, answer: run.lastResponse, io: io)
        }
        if let command = options.command {
            return await finish(run, interrupts) {
                try await run.execute(text: command, file: "<command line>", directory: cwd)
            }
        }
        if let file = options.file, file != "-" {
            let data: Data
            switch ReadableFile.read(file) {
            case .success(let bytes): data = bytes
            case .failure(let problem):
                io.err("wsh: error: cannot read '\(file)': \(problem)\n")
                io.err(CommandLineRequest.noteForMissingScript(file, problem))
                return FailureKind.usage.exitCode
            }
            return await finish(run, interrupts) {
                try await run.runFile(contents: data, path: file)
            }
        }
        if interactive {
            // Feedback on a slow call where someone is watching; a script's stderr stays quiet.
            if isatty(STDERR_FILENO) == 1 { run.session.pluginSettings.switchOnByDefault(LoadingShellPlugin.name) }
            if !options.noRC, !FileManager.default.fileExists(atPath: Environment.configDirectory + "/wsh/init.wsh") {
                // A first start: one line of where to begin, never when an init.wsh says the user knows.
                io.err("wsh \(version): type help for the commands, weather current to try one, get URL for a quick request\n")
            }
            if !options.noRC, case .exit(let code) = await runInitFile(run, interrupts) { return code }
            let useEditor = ProcessInfo.processInfo.environment["TERM"] != "dumb"
            let secrets = run.session.sharedMask
            let typedArguments = run.session.credentialArguments
            let reader: LineReader = (useEditor ? EditLineReader(historyPath: HistoryFile.defaultPath(), mask: {
                secrets.value(LiteralCredentials.hidden(in: $0, actions: typedArguments.value))
            }) : nil) ?? PlainLineReader()
            return finalCode(run, await PromptLoop(run: run, reader: reader, interrupts: interrupts).run())
        }
        return finalCode(run, await PromptLoop(run: run, reader: PlainLineReader(), interrupts: interrupts).run())
    }

    /// How a piece of work stopped.
    enum Outcome: Equatable {
        case completed
        case exit(Int32)
        case failure(FailureKind)
    }

    /// Runs `work` so that Ctrl-C cancels it, and says how it stopped.
    static func outcome(_ interrupts: InterruptHandler, _ work: @escaping @ShellActor @Sendable () async throws -> Void) async -> Outcome {
        do {
            try await interrupts.run(work)
            return .completed
        } catch Halt.exit(let code) {
            return .exit(code)
        } catch Halt.failure(let kind) {
            return .failure(kind)
        } catch {
            return .failure(.interrupted)
        }
    }

    /// Runs `work`, mapping how it stopped to an exit code.
    static func finish(_ run: Run, _ interrupts: InterruptHandler,
                       _ work: @escaping @ShellActor @Sendable () async throws -> Void) async -> Int32 {
        let code = switch await outcome(interrupts, work) {
        case .completed: run.firstFailure?.exitCode ?? 0
        case .exit(let code): code
        case .failure(.interrupted): Interruption.exitCode
        case .failure(let kind): kind.exitCode
        }
        return finalCode(run, code)
    }

    /// `--env NAME` chosen from the files beside `file`, else in the current directory; the exit
    /// code when it cannot be, after saying why.
    static func chooseEnvironment(_ name: String?, beside file: String?, _ run: Run) -> Int32? {
        guard let name else { return nil }
        do {
            try run.selectEnvironment(name, directory: file.map(Run.directory(of:)) ?? FileManager.default.currentDirectoryPath, at: nil)
            return nil
        } catch let diagnostic as Diagnostic {
            run.io.err(diagnostic.rendered(mask: run.mask))
        } catch {
            run.io.err("wsh: error: \(run.mask("\(error)"))\n")
        }
        return FailureKind.usage.exitCode
    }

    /// `code`, or 3 when a log file could not be written (reported here, as nothing runs after).
    static func finalCode(_ run: Run, _ code: Int32) -> Int32 {
        let failures = run.io.takeFailures()
        for message in failures { run.io.err("wsh: error: \(message)\n") }
        return failures.isEmpty || code != 0 ? code : FailureKind.runtime.exitCode
    }

    /// Writes the calls still queued for the call history, for at most 3 s, and says what it could not do.
    static func finishHistory(_ run: Run) {
        run.session.callLog?.finish(within: 3)
        run.reportHistoryNotices()
    }

    /// `~/.config/wsh/init.wsh` (XDG_CONFIG_HOME honoured); its errors are shown but do not stop the prompt.
    static func runInitFile(_ run: Run, _ interrupts: InterruptHandler) async -> Outcome {
        let path = Environment.configDirectory + "/wsh/init.wsh"
        guard let data = FileManager.default.contents(atPath: path) else { return .completed }
        return await outcome(interrupts) {
            try await run.runFile(contents: data, path: path)
        }
    }
}

/// Writes usage errors for the executable, which has no ShellIO yet.
public enum FileHandleOutput {
    public static func standardError(_ text: String) {
        ShellIO.writeAll(STDERR_FILENO, Array(text.utf8))
    }

    public static func standardOutput(_ text: String) {
        ShellIO.writeAll(STDOUT_FILENO, Array(text.utf8))
    }
}
