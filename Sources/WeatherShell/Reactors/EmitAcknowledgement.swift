import Synchronization

/// Lets an `emit` wait until its mutation has been reduced and echoed, so output written
/// later in the action cannot come before that echo. Cancellation releases the wait.
final class EmitAcknowledgement: Sendable {
    private enum Phase {
        case pending
        case waiting(CheckedContinuation<Void, Never>)
        case done
    }
    private let phase = Mutex(Phase.pending)

    /// Called by the store's observer after the reduce.
    func acknowledge() {
        let continuation: CheckedContinuation<Void, Never>? = phase.withLock { phase in
            defer { phase = .done }
            if case .waiting(let continuation) = phase { return continuation }
            return nil
        }
        continuation?.resume()
    }

    /// Returns once acknowledged, or once the waiting task is cancelled.
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
            acknowledge()
        }
    }
}
