import Reactor

/// The seed's counter: each action turns loading on, changes the value after a delay, and
/// turns loading off, so three reduces and three echoed lines.
struct CounterReactor: Reactor {
    enum Action: Sendable {
        case increase, decrease
        /// After Ctrl-C: loading off, the value unchanged.
        case interrupted
    }
    enum Mutation: Sendable { case setLoading(Bool), change(Int) }
    struct State: EchoableState, Equatable {
        var value = 0
        var loading = false
        var echoFields: [(name: String, value: EchoValue)] { [("value", .number(String(value))), ("loading", .bool(loading))] }
    }

    /// The pause before the value changes (`set counter-delay`), read at each action.
    let delay: SharedValue<Duration>

    var initialState: State { State() }

    func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error> {
        .emitting { emit in
            if action == .interrupted {
                emit.yield(.setLoading(false))
                return
            }
            emit.yield(.setLoading(true))
            try await Task.sleep(for: delay.value)
            emit.yield(.change(action == .increase ? 1 : -1))
            emit.yield(.setLoading(false))
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setLoading(let loading): state.loading = loading
        case .change(let step): state.value += step
        }
        return state
    }
}

extension BuiltInReactor {
    static let counter = BuiltInReactor(
        name: "counter", usage: "counter increase | decrease", summary: "the counter reactor",
        actions: ["increase", "decrease"], make: { CounterCommand(run: $0) })
}

/// `counter increase | decrease`.
@ShellActor
final class CounterCommand: ShellReactor {
    let name = BuiltInReactor.counter.name
    let actionNames = BuiltInReactor.counter.actions
    private let delay: SharedValue<Duration>
    private let store: EchoingStore<CounterReactor>

    init(run: Run) {
        delay = SharedValue(run.options.counterDelay)
        store = EchoingStore(reactor: CounterReactor(delay: delay), echo: StateEcho(name: name, run: run))
    }

    func currentFields() async -> [(name: String, value: EchoValue)] { await store.fields }

    func send(_ arguments: [String], words: [Word], from run: Run) async throws {
        let action: CounterReactor.Action
        switch arguments.first {
        case "increase" where arguments.count == 1: action = .increase
        case "decrease" where arguments.count == 1: action = .decrease
        default: throw run.reactorUsage(self, words: words)
        }
        store.echoes(to: run)
        delay.value = run.options.counterDelay
        try await store.send(action, onInterrupt: .interrupted)
    }
}
