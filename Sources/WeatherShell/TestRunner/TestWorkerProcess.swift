import Foundation
import Synchronization

/// One `wsh test --worker FILE` child: spawned from wsh's own binary, its stdout a pipe the
/// runner reads to the end, its stdin and stderr /dev/null.
///
/// Children run in a process group of their own, so Ctrl-C at the terminal reaches only the
/// runner, which passes it on once (``interrupt()``): each child then stops its file as a script
/// would, and still writes what it did.
final class TestWorkerProcess: Sendable {
    private let pid: pid_t
    private let output: Int32
    private let state = Mutex((interrupted: false, exited: false))

    /// What the child wrote and how it ended (its exit status, or 128 + the signal that ended it).
    struct Ending: Sendable {
        var output: [UInt8]
        var status: Int32
    }

    /// Held from making a worker's pipe to closing the parent's copy of its write end.
    private static let spawning = Mutex(())

    /// Starts a worker with `arguments` after `wsh test`.
    init(arguments: [String]) throws(TestRunFailure) {
        (pid, output) = try Self.spawning.withLock { _ throws(TestRunFailure) in try Self.spawn(arguments) }
    }

    /// A worker spawned, with the read end of its stdout. Under ``spawning``: a worker spawned
    /// meanwhile by another job must not inherit this one's write end, or this pipe would not end
    /// until that worker did (a fast file then took as long as the slow one beside it).
    private static func spawn(_ arguments: [String]) throws(TestRunFailure) -> (pid_t, Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw TestRunFailure("cannot make a pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, ends[1])
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
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
        let argv = ([executable, "test"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        close(ends[1])
        guard result == 0 else {
            close(ends[0])
            throw TestRunFailure("cannot start a wsh worker: \(String(cString: strerror(result)))")
        }
        return (pid, ends[0])
    }

    /// This process's own binary, which the workers run.
    private static let executable: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments.first ?? "wsh" }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Reads the child's output to its end and waits for it, on a thread of its own.
    func ending() async -> Ending {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in
                continuation.resume(returning: readAndWait())
            }
        }
    }

    private func readAndWait() -> Ending {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(self.output, $0.baseAddress, $0.count) }
            if count > 0 {
                output += chunk[..<count]
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(self.output)
        // `interrupt` may signal the child up to the moment `exited` is set.
        let status = ChildExit.wait(for: pid) { state.withLock { $0.exited = true } }
        return Ending(output: output, status: status)
    }

    /// Ends the child now (a second Ctrl-C).
    func terminate() {
        state.withLock { state in
            if !state.exited { kill(pid, SIGKILL) }
        }
    }

    /// Passes Ctrl-C on to the child, once.
    func interrupt() {
        state.withLock { state in
            guard !state.interrupted, !state.exited else { return }
            state.interrupted = true
            kill(pid, SIGINT)
        }
    }
}

/// Why `wsh test` could not run, in the user's terms.
struct TestRunFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
