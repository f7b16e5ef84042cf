import Testing
import Reactor

/// A store with a stub records actions instead of running them, and reports the
/// state the test sets.
@Suite(.timeLimit(.minutes(1)))
struct ReactorStubTests {
    typealias Counter = CounterReactor

    @Test func recordsActionsWithoutRunningTheReactor() async throws {
        let stub = ReactorStub(reactor: ScriptedReactor())
        let store = Store(reactor: ScriptedReactor(), stub: stub)
        let observed = Recorder<String>()
        await store.observe { _, mutation in observed.append(mutation) }

        // Would throw if mutate ran.
        try await store.send(.init(name: "first", steps: [.emit("x"), .fail(ScriptError(message: "ran"))]))
        try await store.send(.init(name: "second", steps: [.emit("y")]), cancelsInFlight: true)

        #expect(stub.actions.map(\.name) == ["first", "second"])
        #expect(await store.currentState.log.isEmpty)
        #expect(observed.all.isEmpty)
    }

    @Test func stateIsWhatTheTestSets() async throws {
        let stub = ReactorStub(reactor: Counter())
        let store = Store(reactor: Counter(), stub: stub)
        var states = await store.states.makeAsyncIterator()

        stub.state = .init(value: 3, isLoading: true)
        #expect(await store.currentState == .init(value: 3, isLoading: true))
        stub.state = .init(value: 4, isLoading: false)

        #expect(stub.states == [.init(), .init(value: 3, isLoading: true), .init(value: 4, isLoading: false)])
        #expect(await states.next() == .init())
        #expect(await states.next() == .init(value: 3, isLoading: true))
        #expect(await states.next() == .init(value: 4, isLoading: false))
    }

    @Test func actionsCanBeClearedBetweenSteps() async throws {
        let stub = ReactorStub<Counter>(initialState: .init(value: 9))
        let store = Store(reactor: Counter(), stub: stub)
        try await store.send(.increase)
        stub.actions = []
        try await store.send(.decrease)

        #expect(stub.actions == [.decrease])
        #expect(stub.state == .init(value: 9))
    }
}
