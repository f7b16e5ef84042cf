import Reactor

/// ReactorKit's counter example: increase and decrease show loading, change the
/// value after a short delay, and hide loading.
struct CounterReactor: Reactor {
    enum Action: Sendable, Equatable {
        case increase
        case decrease
    }

    enum Mutation: Sendable, Equatable {
        case increaseValue
        case decreaseValue
        case setLoading(Bool)
    }

    struct State: Sendable, Equatable {
        var value = 0
        var isLoading = false
    }

    let initialState = State()
    var delay: Duration = .milliseconds(10)

    func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error> {
        .emitting { [delay] emit in
            emit.yield(.setLoading(true))
            try await Task.sleep(for: delay)
            emit.yield(action == .increase ? .increaseValue : .decreaseValue)
            emit.yield(.setLoading(false))
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .increaseValue:
            state.value += 1
        case .decreaseValue:
            state.value -= 1
        case .setLoading(let isLoading):
            state.isLoading = isLoading
        }
        return state
    }
}
