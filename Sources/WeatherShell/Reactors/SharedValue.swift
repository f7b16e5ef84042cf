import Synchronization

/// A value that the shell sets and reactors read from their own tasks.
final class SharedValue<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) { storage = Mutex(value) }

    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

/// A run held without keeping it alive, for a reactor that outlives the run that sent it an action.
struct WeakRun: Sendable {
    weak var run: Run?

    init(_ run: Run) { self.run = run }
}
