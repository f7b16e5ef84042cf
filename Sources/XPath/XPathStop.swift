internal import CLibXML2
import Synchronization

/// Stops an XPath evaluation running on another thread (Ctrl-C): libxml2 has no cancellation,
/// but it checks its context's operation limit as it goes, so ``stop()`` lowers that limit to 1
/// and the evaluation ends at its next counted operation with an error. Work libxml2 does not
/// count (merging node-sets) runs on until its next count.
public final class XPathStop: Sendable {
    /// The context of the evaluation running now. Used only under the lock, while the evaluation
    /// that owns it runs: it is detached before the context is freed.
    private struct Context: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<xmlXPathContext>
    }
    private struct State {
        var context: Context?
        var stopped = false
    }
    private let state = Mutex(State())

    public init() {}

    /// Ends the evaluation at its next counted operation, or the next one to start at its first.
    public func stop() {
        state.withLock { state in
            state.stopped = true
            // A plain store to a word the evaluating thread reads: at worst it sees it one count late.
            state.context?.pointer.pointee.opLimit = 1
        }
    }

    /// Whether ``stop()`` was called.
    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Called by the evaluation with its context, before it evaluates; `nil` when it is done,
    /// before the context is freed.
    func attach(_ context: UnsafeMutablePointer<xmlXPathContext>?) {
        let attached = context.map(Context.init)
        state.withLock { state in
            state.context = attached
            if state.stopped { attached?.pointer.pointee.opLimit = 1 }
        }
    }
}
