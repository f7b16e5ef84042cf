import Dispatch
import WeatherShell
#if canImport(Glibc)
import Glibc
#endif

switch LaunchOptions.fullParse(Array(CommandLine.arguments.dropFirst())) {
case .run(let options):
    run(options)
case .exit(let output):
    print(output)
    exit(0)
case .usageError(let message):
    FileHandleOutput.standardError(message + "\n")
    exit(1)
}

/// Runs the shell in a task and parks this thread until the shell exits the process.
///
/// Not an async main: that parks the main thread in `dispatch_main()`, whose `pthread_exit`
/// unwinds the stack, and in a statically linked wsh the first unwind sorts every frame record
/// of the binary: `wsh -c exit` took 43 ms instead of 3 (docs/dev/performance.md).
func run(_ options: LaunchOptions) -> Never {
    // The signals wsh handles reach it through this thread (the others are started with all
    // signals blocked): unblock them here, whatever mask the parent left.
    var handled = sigset_t()
    sigemptyset(&handled)
    for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&handled, number) }
    pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    // A write that meets no reader is EPIPE, whichever thread makes it: wsh decides then (it dies
    // of SIGPIPE for its own stdout, as `cat` does). NIO ignores SIGPIPE too, but only once it
    // opens a socket: before that (`--stub`, a pager not found) the thread feeding a pipe died of it.
    signal(SIGPIPE, SIG_IGN)
    Task.detached { exit(await Shell.run(options)) }
    while true { DispatchSemaphore(value: 0).wait() }
}
