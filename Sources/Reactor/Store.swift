/// Owns the current state of one reactor and runs its loop:
/// `send(action) -> mutate -> each mutation -> reduce -> state -> observers`.
///
/// Contract:
/// - The mutations of one action are reduced in the order `mutate` yields them,
///   each exactly once (an action cancelled part-way has its remaining mutations
///   dropped, never reduced).
/// - Reduces never interleave: they run one at a time on this actor. Mutations of
///   actions running at the same time are reduced as they arrive, so their order
///   across actions is the order of arrival.
/// - After each reduce the new state is published synchronously, on this actor and
///   before the next reduce: to every observer, in the order they were registered,
///   then to every `states` stream.
/// - An error thrown by `mutate` ends that action only: it is given to the error
///   observers and thrown from `send`. Later actions run normally.
///
/// A store made with a ``ReactorStub`` runs no reactor hooks at all; see
/// ``init(reactor:stub:)``.
public actor Store<R: Reactor> {
    /// Called with the new state and the mutation that produced it.
    public typealias StateObserver = @Sendable (_ state: R.State, _ mutation: R.Mutation) -> Void
    /// Called with the (transformed) action whose `mutate` threw, and the error.
    public typealias ErrorObserver = @Sendable (_ action: R.Action, _ error: any Error) -> Void

    /// The reactor whose hooks this store calls.
    public nonisolated let reactor: R

    let stub: ReactorStub<R>?
    var state: R.State
    var stateObservers = ObserverList<StateObserver>()
    var errorObservers = ObserverList<ErrorObserver>()
    var stateStreams = ObserverList<AsyncStream<R.State>.Continuation>()
    var nextObservationID = 0
    private var inFlight = InFlightActions()

    /// A store at `reactor.transform(state: reactor.initialState)`.
    public init(reactor: R) {
        self.reactor = reactor
        self.stub = nil
        self.state = reactor.transform(state: reactor.initialState)
    }

    /// A store for tests of what sits in front of it (ReactorKit's stub mode):
    /// `send` records the action in `stub.actions` and returns at once, without
    /// calling any hook of the reactor; `currentState` is `stub.state`; `states`
    /// yields `stub.state` now and on every change. State observers and error
    /// observers are never called, as there are no mutations and no errors.
    public init(reactor: R, stub: ReactorStub<R>) {
        self.reactor = reactor
        self.stub = stub
        self.state = stub.state
    }

    deinit {
        for continuation in stateStreams.removeAll() {
            continuation.finish()
        }
    }

    /// The state after the last reduce (or the initial state), as observers last saw it.
    public var currentState: R.State {
        stub?.state ?? state
    }

    /// Runs `action` to completion: returns once all its mutations are reduced and
    /// published.
    ///
    /// - If `mutate` throws, the mutations it yielded before are reduced, the error
    ///   goes to the error observers, and `send` throws it.
    /// - If `cancelsInFlight` is true and the action has a cancellation key, every
    ///   action with the same key that is still running is cancelled first: none of
    ///   its remaining mutations is reduced, and its `send` throws
    ///   `CancellationError`. The cancelled actions are not awaited; their producers
    ///   are told to stop through their stream's termination.
    /// - If the task calling `send` is cancelled, the action is cancelled the same
    ///   way and `send` throws `CancellationError`.
    ///
    /// Either way the mutations reduced before a cancellation or error stay reduced.
    /// Cancellations are not reported to the error observers.
    public func send(_ action: R.Action, cancelsInFlight: Bool = false) async throws {
        if let stub {
            stub.record(action)
            return
        }
        let action = reactor.transform(action: action)
        let key = reactor.cancellationKey(for: action)
        if cancelsInFlight, let key {
            inFlight.cancel(key: key)
        }
        let id = inFlight.begin(key: key)
        defer { inFlight.end(id) }
        let mutations = reactor.transform(mutations: reactor.mutate(action: action))
        let consumer = Task {
            try await self.consume(mutations, of: action, id: id)
        }
        inFlight.attach(consumer, to: id)
        try await withTaskCancellationHandler {
            try await consumer.value
        } onCancel: {
            consumer.cancel()
        }
    }

    /// Reduces the mutations of one action as they arrive, until the stream ends,
    /// fails, or the action is cancelled.
    private func consume(
        _ mutations: AsyncThrowingStream<R.Mutation, any Error>,
        of action: R.Action,
        id: InFlightActions.ID
    ) async throws {
        do {
            for try await mutation in mutations {
                // Checked here, on the actor, right before the reduce: once an action
                // is cancelled none of its mutations gets through.
                guard !isCancelled(id) else { throw CancellationError() }
                apply(mutation)
            }
        } catch {
            if isCancelled(id) { throw CancellationError() }
            report(error, of: action)
            throw error
        }
        // A cancelled consumer sees its stream end early, as if finished.
        if isCancelled(id) { throw CancellationError() }
    }

    private func isCancelled(_ id: InFlightActions.ID) -> Bool {
        Task.isCancelled || inFlight.isCancelled(id)
    }

    private func apply(_ mutation: R.Mutation) {
        state = reactor.transform(state: reactor.reduce(state: state, mutation: mutation))
        publish(state, from: mutation)
    }
}
