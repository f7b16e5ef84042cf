/// Defaults for the optional hooks, so that a reactor writes only
/// `initialState`, `mutate(action:)` and `reduce(state:mutation:)`.
extension Reactor {
    public func transform(action: Action) -> Action {
        action
    }

    public func transform(
        mutations: AsyncThrowingStream<Mutation, any Error>
    ) -> AsyncThrowingStream<Mutation, any Error> {
        mutations
    }

    public func transform(state: State) -> State {
        state
    }

    public func cancellationKey(for action: Action) -> String? {
        nil
    }
}
