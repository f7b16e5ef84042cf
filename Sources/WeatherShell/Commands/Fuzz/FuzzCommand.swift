import ArgumentParser
import Fuzzing

/// `wsh fuzz [FILE...] [TARGET...] [options]` as swift-argument-parser reads it; each value is
/// checked by ``FuzzOptions/set(_:_:)``, as the prompt's `fuzz` checks it.
struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wsh fuzz",
        abstract: "Call the targets the files declare with generated inputs, valid and invalid, and report answers that break their declaration.",
        discussion: "FILE is a .wsh script (run first: its `use openapi`, `set base` and plugins apply), an OpenAPI document, a .http file "
            + "or a Postman collection (their requests declared, not sent). TARGET names the targets to fuzz; none fuzzes every declared one. "
            + "Only loopback hosts are fuzzed unless --allow-host names another; only GET, HEAD and OPTIONS are sent unless "
            + "--allow-writes. The checks: \(Oracle.allCases.map(\.rawValue).joined(separator: ", ")). "
            + "Exit status: 0 no failure, 4 failures found, 3 an error (an unknown target, a host refused, nothing answering), "
            + "1 a usage error, 130 interrupted (the report of what ran is printed)."
    )

    // Unconditional: `--calls -5` is a value to refuse in words, not a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp("Calls in all (default 100 a target).", valueName: "N")) var calls: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("The seed; printed on every run, so a run can be repeated.", valueName: "S")) var seed: String?
    @Option(help: ArgumentHelp("Stop after this long, such as 30s or 5m.", valueName: "DURATION")) var time: String?
    @Option(help: ArgumentHelp("How long a call may take before it counts as no answer (default 5s).", valueName: "DURATION")) var timeout: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("Calls in flight at once (default 1).", valueName: "N")) var jobs: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("At most this many calls a second, such as 50/s.", valueName: "R")) var rate: String?
    @Flag(help: "Chain calls: a POST's new resource fetched, deleted and fetched again.") var stateful = false
    @Option(help: ArgumentHelp("Make only these checks (repeat, or join with commas).", valueName: "NAME")) var check: [String] = []
    @Option(name: .customLong("allow-host"), help: ArgumentHelp("Fuzz this host too (only loopback otherwise).", valueName: "HOST")) var allowHost: [String] = []
    @Flag(name: .customLong("allow-writes"), help: "Send methods other than GET, HEAD and OPTIONS.") var allowWrites = false
    @Option(name: .customLong("report-junit"), help: ArgumentHelp("Write a JUnit XML report: a test case a target and check.", valueName: "FILE")) var junit: String?
    @Option(name: .customLong("report-json"), help: ArgumentHelp("Write a JSON report.", valueName: "FILE")) var json: String?
    @Option(name: .customLong("env"), help: ArgumentHelp("Choose an environment first (set env NAME).", valueName: "NAME")) var environment: String?

    @Argument(help: ArgumentHelp("Files to run or read first, then the targets to fuzz.", valueName: "FILE|TARGET"))
    var inputs: [String] = []

    mutating func validate() throws {
        _ = try options
    }

    /// The options, each value checked; the files are the inputs that name a file.
    var options: FuzzOptions {
        get throws {
            var options = FuzzOptions()
            let given: [(String, String?)] = [("--calls", calls), ("--seed", seed), ("--time", time), ("--timeout", timeout), ("--jobs", jobs),
                                              ("--rate", rate), ("--report-junit", junit), ("--report-json", json)]
                + check.map { ("--check", $0) } + allowHost.map { ("--allow-host", $0) }
            for case let (flag, value?) in given {
                if let problem = options.set(flag, value) { throw ValidationError(problem) }
            }
            options.stateful = stateful
            if let problem = options.chainCheckProblem { throw ValidationError(problem) }
            options.allowWrites = allowWrites
            options.targets = inputs.filter { !Self.isFile($0) }
            return options
        }
    }

    /// The inputs that are files to run or read: by their extension.
    var files: [String] { inputs.filter(Self.isFile) }

    static func isFile(_ input: String) -> Bool {
        let lowered = input.lowercased()
        return [".wsh", ".http", ".rest", ".json", ".yaml", ".yml"].contains { lowered.hasSuffix($0) } || input.contains("/")
    }
}
