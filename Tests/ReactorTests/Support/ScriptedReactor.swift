import Reactor

struct ScriptError: Error, Equatable {
    let message: String
}

/// A reactor whose actions carry their own mutate body as a list of steps, so a
/// test can script emits, waits, failures and cancellation keys exactly.
/// Each mutation is a string that `reduce` appends to the log.
struct ScriptedReactor: Reactor {
    enum Step: Sendable {
        case emit(String)
        case emitMany(prefix: String, count: Int)
        case open(Gate)
        case wait(Gate)
        case fail(ScriptError)
    }

    struct Action: Sendable {
        var name: String
        var key: String? = nil
        var steps: [Step]
    }

    typealias Mutation = String

    struct State: Sendable, Equatable {
        var log: [String] = []
    }

    let initialState = State()

    func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error> {
        .emitting { emit in
            for step in action.steps {
                switch step {
                case .emit(let mutation):
                    emit.yield(mutation)
                case .emitMany(let prefix, let count):
                    for index in 0..<count {
                        emit.yield("\(prefix)\(index)")
                        if index.isMultiple(of: 7) { await Task.yield() }
                    }
                case .open(let gate):
                    gate.open()
                case .wait(let gate):
                    await gate.wait()
                case .fail(let error):
                    throw error
                }
            }
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        state.log.append(mutation)
        return state
    }

    func cancellationKey(for action: Action) -> String? {
        action.key
    }
}
