import Testing
import Reactor

/// Actions with the same cancellation key, sent with `cancelsInFlight`, supersede
/// the ones still running. Gates, not clocks, order the steps.
@Suite(.timeLimit(.minutes(1)))
struct StoreCancellationTests {
    typealias Action = ScriptedReactor.Action

    /// A slow action: emits `start`, signals `started`, waits for `release`, emits
    /// `end`, signals `finished`. Its producer ignores cancellation and goes on.
    struct SlowAction {
        let started = Gate()
        let release = Gate()
        let finished = Gate()

        func action(key: String?) -> Action {
            Action(name: "slow", key: key, steps: [
                .emit("slow start"), .open(started), .wait(release), .emit("slow end"), .open(finished),
            ])
        }
    }

    @Test func aSecondActionWithTheSameKeyCancelsTheFirst() async throws {
        let store = Store(reactor: ScriptedReactor())
        let errors = Recorder<String>()
        await store.observeErrors { action, _ in errors.append(action.name) }
        let slow = SlowAction()
        let first = Task { try await store.send(slow.action(key: "job")) }
        await slow.started.wait()

        try await store.send(Action(name: "fast", key: "job", steps: [.emit("fast")]), cancelsInFlight: true)

        await #expect(throws: CancellationError.self) { try await first.value }
        slow.release.open()
        await slow.finished.wait()
        // One more action through the store, so anything the slow producer yielded
        // would have reached reduce by now.
        try await store.send(Action(name: "after", steps: [.emit("after")]))
        #expect(await store.currentState.log == ["slow start", "fast", "after"])
        #expect(errors.all.isEmpty)
    }

    @Test func withoutCancelsInFlightBothCompleteInOrder() async throws {
        let store = Store(reactor: ScriptedReactor())
        let slow = SlowAction()
        let first = Task { try await store.send(slow.action(key: "job")) }
        await slow.started.wait()

        try await store.send(Action(name: "fast", key: "job", steps: [.emit("fast 1"), .emit("fast 2")]))
        slow.release.open()
        try await first.value

        #expect(await store.currentState.log == ["slow start", "fast 1", "fast 2", "slow end"])
    }

    @Test func differentOrMissingKeysCancelNothing() async throws {
        let store = Store(reactor: ScriptedReactor())
        let slow = SlowAction()
        let first = Task { try await store.send(slow.action(key: "job")) }
        await slow.started.wait()

        try await store.send(Action(name: "other", key: "other job", steps: [.emit("other")]), cancelsInFlight: true)
        try await store.send(Action(name: "keyless", steps: [.emit("keyless")]), cancelsInFlight: true)
        slow.release.open()
        try await first.value

        #expect(await store.currentState.log == ["slow start", "other", "keyless", "slow end"])
    }

    @Test func cancellingTheSendingTaskCancelsItsAction() async throws {
        let store = Store(reactor: ScriptedReactor())
        let slow = SlowAction()
        let first = Task { try await store.send(slow.action(key: nil)) }
        await slow.started.wait()

        first.cancel()

        await #expect(throws: CancellationError.self) { try await first.value }
        slow.release.open()
        await slow.finished.wait()
        try await store.send(Action(name: "after", steps: [.emit("after")]))
        #expect(await store.currentState.log == ["slow start", "after"])
    }

    /// The counter with a long delay on increase and none on decrease, all under one key.
    struct KeyedCounter: Reactor {
        let initialState = CounterReactor.State()

        func mutate(action: CounterReactor.Action) -> AsyncThrowingStream<CounterReactor.Mutation, any Error> {
            CounterReactor(delay: action == .increase ? .seconds(30) : .zero).mutate(action: action)
        }

        func reduce(state: CounterReactor.State, mutation: CounterReactor.Mutation) -> CounterReactor.State {
            CounterReactor().reduce(state: state, mutation: mutation)
        }

        func cancellationKey(for action: CounterReactor.Action) -> String? {
            "counter"
        }
    }

    @Test func aCancelledCounterLeavesAConsistentState() async throws {
        let store = Store(reactor: KeyedCounter())
        let loadingShown = Gate()
        await store.observe { state, _ in if state.isLoading { loadingShown.open() } }
        let increase = Task { try await store.send(.increase) }
        await loadingShown.wait()

        // Supersedes the increase while it sleeps: its value change never comes.
        try await store.send(.decrease, cancelsInFlight: true)

        await #expect(throws: CancellationError.self) { try await increase.value }
        #expect(await store.currentState == .init(value: -1, isLoading: false))
    }
}
