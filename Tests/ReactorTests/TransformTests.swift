import Testing
import Reactor

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
