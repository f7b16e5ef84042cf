import Foundation
import Reactor
import Synchronization
import Testing

/// Mutations are reduced in the order mutate yields them, each exactly once, and
/// every new state reaches the observers in order.
@Suite(.timeLimit(.minutes(1)))
struct StoreTests {
    typealias Counter = CounterReactor

    @Test func increaseEchoesExactlyThreeStatesInOrder() async throws {
        let store = Store(reactor: Counter())
        let observed = Recorder<(Counter.State, Counter.Mutation)>()
        await store.observe { state, mutation in observed.append((state, mutation)) }

        try await store.send(.increase)

        #expect(observed.all.map(\.0) == [
            .init(value: 0, isLoading: true),
            .init(value: 1, isLoading: true),
            .init(value: 1, isLoading: false),
        ])
        #expect(observed.all.map(\.1) == [.setLoading(true), .increaseValue, .setLoading(false)])
        #expect(await store.currentState == .init(value: 1, isLoading: false))
    }

    @Test func sequentialSendsAccumulate() async throws {
        let store = Store(reactor: Counter(delay: .zero))
        try await store.send(.increase)
        try await store.send(.increase)
        try await store.send(.decrease)
        #expect(await store.currentState == .init(value: 1, isLoading: false))
    }

    @Test func everyMutationIsReducedExactlyOnceInOrder() async throws {
        let store = Store(reactor: ScriptedReactor())
        let observed = Recorder<String>()
        await store.observe { _, mutation in observed.append(mutation) }

        try await store.send(.init(name: "many", steps: [.emitMany(prefix: "m", count: 200)]))

        let expected = (0..<200).map { "m\($0)" }
        #expect(observed.all == expected)
        #expect(await store.currentState.log == expected)
    }

    @Test func statesStreamStartsWithTheCurrentStateAndDropsNone() async throws {
        let store = Store(reactor: Counter(delay: .zero))
        var states = await store.states.makeAsyncIterator()
        try await store.send(.increase)
        try await store.send(.decrease)

        var received: [Counter.State] = []
        for _ in 0..<7 {
            received.append(try #require(await states.next()))
        }
        #expect(received == [
            .init(value: 0, isLoading: false),
            .init(value: 0, isLoading: true),
            .init(value: 1, isLoading: true),
            .init(value: 1, isLoading: false),
            .init(value: 1, isLoading: true),
            .init(value: 0, isLoading: true),
            .init(value: 0, isLoading: false),
        ])
    }

    @Test func observersAreCalledInRegistrationOrderUntilRemoved() async throws {
        let store = Store(reactor: ScriptedReactor())
        let calls = Recorder<String>()
        let first = await store.observe { _, mutation in calls.append("first \(mutation)") }
        await store.observe { _, mutation in calls.append("second \(mutation)") }

        try await store.send(.init(name: "a", steps: [.emit("a")]))
        await store.removeObserver(first)
        try await store.send(.init(name: "b", steps: [.emit("b")]))

        #expect(calls.all == ["first a", "second a", "second b"])
    }

    @Test func statesStreamFinishesWhenTheStoreIsReleased() async throws {
        var store: Store<ScriptedReactor>? = Store(reactor: ScriptedReactor())
        let states = await store!.states
        try await store!.send(.init(name: "a", steps: [.emit("a")]))
        store = nil

        var logs: [[String]] = []
        for await state in states {
            logs.append(state.log)
        }
        #expect(logs == [[], ["a"]])
    }
}

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

/// Sends from many tasks at once: reduces never overlap, and every observed
/// state is what one reduce made of the state before it.
@Suite(.timeLimit(.minutes(1)))
struct StoreConcurrencyTests {
    /// Counts reduces in progress, to catch two at once. Impure on purpose, for
    /// this test only.
    final class OverlapProbe: Sendable {
        private let counts = Mutex((running: 0, mostAtOnce: 0))

        var mostAtOnce: Int { counts.withLock { $0.mostAtOnce } }

        func enter() {
            counts.withLock { counts in
                counts.running += 1
                counts.mostAtOnce = max(counts.mostAtOnce, counts.running)
            }
        }

        func leave() {
            counts.withLock { $0.running -= 1 }
        }
    }

    struct SumReactor: Reactor {
        struct Mutation: Sendable, Equatable {
            let sender: Int
            let amount: Int
        }

        struct State: Sendable, Equatable {
            var total = 0
            var reduceCount = 0
            var lastAmountBySender: [Int: Int] = [:]
        }

        /// Yields amounts base+1, base+2, base+3 for its sender.
        struct Action: Sendable {
            let sender: Int
            let base: Int
        }

        let initialState = State()
        let probe: OverlapProbe

        func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error> {
            .emitting { emit in
                for step in 1...3 {
                    emit.yield(Mutation(sender: action.sender, amount: action.base + step))
                    await Task.yield()
                }
            }
        }

        func reduce(state: State, mutation: Mutation) -> State {
            probe.enter()
            defer { probe.leave() }
            var state = state
            state.total += mutation.amount
            state.reduceCount += 1
            state.lastAmountBySender[mutation.sender] = mutation.amount
            return state
        }
    }

    @Test func concurrentSendsNeverInterleaveAReduce() async throws {
        let probe = OverlapProbe()
        let reactor = SumReactor(probe: probe)
        let store = Store(reactor: reactor)
        let observed = Recorder<(SumReactor.State, SumReactor.Mutation)>()
        await store.observe { state, mutation in observed.append((state, mutation)) }
        let senders = 8
        let sendsEach = 25

        try await withThrowingTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for send in 0..<sendsEach {
                        try await store.send(.init(sender: sender, base: send * 10))
                    }
                }
            }
            try await group.waitForAll()
        }

        let observations = observed.all
        #expect(observations.count == senders * sendsEach * 3)
        #expect(probe.mostAtOnce == 1)
        var previous = reactor.initialState
        var chainHolds = true
        for (state, mutation) in observations {
            // Each state is exactly one reduce of the state observed before it.
            chainHolds = chainHolds && state == reactor.reduce(state: previous, mutation: mutation)
            previous = state
        }
        #expect(chainHolds)
        // Each sender's amounts arrive in the order its actions yielded them.
        for sender in 0..<senders {
            let amounts = observations.map(\.1).filter { $0.sender == sender }.map(\.amount)
            let expected = (0..<sendsEach).flatMap { send in (1...3).map { send * 10 + $0 } }
            #expect(amounts == expected)
        }
        let expectedTotal = senders * (0..<sendsEach).reduce(0) { $0 + 3 * $1 * 10 + 6 }
        #expect(await store.currentState.total == expectedTotal)
        #expect(await store.currentState == previous)
    }
}

/// An error thrown by mutate ends that action only.
@Suite(.timeLimit(.minutes(1)))
struct StoreErrorTests {
    typealias Action = ScriptedReactor.Action

    @Test func stateKeepsMutationsBeforeTheErrorAndTheStoreGoesOn() async throws {
        let store = Store(reactor: ScriptedReactor())
        let errors = Recorder<(String, ScriptError?)>()
        await store.observeErrors { action, error in errors.append((action.name, error as? ScriptError)) }
        let failure = ScriptError(message: "boom")

        await #expect(throws: failure) {
            try await store.send(Action(name: "failing", steps: [.emit("a"), .emit("b"), .fail(failure), .emit("c")]))
        }
        #expect(await store.currentState.log == ["a", "b"])
        #expect(errors.all.map(\.0) == ["failing"])
        #expect(errors.all.map(\.1) == [failure])

        try await store.send(Action(name: "later", steps: [.emit("d")]))
        #expect(await store.currentState.log == ["a", "b", "d"])
        #expect(errors.all.count == 1)
    }

    @Test func aFailingActionLeavesAnActionRunningBesideItAlone() async throws {
        let store = Store(reactor: ScriptedReactor())
        let started = Gate()
        let release = Gate()
        let slow = Task {
            try await store.send(Action(name: "slow", steps: [.emit("s1"), .open(started), .wait(release), .emit("s2")]))
        }
        await started.wait()

        await #expect(throws: ScriptError.self) {
            try await store.send(Action(name: "failing", steps: [.emit("f1"), .fail(ScriptError(message: "no"))]))
        }
        release.open()
        try await slow.value

        #expect(await store.currentState.log == ["s1", "f1", "s2"])
    }

    @Test func removedErrorObserversAreNotCalled() async throws {
        let store = Store(reactor: ScriptedReactor())
        let errors = Recorder<String>()
        let token = await store.observeErrors { action, _ in errors.append(action.name) }
        await store.removeObserver(token)

        await #expect(throws: ScriptError.self) {
            try await store.send(Action(name: "failing", steps: [.fail(ScriptError(message: "x"))]))
        }
        #expect(errors.all.isEmpty)
    }
}

/// The store applies each transform hook a reactor overrides.
@Suite(.timeLimit(.minutes(1)))
struct TransformTests {
    /// Multiplies actions by ten, brackets each action's mutations with notes, and
    /// caps the value at `cap`.
    struct TransformingReactor: Reactor {
        enum Action: Sendable, Equatable {
            case add(Int)
        }

        enum Mutation: Sendable, Equatable {
            case add(Int)
            case note(String)
        }

        struct State: Sendable, Equatable {
            var value = 0
            var notes: [String] = []
        }

        var initialState = State()
        var cap = 25

        func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error> {
            .emitting { emit in
                if case .add(let amount) = action { emit.yield(.add(amount)) }
            }
        }

        func reduce(state: State, mutation: Mutation) -> State {
            var state = state
            switch mutation {
            case .add(let amount): state.value += amount
            case .note(let note): state.notes.append(note)
            }
            return state
        }

        func transform(action: Action) -> Action {
            guard case .add(let amount) = action else { return action }
            return .add(amount * 10)
        }

        func transform(mutations: AsyncThrowingStream<Mutation, any Error>) -> AsyncThrowingStream<Mutation, any Error> {
            .emitting { emit in
                emit.yield(.note("begin"))
                for try await mutation in mutations {
                    emit.yield(mutation)
                }
                emit.yield(.note("end"))
            }
        }

        func transform(state: State) -> State {
            var state = state
            state.value = min(state.value, cap)
            return state
        }
    }

    @Test func eachHookIsApplied() async throws {
        let store = Store(reactor: TransformingReactor())
        let mutations = Recorder<TransformingReactor.Mutation>()
        await store.observe { _, mutation in mutations.append(mutation) }

        try await store.send(.add(1))
        #expect(mutations.all == [.note("begin"), .add(10), .note("end")])
        #expect(await store.currentState == .init(value: 10, notes: ["begin", "end"]))

        try await store.send(.add(2))
        #expect(await store.currentState.value == 25)
    }

    @Test func theTransformedStateIsKeptAndReducedFrom() async throws {
        let store = Store(reactor: TransformingReactor(initialState: .init(value: 40), cap: 25))
        #expect(await store.currentState.value == 25)

        try await store.send(.add(-1))
        #expect(await store.currentState.value == 15)
    }

    @Test func errorObserversSeeTheTransformedAction() async throws {
        struct Failing: Reactor {
            let initialState = 0
            func mutate(action: Int) -> AsyncThrowingStream<Int, any Error> {
                .emitting { _ in throw ScriptError(message: "\(action)") }
            }
            func reduce(state: Int, mutation: Int) -> Int { state + mutation }
            func transform(action: Int) -> Int { action + 100 }
        }
        let store = Store(reactor: Failing())
        let actions = Recorder<Int>()
        await store.observeErrors { action, _ in actions.append(action) }

        await #expect(throws: ScriptError(message: "107")) { try await store.send(7) }
        #expect(actions.all == [107])
    }
}
