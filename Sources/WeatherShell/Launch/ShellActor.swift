import Targets

/// The actor the shell's statements run on: its executor is the session's event loop, the
/// loop that AsyncHTTPClient's connections use, so a call does not hop between threads.
///
/// Reading a line blocks this loop while the user types; nothing else needs it then.
@globalActor
public actor ShellActor {
    public static let shared = ShellActor()

    public nonisolated var unownedExecutor: UnownedSerialExecutor { Self.executor }

    /// Computed once: every hop onto the actor asks for it.
    private static let executor = SessionEventLoop.executor.asUnownedSerialExecutor()

    /// Runs `operation` as isolated to the shell actor, from a synchronous callout that is
    /// known to run on its loop (libedit calling back from inside `el_gets`).
    static func assumeIsolated<T>(_ operation: @ShellActor () throws -> T) rethrows -> T {
        typealias Unchecked = () throws -> T
        return try withoutActuallyEscaping(operation) { isolated in
            try unsafeBitCast(isolated, to: Unchecked.self)()
        }
    }
}
