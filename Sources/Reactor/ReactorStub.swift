import Synchronization

/// ReactorKit's `Stub`, for testing what sits in front of a store (the shell's
/// commands and echo) without running the reactor.
///
/// Give it to ``Store/init(reactor:stub:)``. Then every action sent to that store
/// is recorded in `actions` instead of being run, and the store's state is
/// whatever the test sets `state` to:
///
///     let stub = ReactorStub(reactor: CounterReactor())
///     let store = Store(reactor: CounterReactor(), stub: stub)
///     try await store.send(.increase)
///     #expect(stub.actions == [.increase])
///     stub.state = CounterReactor.State(value: 3, isLoading: true)
///     #expect(await store.currentState.value == 3)
///
/// Thread-safe: every member may be used from any task; each read or write is
/// atomic, and states are recorded and streamed in the order they were set.
public final class ReactorStub<R: Reactor>: Sendable {
    private struct Contents {
        var actions: [R.Action] = []
        var states: [R.State]
        var stateStreams = ObserverList<AsyncStream<R.State>.Continuation>()
        var nextStreamID = 0
    }

    private let contents: Mutex<Contents>

    /// A stub whose state starts at `initialState`.
    public init(initialState: R.State) {
        contents = Mutex(Contents(states: [initialState]))
    }

    /// A stub whose state starts at `reactor.initialState` (not transformed).
    public convenience init(reactor: R) {
        self.init(initialState: reactor.initialState)
    }

    deinit {
        for continuation in contents.withLock({ $0.stateStreams.removeAll() }) {
            continuation.finish()
        }
    }

    /// The actions sent to a store that uses this stub, oldest first, as sent
    /// (before `transform(action:)`). Settable, to clear between steps of a test.
    public var actions: [R.Action] {
        get { contents.withLock { $0.actions } }
        set { contents.withLock { $0.actions = newValue } }
    }

    /// The state the stubbed store reports. Setting it appends to `states` and
    /// yields the new state to the store's `states` streams.
    public var state: R.State {
        get { contents.withLock { $0.states[$0.states.count - 1] } }
        set {
            contents.withLock { contents in
                contents.states.append(newValue)
                for continuation in contents.stateStreams.observers {
                    continuation.yield(newValue)
                }
            }
        }
    }

    /// Every state the stub has had, the initial one first.
    public var states: [R.State] {
        contents.withLock { $0.states }
    }

    func record(_ action: R.Action) {
        contents.withLock { $0.actions.append(action) }
    }

    /// The current state, then every state set from now on.
    func makeStateStream() -> AsyncStream<R.State> {
        let (stream, continuation) = AsyncStream<R.State>.makeStream()
        let token = contents.withLock { contents in
            defer { contents.nextStreamID += 1 }
            let token = ObservationToken(id: contents.nextStreamID)
            continuation.yield(contents.states[contents.states.count - 1])
            contents.stateStreams.add(continuation, as: token)
            return token
        }
        continuation.onTermination = { [weak self] _ in
            self?.contents.withLock { _ = $0.stateStreams.remove(token) }
        }
        return stream
    }
}
