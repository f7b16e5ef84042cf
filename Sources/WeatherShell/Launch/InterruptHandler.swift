import Dispatch
import Foundation
import Synchronization
import Targets

/// What interrupted this process: Ctrl-C (SIGINT), or SIGTERM (a CI job cancelled). Process-wide,
/// as signals are; the first one counts.
enum Interruption {
    private static let firstSignal = Mutex<Int32?>(nil)

    /// Keeps `number` unless a signal came before it.
    static func received(_ number: Int32) {
        firstSignal.withLock { if $0 == nil { $0 = number } }
    }

    /// Whether the interrupt was SIGTERM.
    static var wasTermination: Bool { firstSignal.withLock { $0 } == SIGTERM }

    /// How messages and reports name it: `Ctrl-C` or `SIGTERM`.
    static var name: String { wasTermination ? "SIGTERM" : "Ctrl-C" }

    /// Sources for the signals `numbers`, which no longer end the process.
    static func sources(for numbers: [Int32]) -> [DispatchSourceSignal] {
        numbers.map { number in
            signal(number, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: number, queue: .global())
        }
    }

    /// Starts `sources` (made by ``sources(for:)`` for `numbers`): each signal is kept
    /// (``received(_:)``) and calls `interrupt` once for each that came; signals that arrive
    /// before the handler runs are counted, not queued, and each is a Ctrl-C.
    static func start(_ sources: [DispatchSourceSignal], for numbers: [Int32], interrupt: @escaping @Sendable () -> Void) {
        for (source, number) in zip(sources, numbers) {
            source.setEventHandler { [source] in
                received(number)
                for _ in 0..<max(1, source.data) { interrupt() }
            }
            source.resume()
        }
    }

    /// The sources ``endRemovingClaims(on:)`` made, kept for the process's life. Unsafe only as
    /// Dispatch's sources are not Sendable: it is appended to as a run starts, and never read.
    nonisolated(unsafe) private static var endings: [DispatchSourceSignal] = []

    /// Makes the signals `numbers` (SIGHUP, a terminal closed; SIGTERM where it interrupts
    /// nothing) end wsh as they would unhandled, once the names claimed for answers not written yet
    /// are removed (``SignalDeath``): `get URL -d` or `>> ./a.json` would leave an empty file
    /// named like an answer. A signal ignored when wsh started (`nohup wsh`) stays ignored.
    static func endRemovingClaims(on numbers: [Int32]) {
        let ending = numbers.filter { number in
            let previous = signal(number, SIG_IGN)
            return unsafeBitCast(previous, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self)
        }
        let sources = sources(for: ending)
        for (source, number) in zip(sources, ending) {
            source.setEventHandler { SignalDeath.die(of: number) }
            source.resume()
        }
        endings += sources
    }

    /// The exit code of a run it stopped: 130 after Ctrl-C, 143 (128 + 15, as a shell shows a
    /// process SIGTERM ended) after SIGTERM: a test worker's; a script then dies of the signal.
    static var exitCode: Int32 { wasTermination ? 128 + SIGTERM : FailureKind.interrupted.exitCode }
}

/// Turns SIGINT into cancellation of the running statements, so Ctrl-C during a request
/// brings the prompt back (or ends a script with 130) instead of killing the process.
/// A second Ctrl-C while a script is still stopping ends it at once. A script also takes
/// SIGTERM so (``Interruption``): the call in flight is recorded before it ends.
final class InterruptHandler: @unchecked Sendable {
    // Unchecked only for `sources`: Dispatch does not declare its signal sources Sendable. They are set
    // in init and never changed; the mutable state is in `state`, behind its Mutex.
    private struct State {
        /// The statements Ctrl-C cancels now.
        var current: Task<Void, any Error>?
        /// A Ctrl-C came since `current` started.
        var pending = false
    }
    private let state = Mutex(State())
    private let interactive: Bool
    private let sources: [DispatchSourceSignal]

    /// With `terminates`, SIGTERM stops the run as Ctrl-C does (a script's run; at the prompt,
    /// SIGTERM ends wsh).
    init(interactive: Bool, terminates: Bool = false) {
        self.interactive = interactive
        let numbers = terminates ? [SIGINT, SIGTERM] : [SIGINT]
        sources = Interruption.sources(for: numbers)
        Interruption.start(sources, for: numbers) { [weak self] in self?.interrupt() }
    }

    /// Runs `work` as a task that Ctrl-C cancels.
    func run(_ work: @escaping @ShellActor @Sendable () async throws -> Void) async throws {
        let task = Task(executorPreference: SessionEventLoop.executor) { try await work() }
        state.withLock { $0 = State(current: task, pending: false) }
        InterruptCleanup.reset()
        defer { finished() }
        try await task.value
    }

    /// A Ctrl-C came while the last `run` ran.
    var wasInterrupted: Bool { state.withLock { $0.pending } }

    /// Not inlined into `run`: there, after `await task.value` resumed on another thread, the
    /// optimizer reused the thread id it had read for the Mutex before the await, and the unlock
    /// trapped ("Call to unlock Mutex on a thread which hasn't acquired the lock": `wsh serve` and
    /// a script stopped by Ctrl-C after a few seconds died by SIGILL, in release builds).
    @inline(never)
    private func finished() {
        state.withLock { $0.current = nil }
    }

    /// How many programs that own the terminal's keys (the editor of `edit`) are running: while
    /// one is, Ctrl-C is its key, and wsh ignores the SIGINT the terminal sends the whole process
    /// group, as git does while its editor runs (an editor that keeps ISIG on, Emacs with C-g,
    /// must not be stopped under the user).
    private static let keysOwned = Mutex(0)

    /// Runs `body` with Ctrl-C left to the program it starts on the terminal.
    static func leavingKeysToProgram<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        changeKeysOwned(by: 1)
        defer { changeKeysOwned(by: -1) }
        return try await body()
    }

    /// Not inlined, for the reason `finished()` gives: a lock taken after an await.
    @inline(never)
    private static func changeKeysOwned(by change: Int) {
        keysOwned.withLock { $0 += change }
    }

    private func interrupt() {
        guard Self.keysOwned.withLock({ $0 }) == 0 else { return }
        let (task, again) = state.withLock { state -> (Task<Void, any Error>?, Bool) in
            let again = state.pending
            state.pending = true
            return (state.current, again)
        }
        if let task, !(again && !interactive) {
            task.cancel()
            // A second Ctrl-C at the prompt also stops the clean-up the first one started.
            if again { InterruptCleanup.cancelAll() }
        } else if !interactive {
            if Interruption.wasTermination { SignalDeath.die(of: SIGTERM) }
            FilePaths.removeUnwrittenClaims()
            ShellIO.writeAll(STDERR_FILENO, Array("wsh: interrupted\n".utf8))
            exit(FailureKind.interrupted.exitCode)
        }
    }
}
