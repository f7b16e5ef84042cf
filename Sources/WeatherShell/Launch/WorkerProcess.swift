import Foundation
import Synchronization

/// A child of `wsh test --jobs` (`wsh test --worker FILE`) or of `wsh load --processes`
/// (`wsh load --worker K/N`): spawned from wsh's own binary, its stdout a pipe the parent reads
/// to the end.
///
/// Children run in a process group of their own, so Ctrl-C at the terminal reaches only the
/// parent, which passes it on once (``interrupt()``): each child then stops as a script would,
/// and still writes what it did.
final class WorkerProcess: Sendable {
    /// How a child is told to stop besides Ctrl-C passed on.
    enum Input {
        /// Its stdin is /dev/null.
        case none
        /// Its stdin is a pipe the parent holds: it ends when the parent closes it (``closeInput()``)
        /// or ends itself, however, and the child stops then (a load must not outlive its run).
        case stopWhenClosed
    }

    private let pid: pid_t
    private let output: Int32
    private let state = Mutex((interrupted: false, exited: false, input: Int32(-1)))

    /// What the child wrote and how it ended (its exit status, or 128 + the signal that ended it).
    struct Ending: Sendable {
        var output: [UInt8]
        var status: Int32
    }

    /// Held from making a worker's pipes to closing the parent's copies of the child's ends.
    private static let spawning = Mutex(())

    /// Starts `wsh SUBCOMMAND ARGUMENTS...`; its stderr is the parent's, or /dev/null.
    init(_ subcommand: String, arguments: [String], input: Input = .none, keepsStderr: Bool = false) throws(CommandFailure) {
        let (pid, output, inputEnd) = try Self.spawning.withLock { _ throws(CommandFailure) in
            try Self.spawn([subcommand] + arguments, input: input, keepsStderr: keepsStderr)
        }
        self.pid = pid
        self.output = output
        state.withLock { $0.input = inputEnd }
    }

    /// A worker spawned, with the read end of its stdout and the write end of its stdin. Under
    /// ``spawning``: a worker spawned meanwhile by another job must not inherit this one's write
    /// end, or this pipe would not end until that worker did (a fast file then took as long as
    /// the slow one beside it).
    private static func spawn(_ arguments: [String], input: Input, keepsStderr: Bool) throws(CommandFailure) -> (pid_t, Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        var inputEnds: [Int32] = [-1, -1]
        guard pipe(&ends) == 0, input == .none || pipe(&inputEnds) == 0 else {
            let reason = String(cString: strerror(errno))
            for end in ends + inputEnds where end >= 0 { close(end) }
            throw CommandFailure("cannot make a pipe: \(reason)")
        }
        for end in ends + inputEnds where end >= 0 { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input == .none {
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        } else {
            posix_spawn_file_actions_adddup2(&actions, inputEnds[0], STDIN_FILENO)
            posix_spawn_file_actions_addclose(&actions, inputEnds[0])
        }
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, ends[1])
        if !keepsStderr { posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGPIPE, SIGTERM, SIGHUP] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let executable = Self.executable
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        close(ends[1])
        if inputEnds[0] >= 0 { close(inputEnds[0]) }
        guard result == 0 else {
            close(ends[0])
            if inputEnds[1] >= 0 { close(inputEnds[1]) }
            throw CommandFailure("cannot start a wsh worker: \(String(cString: strerror(result)))")
        }
        return (pid, ends[0], inputEnds[1])
    }

    /// This process's own binary, which the workers run.
    private static let executable: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments.first ?? "wsh" }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Reads the child's output to its end and waits for it, on a thread of its own. With
    /// `eachLine`, each whole line goes to it as it comes (without its newline), and the ending's
    /// output is only what followed the last newline.
    func ending(eachLine: (@Sendable ([UInt8]) -> Void)? = nil) async -> Ending {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in
                continuation.resume(returning: readAndWait(eachLine))
            }
        }
    }

    private func readAndWait(_ eachLine: (@Sendable ([UInt8]) -> Void)?) -> Ending {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(self.output, $0.baseAddress, $0.count) }
            if count > 0 {
                output += chunk[..<count]
                if let eachLine, let last = output.lastIndex(of: UInt8(ascii: "\n")) {
                    for line in output[..<last].split(separator: UInt8(ascii: "\n")) { eachLine(Array(line)) }
                    output.removeSubrange(...last)
                }
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(self.output)
        // `interrupt` may signal the child up to the moment `exited` is set.
        let status = ChildExit.wait(for: pid) { state.withLock { $0.exited = true } }
        closeInput()
        return Ending(output: output, status: status)
    }

    /// In a child started with ``Input/stopWhenClosed``: blocks until its stdin ends, which is
    /// when the parent closes it or is gone however it ended.
    static func waitUntilInputCloses() {
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 0 || (count < 0 && errno != EINTR) { return }
        }
    }

    /// Closes the child's stdin (``Input/stopWhenClosed``): it stops, and still writes what it did.
    func closeInput() {
        state.withLock { state in
            if state.input >= 0 { close(state.input) }
            state.input = -1
        }
    }

    /// Ends the child now (a second Ctrl-C).
    func terminate() {
        state.withLock { state in
            if !state.exited { kill(pid, SIGKILL) }
        }
    }

    /// Passes Ctrl-C (or `signal`: SIGTERM) on to the child, once.
    func interrupt(with signal: Int32 = SIGINT) {
        state.withLock { state in
            guard !state.interrupted, !state.exited else { return }
            state.interrupted = true
            kill(pid, signal)
        }
    }
}

