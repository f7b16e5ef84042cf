/// How `wsh test` runs: `wsh test [PATH...] [--jobs N] [--var NAME=VALUE]... [--secret NAME=VALUE]... [--stub] [--report-* ...]`.
public struct TestSettings: Equatable, Sendable {
    /// Files and directories (every `*.wsh` under a directory); the current directory when empty.
    public var paths: [String] = []
    /// Files run at once; nil: the number of cores.
    public var jobs: Int?
    /// `--timeout DURATION` as given: a file that runs longer is ended, errored; nil: no limit.
    public var timeout: String?
    /// `NAME=VALUE` for every file's session.
    public var variables: [String] = []
    /// `NAME=VALUE` for every file's session, each a secret (`--secret`).
    public var secrets: [String] = []
    /// Answer calls from `sample` data.
    public var stub = false
    /// `--env NAME`: each file's session chooses this environment, from the files beside it.
    public var environment: String?
    public var junitFile: String?
    public var tapFile: String?
    public var jsonFile: String?
    /// The directory the HTML report (`index.html`) is written to.
    public var htmlDirectory: String?
    /// `--report-har FILE`: every call of every file as HAR 1.2.
    public var harFile: String?
    /// Set in a worker for `--report-har`: it keeps every call's bodies.
    public var keepsBodies = false
    /// Set in a worker process: the one file it runs, writing its ``TestFileResult`` as JSON on stdout.
    public var workerFile: String?
    /// `--shard K/N`: only this slice of the files.
    var shard: TestShard?
    /// `--durations FILE`: an earlier run's JSON report, whose times balance the slices.
    var durationsFile: String?

    /// The longest a file may run, from ``timeout``.
    var timeLimit: Duration? { timeout.flatMap(DurationText.parse) }

    /// Whether a report file is asked for: then the run, not its lines on stdout, is what counts.
    var writesReports: Bool {
        [junitFile, tapFile, jsonFile, htmlDirectory, harFile].contains { $0 != nil }
    }

    /// The files the reports are written to (the HTML report's `index.html`).
    var reportFiles: [String] {
        [junitFile, tapFile, jsonFile, harFile, htmlDirectory.map(HTMLReport.file(in:))].compactMap { $0 }
    }

    public init() {}
}
