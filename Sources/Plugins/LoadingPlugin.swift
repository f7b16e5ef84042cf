import Targets

/// A spinner with the target's name, the elapsed time and the body bytes received so far,
/// `⠋ current 1.2s 48 KB`, drawn on the console's status line once a request has gone unanswered
/// for ``delay`` and erased (`\r\e[K`) when it ends (Moya's `NetworkActivityPlugin`). It draws
/// only when the console is a terminal, so nothing reaches a pipe or a file, and never on stdout.
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
    /// How long a request goes unanswered before the spinner shows: a quick answer draws nothing.
    public let delay: Duration
    private let spinner: Spinner

    /// `loading`.
    public var name: String { "loading" }

    /// A spinner on `console` (by default stderr), shown after `delay` and redrawn every `interval`.
    public init(console: Console = .standardError, interval: Duration = .milliseconds(80), delay: Duration = .zero) {
        self.console = console
        self.interval = interval
        self.delay = delay
        self.spinner = Spinner(console: console, interval: interval, delay: delay)
    }

    /// Gives the request a counter of the bytes received, which the spinner shows.
    public func prepare(_ request: Request, target: any TargetType) async throws(ProviderError) -> Request {
        guard console.isTerminal, request.receivedBytes == nil else { return request }
        var counted = request
        counted.receivedBytes = ReceivedBytes()
        return counted
    }

    /// Starts the spinner for this attempt, at a terminal only.
    public func willSend(_ request: Request, target: any TargetType) async {
        guard console.isTerminal else { return }
        request.receivedBytes?.reset()
        spinner.begin(target.name, received: request.receivedBytes)
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
