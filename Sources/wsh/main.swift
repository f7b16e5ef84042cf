import ArgumentParser
import Dispatch
import WeatherShell
#if canImport(Glibc)
import Glibc
#endif

/// The `wsh` command line: parses arguments and hands over to WeatherShell.
struct WSH: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wsh",
        abstract: "A shell for HTTP APIs: declare targets, call them, check their answers.",
        discussion: "With no FILE and a terminal on stdin, wsh starts its interactive prompt.",
        version: Shell.version
    )

    @Option(name: .customShort("c"), help: ArgumentHelp("Run STATEMENTS and exit.", valueName: "STATEMENTS"))
    var command: String?

    @Flag(help: "Answer calls from targets' sample data (set stub immediate).")
    var stub = false

    @Flag(name: .customLong("norc"), help: "Do not run ~/.config/wsh/init.wsh.")
    var noRC = false

    @Argument(help: ArgumentHelp("A .wsh script to run, or - to read statements from stdin.", valueName: "FILE"))
    var file: String?

    @Argument(help: ArgumentHelp("Variables for the script.", valueName: "NAME=VALUE"))
    var assignments: [String] = []
}

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
    options = parseWithArgumentParser(arguments)
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

/// The full command line: `--help`, every flag spelling, and usage errors (exit 1).
func parseWithArgumentParser(_ arguments: [String]) -> LaunchOptions {
    do {
        let parsed = try WSH.parse(arguments)
        if parsed.command != nil, parsed.file != nil {
            throw ValidationError("-c and FILE cannot be used together")
        }
        return LaunchOptions(file: parsed.file, command: parsed.command, assignments: parsed.assignments,
                             stub: parsed.stub, noRC: parsed.noRC)
    } catch {
        let code = WSH.exitCode(for: error)
        if code == .success {
            print(WSH.fullMessage(for: error))
            exit(0)
        }
        FileHandleOutput.standardError(WSH.fullMessage(for: error) + "\n")
        exit(1)
    }
}

/// glibc's mallopt, which Swift's Glibc module does not export (it lives in <malloc.h>).
@_silgen_name("mallopt")
func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
