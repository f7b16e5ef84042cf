import Foundation
import Plugins
import Synchronization

/// Runs `/bin/sh -c COMMAND` with bytes on its stdin and the terminal as its stdout and stderr:
/// `call users | jq '.[0]'`, and the pager; or with the terminal as its stdin too: the editor of
/// `edit`.
///
/// Spawned directly rather than by Foundation's Process, which puts the child in a process group
/// of its own: a pager there cannot read the terminal, and Ctrl-C does not reach it. Here the
/// child stays in wsh's group, with default signal handling (wsh ignores SIGINT itself) and no
/// signals blocked. Writing and waiting happen off the event loop, so a pager the user reads for
/// minutes holds no thread the shell needs.
enum ShellCommandPipe {
    /// Runs `command` fed with `input`; returns its exit status (128 + N when a signal N ended it).
    /// Cancelling the task (Ctrl-C) stops the command.
    static func run(_ command: String, input: [UInt8]) async throws -> Int32 {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw PipeFailure("cannot make a pipe: \(String(cString: strerror(errno)))") }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        // The write end must not leak into the child, or the child would never see end of input.
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        let pid: pid_t
        do {
            pid = try spawn(command, stdin: readEnd)
        } catch {
            close(readEnd)
            close(writeEnd)
            throw error
        }
        close(readEnd)
        return try await waitFor(SpawnedCommand(pid)) {
            // A command that stops reading early (`head -1`) closes the pipe: EPIPE, not SIGPIPE (wsh ignores it).
            _ = input.withUnsafeBytes { bytes in Console.writeAll(writeEnd, bytes) }
            close(writeEnd)
        }
    }

    /// Runs `command` on wsh's own stdin, stdout and stderr (the terminal, for an editor), in
    /// wsh's process group, with `arguments` as `$1`, `$2`...: `"$EDITOR" "$1"`-style quoting
    /// without putting the arguments into the command's text. Returns its exit status (128 + N
    /// when a signal N ended it); cancelling the task stops it. Run it under
    /// ``InterruptHandler/leavingKeysToProgram(_:)``: the keys are its own until it exits, and
    /// the terminal's mode is then put back as it was.
    static func runOnTerminal(_ command: String, arguments: [String]) async throws -> Int32 {
        try await TerminalMode.restoring {
            try await waitFor(SpawnedCommand(try spawn(outlastingInterrupts(command), arguments: arguments, stdin: nil))) {}
        }
    }

    /// Runs the pager `command` (or any command at a terminal, which may read its keys) fed with
    /// `input`, as ``run(_:input:)`` does, but with the keys its own: Ctrl-C is the pager's (in
    /// less it stops a search and does not quit; `jq` dies of it), wsh waits until it quits, and
    /// the terminal's mode is then put back as it was, before the prompt returns.
    static func page(_ command: String, input: [UInt8]) async throws -> Int32 {
        try await InterruptHandler.leavingKeysToProgram {
            try await TerminalMode.restoring { try await run(outlastingInterrupts(command), input: input) }
        }
    }

    /// `command` in an sh that outlives a Ctrl-C: the terminal sends SIGINT to the whole process
    /// group, and dash, which does not exec a `-c` command, would die of it and leave a pager that
    /// handles SIGINT (less) running, re-parented to PID 1, while wsh took its exit for the
    /// pager's and read the keyboard too. A trap that runs `:` is reset to the default in the
    /// command itself, so `sed` as a pager still stops on Ctrl-C.
    private static func outlastingInterrupts(_ command: String) -> String {
        "trap : INT QUIT; " + command
    }

    /// Runs `before` (feeding the command) and then waits for the command, on a thread of their
    /// own; cancelling the task stops the command.
    private static func waitFor(_ child: SpawnedCommand, after before: @escaping @Sendable () -> Void) async throws -> Int32 {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread {
                    before()
                    let status = child.wait()
                    if child.wasStopped {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume(returning: status)
                    }
                }
            }
        } onCancel: {
            child.stop()
        }
    }

    /// `/bin/sh -c COMMAND sh ARGUMENTS...`, with `stdin` as its standard input when given.
    private static func spawn(_ command: String, arguments: [String] = [], stdin: Int32?) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin, STDIN_FILENO)
            posix_spawn_file_actions_addclose(&actions, stdin)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGHUP, SIGTSTP, SIGTTIN, SIGTTOU] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        // `$0` is what sh names itself in its own messages (`sh: 1: vim: not found`).
        let argv = (["/bin/sh", "-c", command] + (arguments.isEmpty ? [] : ["sh"] + arguments)).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ)
        guard result == 0 else { throw PipeFailure("cannot start /bin/sh: \(String(cString: strerror(result)))") }
        return pid
    }
}

/// Why a command could not be started.
struct PipeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A spawned command that Ctrl-C may stop from another thread.
private final class SpawnedCommand: Sendable {
    private let pid: pid_t
    private let state = Mutex((stopped: false, exited: false))

    init(_ pid: pid_t) {
        self.pid = pid
    }

    var wasStopped: Bool { state.withLock { $0.stopped } }

    /// Waits for the command to end; its exit status, or 128 + the signal that ended it.
    func wait() -> Int32 {
        // `stop` may signal the command up to the moment `exited` is set.
        ChildExit.wait(for: pid) { state.withLock { $0.exited = true } }
    }

    func stop() {
        state.withLock { state in
            state.stopped = true
            if !state.exited { kill(pid, SIGTERM) }
        }
    }
}
