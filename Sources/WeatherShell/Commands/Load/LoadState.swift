import Foundation
import Load

/// The open model's users not in an iteration now.
@ShellActor
final class UserPool {
    private var idle: [VirtualUser]
    private(set) var busy = 0

    init(_ first: VirtualUser) {
        idle = [first]
    }

    /// A free user, counted busy; nil when a new one is needed (it is counted busy too).
    func take() -> VirtualUser? {
        busy += 1
        return idle.popLast()
    }

    func give(back user: VirtualUser) {
        busy -= 1
        idle.append(user)
    }
}

/// A run's plan and what it has done so far.
@ShellActor
final class LoadState {
    let options: LoadOptions
    /// When the run started: a worker's is its parent's, so that their seconds and their end agree.
    let started: ContinuousClock.Instant
    /// Which of the run's processes this is.
    let slot: LoadOptions.Slot
    let stats: LoadStats
    var interrupted = false

    init(options: LoadOptions) {
        self.options = options
        started = options.worker?.started ?? .now
        slot = options.worker ?? .whole
        stats = LoadStats(started: self.started)
    }

    /// A new user, its calls going where the run may send them.
    func user(from parent: Run) -> VirtualUser {
        let user = VirtualUser(stats: stats, from: parent, allowedHosts: options.allowedHosts, ends: ends)
        return user
    }

    /// When the run ends: `--duration` after it started.
    var ends: ContinuousClock.Instant { started + options.duration }

    var elapsed: Double { seconds(ContinuousClock.now - started) }

    func seconds(_ duration: Duration) -> Double {
        duration.milliseconds / 1000
    }

    /// `10 users` or `200 arrivals/s`.
    var plan: String {
        let processes = options.processes > 1 ? " in \(options.processes) processes" : ""
        if let rate = options.rate { return "\(LoadView.formatted(rate, digits: 1)) arrivals/s (at most \(options.connections) at once)" + processes }
        return "\(options.users) user\(options.users == 1 ? "" : "s")" + processes
    }

    /// `, 2000 arrivals` for the open model, whose count is known.
    var totalCalls: String {
        guard let rate = options.rate else { return "" }
        let arrivals = Int(rate * (seconds(options.duration) - seconds(options.ramp) / 2))
        return ", about \(arrivals) iterations"
    }
}

/// The live view's lines on stderr: at a terminal redrawn in place, in a pipe one line a second.
@ShellActor
final class LiveLines {
    let terminal: Bool
    private var drawn = 0

    init(terminal: Bool) {
        self.terminal = terminal
    }

    func draw(_ lines: [String]) {
        var text = ""
        if terminal {
            if drawn > 0 { text += "\u{1B}[\(drawn)A" }
            // Each line cut to the screen: one that wrapped took two rows, and moving up by lines left a stale one each second.
            let columns = Pager.terminalSize(of: STDERR_FILENO)?.columns
            text += lines.map { line in "\r\u{1B}[K" + (columns.map { EchoStyle.cut(line, to: $0) } ?? line) }.joined(separator: "\n") + "\n"
            // Lines left from a longer frame are cleared.
            if drawn > lines.count { text += String(repeating: "\u{1B}[K\n", count: drawn - lines.count) + "\u{1B}[\(drawn - lines.count)A" }
            drawn = lines.count
        } else {
            text = lines.joined(separator: "\n") + "\n"
        }
        FileHandleOutput.standardError(text)
    }

    /// The plain lines drawn so far, one a second of the run.
    private(set) var secondsShown = 0

    /// In a pipe: the plain lines of the seconds before `end` not shown yet.
    func drawPlain(_ snapshot: LoadStats.Snapshot, upTo end: Int) {
        guard secondsShown < end else { return }
        draw((secondsShown..<end).map { LoadView.plain(snapshot, second: $0) })
        secondsShown = end
    }

    func clear() {
        guard terminal, drawn > 0 else { return }
        FileHandleOutput.standardError("\u{1B}[\(drawn)A" + String(repeating: "\r\u{1B}[K\n", count: drawn) + "\u{1B}[\(drawn)A")
        drawn = 0
    }
}
