import Reactor
import Synchronization

/// A reactor the shell runs as a command: `NAME ACTION [ARGS]`, its state echoed after every reduce.
@ShellActor
protocol ShellReactor: AnyObject {
    var name: String { get }
    /// Action names, for completion and errors.
    var actionNames: [String] { get }
    /// The current state's fields.
    func currentFields() async -> [(name: String, value: EchoValue)]
    /// Runs the command's action; `arguments` are the expanded words after the reactor's name.
    func send(_ arguments: [String], words: [Word], from run: Run) async throws
}

/// Echoes every state a store publishes, in order, as one line on stdout.
///
/// The store calls the observer on its own executor right after each reduce, so the line is
/// written there, synchronously: no echo can overtake another or the action's end.
final class StateEcho: Sendable {
    private let name: String
    /// Where the action being reduced writes: set by each action, since the statement that made
    /// the reactor (`state counter`, its output held for the pager and then dropped) is not the one
    /// whose output the echo belongs to.
    private let io: Mutex<ShellIO>
    /// Shared by all reactors of a session: `set echo` and `set color` change it.
    private let style: SharedValue<EchoStyle>
    /// The session's secrets: an echo shows them as `***`, as everything else does.
    private let mask: SharedValue<SecretMask>
    private let previous = Mutex<[(name: String, value: EchoValue)]?>(nil)

    init(name: String, run: Run) {
        self.name = name
        self.io = Mutex(run.io)
        self.style = run.session.echoStyle
        self.mask = run.session.sharedMask
    }

    func echo(_ fields: [(name: String, value: EchoValue)]) {
        let before = previous.withLock { old in
            defer { old = fields }
            return old
        }
        let secrets = mask.value
        if let line = style.value.render(reactor: name, fields: fields, previous: before, mask: { secrets($0) }) {
            // Written when the reduce happens, not when stdout's buffer is next flushed, so
            // `loading=true` is seen, at a terminal or down a pipe, while the user waits.
            let output = io.withLock { $0 }
            output.out(styled: line + "\n")
            output.flush()
        }
    }

    /// Echoes from now on where `output` writes.
    func writes(to output: ShellIO) {
        io.withLock { $0 = output }
    }

    /// After Ctrl-C at a terminal, begins a line after the echoed `^C` for the clean-up's echo.
    func endInterruptedLine() {
        io.withLock { $0 }.endInterruptedLine()
    }

    /// Sets the baseline for change highlighting without printing.
    func seed(_ fields: [(name: String, value: EchoValue)]) {
        previous.withLock { $0 = fields }
    }
}

extension Store where R.State: EchoableState {
    /// Echoes every new state through `echo`.
    func attach(_ echo: StateEcho) {
        echo.seed(currentState.echoFields)
        _ = observe { state, _ in echo.echo(state.echoFields) }
    }
}

/// A store with its echo attached before the first action is sent.
///
/// On the shell's actor, as the commands that use it are: a command's action goes from the run
/// straight to the store's actor, which reduces and echoes, with no actor of its own between.
@ShellActor
final class EchoingStore<R: Reactor> where R.State: EchoableState {
    let store: Store<R>
    private let echo: StateEcho
    private var attached = false

    init(reactor: R, echo: StateEcho) {
        store = Store(reactor: reactor)
        self.echo = echo
    }

    /// Attaches the echo (once); observers added after this run after the echo.
    func prepare() async {
        guard !attached else { return }
        attached = true
        await store.attach(echo)
    }

    /// Echoes the actions sent from now on where `run` writes.
    func echoes(to run: Run) {
        echo.writes(to: run.io)
    }

    func send(_ action: R.Action, cancelsInFlight: Bool = false) async throws {
        await prepare()
        try await store.send(action, cancelsInFlight: cancelsInFlight)
    }

    /// Sends `action`; when the caller is interrupted (Ctrl-C), sends `cleanup` as an action of its
    /// own (the store drops a cancelled action's mutations), so no state is left `loading=true`:
    /// after `stopped` is signalled when given (the interrupted action's statements share the
    /// shell's state), through ``InterruptCleanup``, so a second Ctrl-C stops it. Then throws what
    /// the clean-up threw (a failure in a `catch`, an `exit`), else `CancellationError`.
    func send(_ action: R.Action, cancelsInFlight: Bool = false, onInterrupt cleanup: R.Action,
              after stopped: OneTimeSignal? = nil) async throws {
        do {
            try await send(action, cancelsInFlight: cancelsInFlight)
        } catch is CancellationError where Task.isCancelled {
            echo.endInterruptedLine()
            let failure: (any Error)? = await InterruptCleanup.run {
                await stopped?.wait()
                do {
                    try await self.send(cleanup)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure, !(failure is CancellationError) { throw failure }
            throw CancellationError()
        }
    }

    var fields: [(name: String, value: EchoValue)] {
        get async { await store.currentState.echoFields }
    }
}
