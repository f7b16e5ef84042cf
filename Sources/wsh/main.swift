import Dispatch
import WeatherShell
#if canImport(Glibc)
import Glibc
#endif

// The shell works on an event-loop thread, whose malloc arena otherwise grows 128 KB at a
// time with an mprotect call each: a tenth of loading 10,000 targets went there.
_ = mallopt(-2 /* M_TOP_PAD, <malloc.h> */, 16 << 20)

let arguments = Array(CommandLine.arguments.dropFirst())
var options: LaunchOptions
switch LaunchOptions.quickParse(arguments) {
case .version?:
    FileHandleOutput.standardOutput(Shell.version + "\n")
    exit(0)
case .run(let quick)?:
    options = quick
case nil:
    // The full command line: `--help`, every flag spelling, and usage errors (exit 1).
    switch LaunchOptions.fullParse(arguments) {
    case .run(let full):
        options = full
    case .exit(let output):
        print(output)
        exit(0)
    case .usageError(let message):
        FileHandleOutput.standardError(message + "\n")
        exit(1)
    }
}
run(options)

/// Runs the shell in a task and parks this thread until it exits the process.
///
/// Not an async main: that parks the main thread in `dispatch_main()`, whose `pthread_exit`
/// unwinds the stack, and in a statically linked wsh the first unwind sorts every frame
/// record of the binary, about 25 ms added to every start.
func run(_ options: LaunchOptions) -> Never {
    // The signals wsh handles reach it through this thread (the others are started with all
    // signals blocked): unblock them here, whatever mask the parent left (a threaded parent may
    // leave them all blocked).
    var handled = sigset_t()
    sigemptyset(&handled)
    for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&handled, number) }
    pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    Task.detached { exit(await Shell.run(options)) }
    while true { DispatchSemaphore(value: 0).wait() }
}

/// glibc's mallopt, which Swift's Glibc module does not export (it lives in <malloc.h>).
@_silgen_name("mallopt")
func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
