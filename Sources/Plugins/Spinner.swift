import Synchronization
import Targets

/// The state of a ``LoadingPlugin``'s spinner: the attempts under way and the task that draws.
final class Spinner: Sendable {
    private struct Activity {
        var name: String
        var start: ContinuousClock.Instant
        var received: ReceivedBytes?
    }

    private struct State {
        var activities: [Activity] = []
        var drawing: Task<Void, Never>?
    }

    private let console: Console
    private let interval: Duration
    private let delay: Duration
    private let clock = ContinuousClock()
    private let state = Mutex(State())

    init(console: Console, interval: Duration, delay: Duration) {
        self.console = console
        self.interval = interval
        self.delay = delay
    }

    /// Shows `name`, with the bytes `received` counts, from now on (after the delay), starting the
    /// drawing task if none runs.
    func begin(_ name: String, received: ReceivedBytes? = nil) {
        state.withLock { state in
            state.activities.append(Activity(name: name, start: clock.now, received: received))
            guard state.drawing == nil else { return }
            state.drawing = Task.detached { [self] in await draw() }
        }
    }

    /// Stops showing `name`; when nothing is left, stops drawing and erases the line before returning.
    func end(_ name: String) async {
        let finished: Task<Void, Never>? = state.withLock { state in
            if let index = state.activities.lastIndex(where: { $0.name == name }) { state.activities.remove(at: index) }
            guard state.activities.isEmpty else { return nil }
            defer { state.drawing = nil }
            return state.drawing
        }
        guard let finished else { return }
        finished.cancel()
        await finished.value
        console.clearStatus()
    }

    /// Stops showing `name` and erases the line at once, without waiting: under the lock, so that
    /// no frame drawn after it can cover what comes next on the terminal.
    func stop(_ name: String) {
        state.withLock { state in
            if let index = state.activities.lastIndex(where: { $0.name == name }) { state.activities.remove(at: index) }
            guard state.activities.isEmpty else { return }
            state.drawing?.cancel()
            state.drawing = nil
            console.clearStatus()
        }
    }

    /// Draws `⠋ current 1.2s 48 KB` for the latest attempt (the bytes once some have come), when
    /// there is one and drawing was not stopped.
    private func drawFrame(tick: Int) {
        state.withLock { state in
            guard let latest = state.activities.last, !Task.isCancelled else { return }
            let frame = LoadingPlugin.frames[tick % LoadingPlugin.frames.count]
            let bytes = latest.received.map(\.value).flatMap { $0 > 0 ? " " + ByteText.text($0) : nil } ?? ""
            console.showStatus("\(frame) \(latest.name) \(latest.start.duration(to: clock.now).spinnerText)\(bytes)")
        }
    }

    private func draw() async {
        if delay > .zero { try? await Task.sleep(for: delay) }
        var tick = 0
        while !Task.isCancelled {
            drawFrame(tick: tick)
            tick += 1
            try? await Task.sleep(for: interval)
        }
    }
}
