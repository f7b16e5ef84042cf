import Foundation

/// Debian's squid on a loopback port of its own, in the foreground (`squid -N`), with Debian's
/// shipped configuration (`/etc/squid/squid.conf`) as it is but for where it listens and writes:
/// its access rules (`http_access deny CONNECT !SSL_ports` among them) are the ones users meet.
///
/// Blocking: start it through ``offPool(_:)`` from async tests, and ``stop()`` it when done.
public final class SquidServer: @unchecked Sendable {
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// Its access log: a line per request, as `... TCP_MISS/200 ... GET http://HOST:PORT/PATH ...`.
    public let accessLog: String
    private let process: ServerProcess

    /// `http://127.0.0.1:PORT`.
    public var url: String { "http://127.0.0.1:\(port)" }

    public init() throws {
        guard let squid = ServerProcess.find("squid") else { throw ServerProcessError.notInstalled("squid") }
        let shipped = try String(contentsOfFile: "/etc/squid/squid.conf", encoding: .utf8)
        let directory = try ScratchDirectory.make("wsh-squid")
        // Squid started as root works as the user proxy, which must write here.
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path)
        accessLog = directory.appendingPathComponent("access.log").path
        let accessLog = accessLog
        let file = directory.appendingPathComponent("squid.conf")
        let started = try ServerProcess.startOnFreePorts(1, start: { ports in
            var lines = shipped.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                if line == "http_port 3128" { return "http_port 127.0.0.1:\(ports[0])" }
                if line.hasPrefix("coredump_dir ") { return "coredump_dir \(directory.path)" }
                return String(line)
            }
            lines += [
                "pid_filename \(directory.path)/squid.pid", "access_log stdio:\(accessLog)",
                "cache_log \(directory.path)/cache.log", "netdb_filename none", "shutdown_lifetime 0 seconds",
            ]
            try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
            return try ServerProcess(squid, ["-N", "-f", file.path], errorFile: directory.appendingPathComponent("squid.stderr"))
        }, portWasTaken: { process in
            (process.errors() + ((try? String(contentsOfFile: "\(directory.path)/cache.log", encoding: .utf8)) ?? "")).contains("in use")
        })
        (process, port) = (started.process, started.ports[0])
    }

    /// The access log's lines of requests, once it holds `count` of them (squid writes a line when a
    /// request is done, which may be just after its client has the answer); what it holds after 30 s
    /// otherwise. Connections that sent no request (the probe that saw squid listening) are left out.
    public func accessLines(count: Int) -> [String] {
        let deadline = Date().addingTimeInterval(30)
        while true {
            let text = (try? String(contentsOfFile: accessLog, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n").map(String.init).filter { !$0.contains("transaction-end-before-headers") }
            if lines.count >= count || Date() >= deadline { return lines }
            usleep(5_000)
        }
    }

    /// Stops squid by its process id and waits for it to end.
    public func stop() {
        process.stop()
    }
}
