import Testing
import Reactor

/// `reduce` is a pure function of its arguments.
struct ReduceTests {
    let reactor = CounterReactor()

    @Test func eachMutationChangesOnlyItsField() {
        let start = CounterReactor.State(value: 5, isLoading: false)
        #expect(reactor.reduce(state: start, mutation: .increaseValue) == .init(value: 6, isLoading: false))
        #expect(reactor.reduce(state: start, mutation: .decreaseValue) == .init(value: 4, isLoading: false))
        #expect(reactor.reduce(state: start, mutation: .setLoading(true)) == .init(value: 5, isLoading: true))
    }

    @Test func sameArgumentsGiveTheSameStateAndLeaveTheInputAlone() {
        let start = CounterReactor.State(value: 1, isLoading: true)
        let first = reactor.reduce(state: start, mutation: .increaseValue)
        let second = reactor.reduce(state: start, mutation: .increaseValue)
        #expect(first == second)
        #expect(start == .init(value: 1, isLoading: true))
    }

    @Test func defaultHooksAreIdentities() async throws {
        #expect(reactor.transform(action: .decrease) == .decrease)
        #expect(reactor.transform(state: .init(value: 3)) == .init(value: 3))
        #expect(reactor.cancellationKey(for: .increase) == nil)
        var mutations: [CounterReactor.Mutation] = []
        for try await mutation in reactor.transform(mutations: reactor.mutate(action: .increase)) {
            mutations.append(mutation)
        }
        #expect(mutations == [.setLoading(true), .increaseValue, .setLoading(false)])
    }
}
