import ArgumentParser

/// `wsh test` as swift-argument-parser reads it.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wsh test",
        abstract: "Run .wsh files as tests, each in a session of its own, several at once, and write reports.",
        discussion: "A directory means every *.wsh file under it, sorted. Exit status: 0 all passed, "
            + "3 a file stopped on a runtime or parse error, else 4 an expectation failed; 130 on Ctrl-C."
    )

    @Option(help: ArgumentHelp("Files run at once (default: the number of cores).", valueName: "N"))
    var jobs: Int?

    @Option(name: .customLong("var"), help: ArgumentHelp("A variable for every file's session.", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Flag(help: "Answer calls from targets' sample data (set stub immediate).")
    var stub = false

    @Option(name: .customLong("report-junit"), help: ArgumentHelp("Write a JUnit XML report.", valueName: "FILE"))
    var junit: String?

    @Option(name: .customLong("report-tap"), help: ArgumentHelp("Write a TAP 14 report.", valueName: "FILE"))
    var tap: String?

    @Option(name: .customLong("report-json"), help: ArgumentHelp("Write a JSON report: every file, call and check.", valueName: "FILE"))
    var json: String?

    @Option(name: .customLong("report-html"), help: ArgumentHelp("Write an HTML report, DIR/index.html.", valueName: "DIR"))
    var html: String?

    /// The runner starts one worker per file with this: the file's result goes to stdout as JSON.
    @Option(name: .customLong("worker"), help: .hidden)
    var worker: String?

    @Argument(help: ArgumentHelp("Files and directories of .wsh tests (default: the current directory).", valueName: "PATH"))
    var paths: [String] = []

    mutating func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs takes a number of 1 or more") }
        for variable in variables {
            if case .failure(let error) = ScriptArgument.parse(variable) {
                throw ValidationError("--var takes NAME=VALUE or NAME:=JSON, got '\(variable.shortened())': \(error.message)")
            }
        }
    }

    var settings: TestSettings {
        var settings = TestSettings()
        settings.paths = paths
        settings.jobs = jobs
        settings.variables = variables
        settings.stub = stub
        settings.junitFile = junit
        settings.tapFile = tap
        settings.jsonFile = json
        settings.htmlDirectory = html
        settings.workerFile = worker
        return settings
    }
}

extension LaunchOptions {
    /// `wsh test ...`.
    static func testParse(_ arguments: [String]) -> FullParse {
        do {
            let parsed = try TestCommand.parse(arguments)
            var options = LaunchOptions(stub: parsed.stub, noRC: true)
            options.test = parsed.settings
            return .run(options)
        } catch {
            let message = TestCommand.fullMessage(for: error)
            return TestCommand.exitCode(for: error) == .success ? .exit(output: message) : .usageError(message)
        }
    }
}

extension LaunchOptions {
    /// `wsh test --worker FILE [--stub] [--var NAME=VALUE]...`, exactly as the runner writes it,
    /// read without swift-argument-parser: its first parse in a worker took about 18 ms of the
    /// 30 ms a 10-call file took (reflection and conformance lookups over the static binary).
    /// Anything else is nil, for the full parse.
    static func quickTestWorkerParse(_ arguments: [String]) -> LaunchOptions? {
        guard arguments.count >= 3, arguments[0] == "test", arguments[1] == "--worker", !arguments[2].hasPrefix("-") else { return nil }
        var settings = TestSettings()
        settings.workerFile = arguments[2]
        var index = 3
        while index < arguments.count {
            switch arguments[index] {
            case "--stub":
                settings.stub = true
                index += 1
            case "--var" where index + 1 < arguments.count && isAssignment(arguments[index + 1]):
                settings.variables.append(arguments[index + 1])
                index += 2
            default:
                return nil
            }
        }
        var options = LaunchOptions(stub: settings.stub, noRC: true)
        options.test = settings
        return options
    }

    /// `NAME=VALUE` as `--var` takes it, and not a flag, which swift-argument-parser would not take as a value.
    private static func isAssignment(_ argument: String) -> Bool {
        guard !argument.hasPrefix("-"), case .success = ScriptArgument.parse(argument) else { return false }
        return true
    }
}
