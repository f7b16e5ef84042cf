import Testing
import Reactor

/// Mutations are reduced in the order mutate yields them, each exactly once, and
/// every new state reaches the observers in order.
@Suite(.timeLimit(.minutes(1)))
struct StoreOrderingTests {
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
