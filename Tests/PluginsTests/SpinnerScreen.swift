import Plugins
import Synchronization
import Targets

/// What a spinner's console wrote, in order, from any thread, and a way to wait until it has drawn:
/// a stand-in for a terminal.
final class SpinnerScreen: Sendable {
    private struct State {
        var writes: [String] = []
        var waiters: [(frames: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// The frames drawn since the status line was last erased.
        var framesSinceErase: Int {
            writes.reversed().prefix { $0 != Console.eraseLine }.filter(SpinnerScreen.isFrame).count
        }
    }

    private let state = Mutex(State())

    /// Everything written so far.
    var lines: [String] { state.withLock { $0.writes } }

    /// An output closure for a ``Console`` that writes here.
    var output: OutputClosure { { [self] text in append(text) } }

    /// Whether `write` draws the status line (a frame), rather than erasing it or writing a line.
    static func isFrame(_ write: String) -> Bool {
        write.hasPrefix("\r") && !write.hasPrefix(Console.eraseLine)
    }

    /// Returns once `count` frames have been drawn since the status line was last erased.
    func waitForFrames(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let drawn = state.withLock { state in
                if state.framesSinceErase >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if drawn { continuation.resume() }
        }
    }

    private func append(_ text: String) {
        let ready = state.withLock { state in
            state.writes.append(text)
            let drawn = state.framesSinceErase
            defer { state.waiters.removeAll { $0.frames <= drawn } }
            return state.waiters.filter { $0.frames <= drawn }.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }
}

/// Sends each attempt only once the spinner has drawn `frames` frames for it, so a test sees the
/// drawing however busy the machine is, without waiting a fixed time.
struct AfterFramesTransport: Transport {
    let screen: SpinnerScreen
    var frames = 1
    var next: any Transport = NetworkTransport.shared

    func send<T: TargetType>(_ request: Request, for target: T) async throws(ProviderError) -> Response {
        await screen.waitForFrames(frames)
        return try await next.send(request, for: target)
    }
}
