import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Ports on 127.0.0.1 for tests that must name one before a server starts on it.
///
/// A port is named, then bound later by another program (nginx, tinyproxy, wsh serve). The kernel's
/// pick for port 0 came from the ephemeral range, where in that gap it could hand the same port to
/// a test server binding port 0 or to a client's end of a connection: nginx then failed to bind
/// it and retried for seconds, while the test, finding the port open, talked to the other server
/// (connections reset, a certificate from another test's CA). These ports come from below that
/// range, which the kernel never picks itself, and never twice from one process.
public enum LoopbackPort {
    /// The ports handed out: from 20000 up to the kernel's ephemeral range (32768 by default).
    static let range = 20_000..<max(20_000 + 1024, min(32_768, lowestEphemeralPort ?? 32_768))
    /// The next port to try. Each process starts at a place of its own, spread over the range, so
    /// that two test processes running at once seldom try the same ports.
    private static let next = Mutex(range.lowerBound + Int(UInt32(truncatingIfNeeded: getpid()) &* 2_654_435_761 % UInt32(range.count)))

    /// A port free now, not handed out before by this process (until all of the range has been).
    public static func free() throws -> Int {
        for _ in 0..<range.count {
            let port = next.withLock { next in
                let port = next
                next = next + 1 < range.upperBound ? next + 1 : range.lowerBound
                return port
            }
            if isFree(port) { return port }
        }
        throw POSIXError(.EADDRINUSE)
    }

    /// Whether a socket can bind 127.0.0.1:`port` now.
    static func isFree(_ port: Int) -> Bool {
        guard let fd = socket(boundTo: port) else { return false }
        close(fd)
        return true
    }

    /// A socket bound to 127.0.0.1:`port`, close-on-exec (a server started meanwhile by another
    /// thread must not inherit it), or nil when the port is taken; the caller closes it.
    static func socket(boundTo port: Int) -> Int32? {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(truncatingIfNeeded: port).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard bound else {
            close(fd)
            return nil
        }
        return fd
    }

    /// The lowest port of the kernel's ephemeral range, when it can be read.
    private static var lowestEphemeralPort: Int? {
        (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))?
            .split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
    }
}
