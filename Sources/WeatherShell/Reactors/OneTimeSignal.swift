import Synchronization

/// A signal given once and awaited by one task: an `emit` waits until its mutation has been
/// reduced and echoed (so output written later in the action cannot come before that echo), and
/// an interrupted action's clean-up waits until the action's statements have stopped.
/// Cancellation of the waiting task releases the wait.
final class OneTimeSignal: Sendable {
    private enum Phase {
        case pending
        case waiting(CheckedContinuation<Void, Never>)
        case done
    }
    private let phase = Mutex(Phase.pending)

    /// Gives the signal; a later `wait` returns at once.
    func signal() {
        let continuation: CheckedContinuation<Void, Never>? = phase.withLock { phase in
            defer { phase = .done }
            if case .waiting(let continuation) = phase { return continuation }
            return nil
        }
        continuation?.resume()
    }

    /// Returns once signalled, or once the waiting task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = phase.withLock { phase -> Bool in
                    if case .pending = phase {
                        phase = .waiting(continuation)
                        return false
                    }
                    return true
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            signal()
        }
    }
}
