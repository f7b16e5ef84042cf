import Foundation

/// Debian's tinyproxy on a loopback port of its own, in the foreground (`tinyproxy -d`), with its
/// log in a temporary directory: tests read ``log()`` to see that a request went through it.
///
/// Blocking: start it through ``offPool(_:)`` from async tests, and ``stop()`` it when done.
public final class TinyproxyServer: @unchecked Sendable {
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// The path of its log (`LogLevel Info`: a `Request` line with the request line of each
    /// request, `CONNECT 127.0.0.1:PORT HTTP/1.1` for a tunnel).
    public let logFile: String
    private let process: ServerProcess

    /// `http://127.0.0.1:PORT`, or with `user:password@` when given.
    public func url(user: String? = nil, password: String? = nil) -> String {
        let credentials = user.map { "\($0):\(password ?? "")@" } ?? ""
        return "http://\(credentials)127.0.0.1:\(port)"
    }

    /// Starts tinyproxy allowing CONNECT to `connectPorts` only (tinyproxy allows every port when
    /// none is listed), and asking for Basic credentials when `credentials` are given.
    public init(connectPorts: [Int], credentials: (user: String, password: String)? = nil) throws {
        guard let tinyproxy = ServerProcess.find("tinyproxy") else { throw ServerProcessError.notInstalled("tinyproxy") }
        let directory = try ScratchDirectory.make("wsh-tinyproxy")
        let logFile = directory.appendingPathComponent("tinyproxy.log").path
        self.logFile = logFile
        let file = directory.appendingPathComponent("tinyproxy.conf")
        let started = try ServerProcess.startOnFreePorts(1, start: { ports in
            var lines = [
                "Port \(ports[0])", "Listen 127.0.0.1", "Timeout 60", "LogFile \"\(logFile)\"", "LogLevel Info",
                "MaxClients 50", "Allow 127.0.0.1", "DisableViaHeader Yes",
            ]
            lines += connectPorts.map { "ConnectPort \($0)" }
            if let credentials { lines.append("BasicAuth \(credentials.user) \(credentials.password)") }
            // Running as root, tinyproxy would drop to this user; as another user it keeps its own.
            if getuid() == 0 { lines += ["User nobody", "Group nogroup"] }
            try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            _ = FileManager.default.createFile(atPath: logFile, contents: nil, attributes: [.posixPermissions: 0o666])
            return try ServerProcess(tinyproxy, ["-d", "-c", file.path], errorFile: directory.appendingPathComponent("tinyproxy.stderr"))
        }, portWasTaken: { process in
            process.errors().contains("in use") || ((try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "").contains("in use")
        })
        (process, port) = (started.process, started.ports[0])
    }

    /// The log so far.
    public func log() -> String {
        (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
    }

    /// Stops tinyproxy by its process id and waits for it to end.
    public func stop() {
        process.stop()
    }
}
