import Foundation
import Plugins
import Targets

/// What a spinner's console wrote, in order, from any thread, and a way to wait until it has drawn:
/// a stand-in for a terminal.
final class SpinnerScreen: @unchecked Sendable {
    // Sendable by construction: `writes` and `waiters` are only touched under `lock`.
    private let lock = NSLock()
    private var writes: [String] = []
    private var waiters: [(frames: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Everything written so far.
    var lines: [String] { lock.withLock { writes } }

    /// An output closure for a ``Console`` that writes here.
    var output: OutputClosure { { [self] text in append(text) } }

    /// Whether `write` draws the status line (a frame), rather than erasing it or writing a line.
    static func isFrame(_ write: String) -> Bool {
        write.hasPrefix("\r") && !write.hasPrefix(Console.eraseLine)
    }

    /// Returns once `count` frames have been drawn since the status line was last erased.
    func waitForFrames(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let drawn = lock.withLock {
                if framesSinceErase() >= count { return true }
                waiters.append((count, continuation))
                return false
            }
            if drawn { continuation.resume() }
        }
    }

    private func append(_ text: String) {
        let ready = lock.withLock {
            writes.append(text)
            let drawn = framesSinceErase()
            defer { waiters.removeAll { $0.frames <= drawn } }
            return waiters.filter { $0.frames <= drawn }.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Called under `lock`.
    private func framesSinceErase() -> Int {
        writes.reversed().prefix { $0 != Console.eraseLine }.filter(Self.isFrame).count
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
