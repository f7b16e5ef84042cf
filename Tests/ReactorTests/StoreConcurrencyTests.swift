import Foundation
import Reactor
import Synchronization
import Testing

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
