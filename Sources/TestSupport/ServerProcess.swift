import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program from the system (nginx, tinyproxy, openssl) run by a test, in the foreground, and
/// stopped by its process id.
public final class ServerProcess: @unchecked Sendable {
    /// The process id, for `kill`.
    public let pid: Int32
    private let process: Process
    private let errorFile: URL

    /// Starts `executable` with `arguments`; its standard error goes to `errorFile`, read when it fails.
    public init(_ executable: String, _ arguments: [String], errorFile: URL) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        self.errorFile = errorFile
        try process.runSerially()
        pid = process.processIdentifier
    }

    /// Waits until something accepts connections on each of `ports` of 127.0.0.1, for 60 s at most
    /// (a bound only a failure reaches, generous for a loaded machine); throws with what the
    /// program wrote to standard error when it ends first or the time runs out.
    public func waitForPorts(_ ports: [Int]) throws {
        let deadline = Date().addingTimeInterval(60)
        var waiting = ports
        while let port = waiting.first {
            if Self.accepts(port) {
                waiting.removeFirst()
                continue
            }
            guard process.isRunning, Date() < deadline else {
                throw ServerProcessError.notListening(port: port, stderr: errors())
            }
            // A connect to a port nobody listens on fails at once: this is the pace of the polling.
            usleep(5_000)
        }
    }

    /// What the program wrote to standard error so far.
    public func errors() -> String {
        (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
    }

    /// Sends SIGTERM, then SIGKILL if it is still running after 5 s, and waits for it to end.
    public func stop() {
        guard process.isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(2_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExitPolling()
    }

    /// Starts a server on `count` free loopback ports and waits until it accepts on each. Another
    /// process may take a port between its pick and the server's bind: when `portWasTaken` says so
    /// of the stopped process, it starts again on other ports, three times at most. `start` writes
    /// the server's configuration for the ports and starts it.
    public static func startOnFreePorts(
        _ count: Int, start: ([Int]) throws -> ServerProcess, portWasTaken: (ServerProcess) -> Bool
    ) throws -> (process: ServerProcess, ports: [Int]) {
        var attempt = 0
        while true {
            attempt += 1
            let ports = try (0..<count).map { _ in try LoopbackPort.free() }
            let process = try start(ports)
            do {
                try process.waitForPorts(ports)
                return (process, ports)
            } catch {
                process.stop()
                if attempt < 3, portWasTaken(process) { continue }
                throw error
            }
        }
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is accepted.
    public static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// Runs a command to its end; throws with its standard error when it fails.
    public static func run(_ executable: String, _ arguments: [String], in directory: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.runSerially()
        let text = String(decoding: errors.fileHandleForReading.readToEndRetryingInterrupts(), as: UTF8.self)
        process.waitUntilExitPolling()
        guard process.terminationStatus == 0 else {
            throw ServerProcessError.failed(command: ([executable] + arguments).joined(separator: " "), stderr: text)
        }
    }

    /// The path of `name` in the usual places for system programs; nil when it is not installed.
    public static func find(_ name: String) -> String? {
        ["/usr/sbin/", "/usr/bin/", "/sbin/", "/bin/", "/usr/local/sbin/", "/usr/local/bin/"].map { $0 + name }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    deinit {
        stop()
    }
}

/// Why a server process of a test could not be used.
public enum ServerProcessError: Error, CustomStringConvertible {
    case notInstalled(String)
    case notListening(port: Int, stderr: String)
    case failed(command: String, stderr: String)

    public var description: String {
        switch self {
        case .notInstalled(let name): "\(name) is not installed (scripts/ensure-deps.sh installs it)"
        case .notListening(let port, let stderr): "nothing listens on 127.0.0.1:\(port): \(stderr)"
        case .failed(let command, let stderr): "\(command) failed: \(stderr)"
        }
    }
}
