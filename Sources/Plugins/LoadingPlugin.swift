import Targets

/// A spinner with the target's name and the elapsed time, `⠋ current 1.2s`, drawn on the console's
/// status line while a request is under way and erased (`\r\e[K`) when it ends (Moya's
/// `NetworkActivityPlugin`). It draws only when the console is a terminal, so nothing reaches a pipe
/// or a file, and never on stdout.
///
/// Every attempt is shown: the spinner starts in `willSend` and is erased in `didReceive`, so a retry
/// plugin's notices appear between attempts on a clean line. Copies of a plugin share one spinner;
/// keep one value for a session so concurrent calls share the line (the latest call is shown).
public struct LoadingPlugin: Plugin {
    /// The frames of the spinner, one per ``interval``.
    public static let frames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// Where the spinner is drawn.
    public let console: Console
    /// How often the spinner is redrawn.
    public let interval: Duration
    private let spinner: Spinner

    /// `loading`.
    public var name: String { "loading" }

    /// A spinner on `console` (by default stderr), redrawn every `interval`.
    public init(console: Console = .standardError, interval: Duration = .milliseconds(80)) {
        self.console = console
        self.interval = interval
        self.spinner = Spinner(console: console, interval: interval)
    }

    /// Starts the spinner for this attempt, at a terminal only.
    public func willSend(_ request: Request, target: any TargetType) async {
        guard console.isTerminal else { return }
        spinner.begin(target.name)
    }

    /// Stops the spinner of `targetName` now, from any thread, because its answer's body is about to
    /// be drawn on the terminal as it arrives; `didReceive` then has nothing left to erase.
    public func answerArrives(for targetName: String) {
        guard console.isTerminal else { return }
        spinner.stop(targetName)
    }

    /// Ends this attempt's spinner; the line is erased before this returns when no other call is under way.
    public func didReceive(_ result: Result<Response, ProviderError>, target: any TargetType) async {
        guard console.isTerminal else { return }
        await spinner.end(target.name)
    }
}
