import Targets

/// The actor the shell's statements run on: its executor is the session's event loop, the
/// loop that AsyncHTTPClient's connections use, so a call does not hop between threads.
///
/// The prompt reads lines on a thread of its own (``ReaderThread``): this loop never waits for a key.
@globalActor
public actor ShellActor {
    public static let shared = ShellActor()

    public nonisolated var unownedExecutor: UnownedSerialExecutor { Self.executor }

    /// Computed once: every hop onto the actor asks for it.
    private static let executor = SessionEventLoop.executor.asUnownedSerialExecutor()
}
