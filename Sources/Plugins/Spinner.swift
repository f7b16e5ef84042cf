import Foundation

/// The state of a ``LoadingPlugin``'s spinner: the attempts under way and the task that draws.
final class Spinner: @unchecked Sendable {
    private struct Activity {
        var name: String
        var start: ContinuousClock.Instant
    }

    private let console: Console
    private let interval: Duration
    private let clock = ContinuousClock()
    private let lock = NSLock()
    private var activities: [Activity] = []
    private var drawing: Task<Void, Never>?

    init(console: Console, interval: Duration) {
        self.console = console
        self.interval = interval
    }

    /// Shows `name` from now on, starting the drawing task if none runs.
    func begin(_ name: String) {
        lock.withLock {
            activities.append(Activity(name: name, start: clock.now))
            guard drawing == nil else { return }
            drawing = Task.detached { [self] in await draw() }
        }
    }

    /// Stops showing `name`; when nothing is left, stops drawing and erases the line before returning.
    func end(_ name: String) async {
        let finished: Task<Void, Never>? = lock.withLock {
            if let index = activities.lastIndex(where: { $0.name == name }) { activities.remove(at: index) }
            guard activities.isEmpty else { return nil }
            defer { drawing = nil }
            return drawing
        }
        guard let finished else { return }
        finished.cancel()
        await finished.value
        console.clearStatus()
    }

    /// `⠋ current 1.2s` for the latest attempt, or `nil` when there is none.
    private func frame(tick: Int) -> String? {
        lock.withLock {
            guard let latest = activities.last else { return nil }
            let frame = LoadingPlugin.frames[tick % LoadingPlugin.frames.count]
            return "\(frame) \(latest.name) \(latest.start.duration(to: clock.now).spinnerText)"
        }
    }

    private func draw() async {
        var tick = 0
        while !Task.isCancelled {
            if let text = frame(tick: tick) { console.showStatus(text) }
            tick += 1
            try? await Task.sleep(for: interval)
        }
    }
}
