import Testing
import Reactor

/// The hooks a reactor does not write are identities: what `Reactor+Defaults` gives.
struct ReactorDefaultsTests {
    let reactor = CounterReactor(delay: .zero)

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
