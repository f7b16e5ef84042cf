import Reactor
import Targets

/// A reactor declared in the language: its state is named fields, an action runs statements,
/// and each `emit` is one mutation that sets some fields.
struct DeclaredReactor: Reactor {
    struct Action: Sendable {
        var name: String
        /// The words after the action's name, each typed as `let` types its word: `007` is a
        /// number, `"007"` text, `$v` has v's type.
        var arguments: [JSONValue]
        /// The run that sent the action: its statements run in a child of it.
        var sender: Run
        /// Set for the clean-up after Ctrl-C: the action's `catch` runs with `$error` = `interrupted`.
        var interrupted = false
        /// Set to release the `unless` field of that name after the action ended by an error or
        /// Ctrl-C: the only statement is setting it back to false.
        var releasing: String?
        /// Given when the action's statements have stopped, however they stopped.
        var finished = OneTimeSignal()
        /// Set when the action's `catch` took an error (not a failed `expect`) that came while the
        /// body had raised its `unless` field (`emit loading = true`, and no `emit loading = false` yet).
        var caughtWhileRaised = SharedValue(false)
    }
    struct Mutation: Sendable {
        var fields: [(name: String, value: EchoValue)]
        var acknowledgement: OneTimeSignal
    }
    struct State: EchoableState {
        var echoFields: [(name: String, value: EchoValue)]
    }
    /// Runs an action's statements; `emit` hands each mutation to the store and waits for its reduce.
    typealias Perform = @Sendable (_ action: Action, _ emit: @escaping @Sendable (Mutation) async -> Void) async throws -> Void

    let initialState: State
    let perform: Perform

    func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error> {
        .emitting { continuation in
            try await perform(action) { mutation in
                continuation.yield(mutation)
                await mutation.acknowledgement.wait()
            }
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        for field in mutation.fields {
            if let index = state.echoFields.firstIndex(where: { $0.name == field.name }) {
                state.echoFields[index].value = field.value
            }
        }
        return state
    }
}

/// `NAME ACTION [ARGS]` for a declared reactor.
@ShellActor
final class DeclaredReactorCommand: ShellReactor {
    let name: String
    let declaration: ReactorDeclaration
    private let store: EchoingStore<DeclaredReactor>
    private var acknowledging = false
    /// The actions of this reactor running now, outermost first: the reactor is not declared
    /// again while one runs (its echoes would be of a state no longer the reactor's).
    private(set) var running: [String] = []

    var actionNames: [String] { declaration.actions.compactMap(\.name.literal) }

    init(declaration: ReactorDeclaration, initial: [(name: String, value: EchoValue)], run: Run) {
        let name = declaration.name.literal ?? ""
        self.name = name
        self.declaration = declaration
        let reactor = DeclaredReactor(initialState: .init(echoFields: initial)) { action, emit in
            defer { action.finished.signal() }
            if let field = action.releasing {
                await emit(DeclaredReactor.Mutation(fields: [(field, .bool(false))], acknowledgement: OneTimeSignal()))
                return
            }
            try await action.sender.perform(action, of: declaration, emit: emit)
        }
        store = EchoingStore(reactor: reactor, echo: StateEcho(name: name, run: run))
    }

    func currentFields() async -> [(name: String, value: EchoValue)] { await store.fields }

    func send(_ arguments: [String], words: [Word], from run: Run) async throws {
        guard let actionName = arguments.first, let action = declaration.actions.first(where: { $0.name.literal == actionName }) else {
            throw run.reactorUsage(self, words: words)
        }
        store.echoes(to: run)
        for (parameter, word) in zip(action.parameters, words.dropFirst(2)) where Redaction.isCredentialName(parameter.literal ?? "") {
            run.noteRecalledPlaceholders([word], named: parameter.literal)
        }
        let given = try words.dropFirst(2).map { word throws(Diagnostic) in try run.typedValue(of: word) }
        guard given.count == action.parameters.count else {
            let parameters = action.parameters.compactMap(\.literal)
            throw run.failure("'\(name) \(actionName)' takes \(parameters.isEmpty ? "no arguments" : parameters.joined(separator: " "))",
                                      at: words.first?.span, notes: ["usage: \(name) \(actionName)\(parameters.map { " " + $0.uppercased() }.joined())"])
        }
        if !acknowledging {
            acknowledging = true
            // After the echo's observer, so an emit resumes only once its line is written.
            await store.prepare()
            _ = await store.store.observe { _, mutation in mutation.acknowledgement.signal() }
        }
        if let field = action.unlessField?.literal,
           await currentFields().first(where: { $0.name == field })?.value == .bool(true) {
            run.noteSkipped("\(name) \(actionName)", field: field, at: words.first?.span)
            return
        }
        running.append(actionName)
        defer { running.removeLast() }
        let sent = DeclaredReactor.Action(name: actionName, arguments: given, sender: run)
        let cleanup = DeclaredReactor.Action(name: actionName, arguments: given, sender: run, interrupted: true)
        do {
            try await store.send(sent, onInterrupt: cleanup, after: sent.finished)
        } catch {
            await release(action, named: actionName, from: run)
            throw error
        }
        // The error skipped the body's own `emit loading = false`: it is done for it. A field the
        // body never sets false, or had not raised when the error came (a latch: `catch { emit
        // tripped = true }`, its success path `emit tripped = false`), stays as it is.
        if sent.caughtWhileRaised.value, let field = action.unlessField?.literal, Self.emitsFalse(to: field, in: action.body) {
            await release(action, named: actionName, from: run)
        }
    }

    /// Whether `statements`, or a block in them, hold `emit FIELD = false`.
    private static func emitsFalse(to field: String, in statements: [Statement]) -> Bool {
        statements.contains { statement in
            switch statement.kind {
            case .emit(let assignments):
                return assignments.contains {
                    guard $0.name.literal == field, case .word(let word) = $0.value else { return false }
                    return word.bare == "false"
                }
            case .conditional(let conditional):
                return emitsFalse(to: field, in: conditional.then) || emitsFalse(to: field, in: conditional.otherwise ?? [])
            case .loop(let loop):
                return emitsFalse(to: field, in: loop.body)
            default:
                return false
            }
        }
    }

    /// After an action ended by an error or Ctrl-C (its `catch`, if any, done, failed or stopped by
    /// a second Ctrl-C), or after its `catch` took an error its body would have set the field false
    /// after, sets its `unless` field back to false when it is still true, so the action is not
    /// refused for ever.
    private func release(_ action: ReactorDeclaration.Action, named actionName: String, from run: Run) async {
        guard let field = action.unlessField?.literal,
              await currentFields().first(where: { $0.name == field })?.value == .bool(true) else { return }
        let release = DeclaredReactor.Action(name: actionName, arguments: [], sender: run, releasing: field)
        // A task of its own: after Ctrl-C the sender is cancelled, and the store drops the
        // mutations of an action sent from a cancelled task.
        await Task { try? await store.send(release) }.value
    }
}
