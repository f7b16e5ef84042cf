import Glibc

/// Waiting for a child process that another thread may still signal.
enum ChildExit {
    /// Waits for `pid` to end and returns its exit status, or 128 + the signal that ended it.
    /// `exited` runs once it has ended but before it is reaped: until then the pid cannot be
    /// another process's, so a signal sent before `exited` runs reaches the right process.
    static func wait(for pid: pid_t, exited: () -> Void) -> Int32 {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
        exited()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
