import Foundation

/// The process's limit on open files (`ulimit -n`). Each of `wsh load`'s users (each connection
/// of the open model) holds a socket, a descriptor: past the limit, connections and the report
/// fail mid-run. The soft limit is raised to the hard one at the start, as Locust and wrk do, and
/// a run that needs more than that is refused before it starts.
enum DescriptorLimit {
    /// Descriptors a process uses besides its users' sockets: the standard streams, the event
    /// loops' epoll and wake-up descriptors, the files read, the reports, the workers' pipes.
    static let reserved = 64

    /// Raises the soft limit to the hard one; returns the soft limit then (nil when unknown).
    static func raise() -> UInt64? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return UInt64(limit.rlim_cur)
    }

    /// Raises the limit, then says why `sockets` at once (with ``reserved`` more) do not fit under
    /// it, or nil when they do. `what` names them: `2000 users`.
    static func problem(sockets: Int, what: String) -> String? {
        let needed = UInt64(sockets + reserved)
        guard let limit = raise(), limit < needed else { return nil }
        return "\(what) need about \(needed) open files, and this process may open at most \(limit)\n"
            + "note: raise the limit with `ulimit -n \(needed)` (past the hard limit, `ulimit -Hn`, as root or in "
            + "/etc/security/limits.conf), or ask for fewer\n"
    }
}
