/// What one file of `wsh test` did: its calls, checks and errors, secrets already masked.
///
/// A worker process (one per file) encodes it as JSON on its stdout; the runner decodes it,
/// prints the file's line and builds every report from it. Nothing in it holds a secret: the
/// worker masks each text with the session's ``Targets/Redaction`` before it is recorded.
public struct TestFileResult: Codable, Sendable {
    /// How a file ended.
    public enum Outcome: String, Codable, Sendable {
        /// Every `expect` held and nothing failed.
        case passed
        /// An `expect` failed, and no runtime error happened.
        case failed
        /// A runtime or parse error (or wsh itself stopped) before the file finished.
        case errored
        /// Ctrl-C stopped it.
        case interrupted
    }

    /// The path as given or found under a directory.
    public var path: String
    public var outcome: Outcome
    /// Wall time of the file, from starting its worker to its result.
    public var milliseconds: Double
    /// When its worker started, in milliseconds since 1970: files whose spans overlap ran at once.
    public var startedAt: Double = 0
    public var calls: [TestCallRecord] = []
    public var checks: [TestCheckRecord] = []
    /// Runtime and parse errors (failed expectations are in ``checks``).
    public var errors: [TestErrorRecord] = []
    /// The warnings the run printed (a `use openapi` document's problems), masked: shown under
    /// the file's line and in every report, as a check they weaken passes without them.
    public var warnings: [String] = []
    /// The first failure, for the file's line: `path:12:8 expectation failed: ...`.
    public var firstFailure: TestFailure?

    public init(path: String, outcome: Outcome, milliseconds: Double) {
        self.path = path
        self.outcome = outcome
        self.milliseconds = milliseconds
    }

    public var failedChecks: Int { checks.count(where: { !$0.passed }) }
}

/// One call a test file made, as reports show it.
public struct TestCallRecord: Codable, Sendable {
    public var target: String
    public var method: String?
    /// The URL, masked.
    public var url: String?
    public var status: Int?
    public var reason: String?
    /// When the call started and how long it took, from the start of the file's run.
    public var startMilliseconds: Double
    public var milliseconds: Double
    /// Why the call failed (masked), when it did.
    public var failure: String?
    public var requestHeaders: [TestHeader] = []
    public var responseHeaders: [TestHeader] = []
    /// The response body as text, masked, cut to ``TestRecorder/keptBodyLimit`` bytes: kept for
    /// the answers a failed check looked at and for the file's last call, nil for the others.
    public var body: String?
    public var bodyBytes: Int = 0
    public var bodyCut = false
    /// A binary body (an image, bytes that are not UTF-8: ``ResponsePrinter/isBinary(_:contentType:)``)
    /// as base64, cut as ``body`` is, where ``body`` would be: text decoded from it would not be the
    /// body. Nil, like ``body``, for a binary body that holds a secret.
    public var bodyBase64: String?
    /// The request's body as text, masked and cut as ``body`` is: kept only for `--report-har`.
    public var requestBody: String?
    /// After redirects followed, the URL that gave the answer (``url`` is the one the test
    /// called), and each redirect as it came, in order; nil when none was followed.
    public var finalUrl: String?
    public var redirects: [TestRedirect]?
}

/// A redirect a call followed: the request it answered and what it said (masked).
public struct TestRedirect: Codable, Sendable {
    public var method: String
    public var url: String
    public var status: Int
    /// Its `Location` header.
    public var location: String?
}

/// A header name and its (masked) value.
public struct TestHeader: Codable, Sendable {
    public var name: String
    public var value: String
}

/// One `expect`.
public struct TestCheckRecord: Codable, Sendable {
    /// The expectation as written, without `expect`.
    public var source: String
    public var file: String
    public var line: Int
    public var column: Int
    public var passed: Bool
    /// Time from the start of the file's run to this check.
    public var atMilliseconds: Double
    /// For a failed check: the message and notes (`actual: ...`).
    public var message: String?
    public var notes: [String] = []
    /// For a failed check: its source line and a caret under the expression, masked.
    public var excerpt: String?
    /// The index in the file's calls of the response this check looked at.
    public var callIndex: Int?
}

/// A runtime or parse error of a test file.
public struct TestErrorRecord: Codable, Sendable {
    /// `parse`, `runtime`, `usage`, `interrupted`.
    public var kind: String
    public var message: String
    public var file: String?
    public var line: Int?
    public var column: Int?
    public var notes: [String] = []
    /// The error as wsh printed it: location, source line, caret, notes.
    public var rendered: String
    /// The source line and a caret under the place, masked, when the error has a place in a file.
    public var excerpt: String?
    /// The index in the file's checks of the `expect` that could not be evaluated, when this
    /// error is that check's (it counts once, as an error, in JUnit's counts).
    public var checkIndex: Int?
}

extension TestFileResult {
    /// Where an interrupt (Ctrl-C, SIGTERM) stopped the file, by which, and the call in flight.
    var interruption: TestErrorRecord? { errors.last { $0.kind == "interrupted" } }

    /// `FILE:LINE:COLUMN` of an error, or the file's path when it has no line.
    func place(of error: TestErrorRecord) -> String {
        error.line.map { "\(error.file ?? path):\($0):\(error.column ?? 1)" } ?? path
    }

    /// `FILE:LINE:COLUMN` a failed check points at: its `error`'s place when it could not be
    /// evaluated (`$undefined` at column 14, where the caret is), else its expression's.
    func failurePlace(of check: TestCheckRecord, error: TestErrorRecord?) -> String {
        error.map(place(of:)) ?? "\(check.file):\(check.line):\(check.column)"
    }

    /// The file's errors in two parts: those of checks that could not be evaluated, by the check's
    /// index (the first error of each failed check), and the others: runtime and parse errors, and
    /// failures that are no `expect` (an `until` that ran out, `exit 4`). Reports show and count
    /// the first part with its check, once.
    var errorsByCheck: (ofChecks: [Int: TestErrorRecord], others: [TestErrorRecord]) {
        var ofChecks: [Int: TestErrorRecord] = [:], others: [TestErrorRecord] = []
        for error in errors {
            if let index = error.checkIndex, checks.indices.contains(index), !checks[index].passed, ofChecks[index] == nil {
                ofChecks[index] = error
            } else {
                others.append(error)
            }
        }
        return (ofChecks, others)
    }
}

/// Where and why a file first failed.
public struct TestFailure: Codable, Sendable {
    /// `path:line:column`, or the path alone.
    public var location: String
    public var message: String
    public var notes: [String] = []
    /// The source line and a caret under the place, masked, when there is one.
    public var excerpt: String?
}
