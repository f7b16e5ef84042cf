import Targets

/// Something a run did that a reporter may count or show: the test runner builds its
/// reports from these.
public enum RunEvent: Sendable {
    /// A call finished: its response, and the error (already masked) when it failed. The response
    /// is as sent and received, credentials included: show any of it through `redaction`, which
    /// masks the session's secrets and sensitive headers (`redaction.maskedBody(of:)`, `mask(_:)`).
    /// `request` is what was sent when no answer came (a timeout, a refused connection), else nil.
    /// `started` is when the call began: a call with no answer took from then to this event.
    case call(target: String, unanswered: Request?, response: Response?, failure: String?, redaction: Redaction,
              started: ContinuousClock.Instant)
    /// An `expect` was evaluated.
    case expect(ExpectationResult)
    /// A diagnostic the run printed, secrets masked (a failed `expect` is reported as `.expect` and then as this).
    case error(Diagnostic)
    /// A warning the run printed, secrets masked, without `warning: ` (a `use openapi` document's
    /// problem: a keyword `expect schema` cannot read, an unknown type).
    case warning(String)
    /// The statement at `span` of `file` was stopped by an interrupt (Ctrl-C, SIGTERM: see
    /// `Interruption`); a call it had sent was reported just before, failed as `interrupted`.
    case interrupted(file: SourceFile, span: SourceSpan)
}

/// The outcome of one `expect`.
public struct ExpectationResult: Sendable {
    /// The expectation as written, without `expect`.
    public var source: String
    /// Where it is, for reports.
    public var file: SourceFile
    public var span: SourceSpan
    public var passed: Bool
}

/// Sees every call, `expect` and error of a run, on the shell's actor, in the order they happen.
@ShellActor
public protocol RunReporter: AnyObject {
    func report(_ event: RunEvent)
}
