import ArgumentParser

/// `wsh test` as swift-argument-parser reads it.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wsh test",
        abstract: "Run .wsh and .http files as tests, each in a session of its own, several at once, and write reports.",
        discussion: "A directory means every *.wsh, *.http and *.rest file under it, sorted. Exit status: 0 all passed, "
            + "3 a file stopped on a runtime or parse error, else 4 an expectation failed; 130 on Ctrl-C."
    )

    // Unconditional: `--jobs -1` is its value, said wrong, not "Missing value".
    @Option(parsing: .unconditional, help: ArgumentHelp("Files run at once (default: the number of cores).", valueName: "N"))
    var jobs: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("End a file that runs longer than this, as errored; the others go on (default: no limit).",
                                                        valueName: "DURATION"))
    var timeout: String?

    @Option(name: .customLong("var"), help: ArgumentHelp("A variable for every file's session.", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Option(name: .customLong("secret"), help: ArgumentHelp("A variable for every file's session that is a secret: masked on screen and in every report.",
                                                            valueName: "NAME=VALUE"))
    var secrets: [String] = []

    @Flag(help: "Answer calls from targets' sample data (set stub immediate).")
    var stub = false

    @Option(name: .customLong("env"), help: ArgumentHelp("Choose an environment for every file, from the files beside it (set env NAME).",
                                                         valueName: "NAME"))
    var environment: String?

    @Option(name: .customLong("report-junit"), help: ArgumentHelp("Write a JUnit XML report.", valueName: "FILE"))
    var junit: String?

    @Option(name: .customLong("report-tap"), help: ArgumentHelp("Write a TAP 14 report.", valueName: "FILE"))
    var tap: String?

    @Option(name: .customLong("report-json"), help: ArgumentHelp("Write a JSON report: every file, call and check.", valueName: "FILE"))
    var json: String?

    @Option(name: .customLong("report-html"), help: ArgumentHelp("Write an HTML report, DIR/index.html.", valueName: "DIR"))
    var html: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Run the K-th of N slices of the files (for a CI matrix of N machines).", valueName: "K/N"))
    var shard: String?

    @Option(help: ArgumentHelp("With --shard: balance the slices by the times in an earlier run's JSON report.", valueName: "FILE"))
    var durations: String?

    @Option(name: .customLong("report-har"), help: ArgumentHelp("Write every call as HAR 1.2 (secrets masked).", valueName: "FILE"))
    var har: String?

    /// The runner starts workers with this for --report-har: they keep every call's bodies.
    @Flag(name: .customLong("keep-bodies"), help: .hidden)
    var keepBodies = false

    /// The runner starts one worker per file with this: the file's result goes to stdout as JSON.
    @Option(name: .customLong("worker"), help: .hidden)
    var worker: String?

    @Argument(help: ArgumentHelp("Files and directories of .wsh and .http tests (default: the current directory).", valueName: "PATH"))
    var paths: [String] = []

    mutating func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs takes a number of 1 or more") }
        if let timeout, (DurationText.parse(timeout) ?? .zero) <= .zero {
            throw ValidationError("--timeout takes a duration such as 30s or 5m, for each file")
        }
        if let shard, TestShard(shard) == nil { throw ValidationError("--shard takes K/N, the K-th of N slices: 1/2, 2/2 (N from 1 to 1000)") }
        if durations != nil, shard == nil { throw ValidationError("--durations balances the slices of --shard K/N: give --shard too") }
        var reportFiles: [String: (kind: ReportFileGuard.Kind, path: String)] = [:]
        for (kind, path) in [(ReportFileGuard.Kind.junit, junit), (.tap, tap), (.json, json), (.har, har),
                             (.html, html.map(HTMLReport.file(in:)))] {
            guard let path else { continue }
            if let refusal = ReportFileGuard.refusal(kind, at: path) { throw ValidationError(refusal) }
            // Two reports to one file, however named: the last written would replace the other.
            if let other = reportFiles.updateValue((kind, path), forKey: ReportFileGuard.identity(of: path)) {
                let both = TestShard.key(other.path) == TestShard.key(path) ? "\(other.kind.rawValue) and \(kind.rawValue) both write \(path)"
                    : "\(other.kind.rawValue) \(other.path) and \(kind.rawValue) \(path) are one file"
                throw ValidationError("\(both): give each report a file of its own")
            }
        }
        for (option, variable) in variables.map({ ("--var", $0) }) + secrets.map({ ("--secret", $0) }) {
            if case .failure(let error) = ScriptArgument.parse(variable) {
                throw ValidationError("\(option) takes NAME=VALUE or NAME:=JSON, got '\(variable.shortened())': \(error.message)")
            }
        }
    }

    /// A report option given twice (`--report-junit a.xml --report-junit b.xml`), where the
    /// parser keeps the last and the first report would silently not be written.
    static func repeatedReport(in arguments: [String]) -> String? {
        var seen: Set<String> = []
        for argument in arguments.prefix(while: { $0 != "--" }) where argument.hasPrefix("--report-") {
            let option = String(argument.prefix { $0 != "=" })
            if !seen.insert(option).inserted { return "\(option) is given twice: give it once, with one FILE" }
        }
        return nil
    }

    var settings: TestSettings {
        var settings = TestSettings()
        settings.paths = paths
        settings.jobs = jobs
        settings.timeout = timeout
        settings.variables = variables
        settings.secrets = secrets
        settings.stub = stub
        settings.environment = environment
        settings.junitFile = junit
        settings.tapFile = tap
        settings.jsonFile = json
        settings.htmlDirectory = html
        settings.harFile = har
        settings.keepsBodies = keepBodies
        settings.workerFile = worker
        settings.shard = shard.flatMap(TestShard.init)
        settings.durationsFile = durations
        return settings
    }
}

extension LaunchOptions {
    /// `wsh test ...`.
    static func testParse(_ arguments: [String]) -> FullParse {
        subcommandParse(TestCommand.self, arguments) { parsed in
            if let repeated = TestCommand.repeatedReport(in: arguments) { throw ValidationError(repeated) }
            var options = LaunchOptions(stub: parsed.stub, noRC: true)
            options.test = parsed.settings
            return options
        }
    }
}
