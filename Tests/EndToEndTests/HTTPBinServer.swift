import Foundation
import Synchronization
import TestSupport

/// httpbin, a server nobody here wrote, under gunicorn on a free loopback port: what it saw of a
/// request comes back as JSON from `/anything`. It runs from the venv `scripts/ensure-httpbin.sh`
/// makes (`$WSH_HTTPBIN_VENV`, default /tmp/wsh-httpbin), which is run first when it is missing.
final class HTTPBinServer: @unchecked Sendable {
    // Unchecked: Foundation's Process is not Sendable; it is only started in init and stopped once.
    private let process = Process()
    private let log = GunicornLog()
    let port: Int

    var baseURL: String { "http://127.0.0.1:\(port)" }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var venv: String { ProcessInfo.processInfo.environment["WSH_HTTPBIN_VENV"] ?? "/tmp/wsh-httpbin" }

    /// Starts httpbin, runs `body` with it, and stops it by its PID on every path.
    static func with<T>(_ body: (HTTPBinServer) async throws -> T) async throws -> T {
        let server = try await offPool { try HTTPBinServer() }
        return try await using(server, stoppedBy: { await $0.stop() }, body)
    }

    private init() throws {
        try Self.install()
        // The test process blocks SIGTERM in its threads, and a child inherits that mask: gunicorn
        // started as it is never saw the SIGTERM that stops it. Python clears the mask first.
        // Port 0: the kernel picks a free port, which gunicorn's log line names.
        process.executableURL = URL(fileURLWithPath: Self.venv + "/bin/python")
        process.arguments = ["-c", """
            import signal, sys
            signal.pthread_sigmask(signal.SIG_SETMASK, set())
            sys.argv = ["gunicorn", "--bind", "127.0.0.1:0", "--workers", "1", "httpbin:app"]
            from gunicorn.app.wsgiapp import run
            sys.exit(run())
            """]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.runSerially()
        // Gunicorn logs on stderr; read it to its end, so that the pipe never fills, and find the port.
        let listening = DispatchSemaphore(value: 0)
        let log = self.log
        Thread {
            let handle = errors.fileHandleForReading
            var signalled = false
            while true {
                let data = handle.availableDataRetryingInterrupts()
                let finished = data.isEmpty
                let text = log.text.withLock { log in
                    log += String(decoding: data, as: UTF8.self)
                    return log
                }
                if !signalled, finished || text.contains("Listening at: ") {
                    signalled = true
                    listening.signal()
                }
                if finished { return }
            }
        }.start()
        // A bound on the wait, not a sleep: gunicorn says where it listens in well under a second.
        guard listening.wait(timeout: .now() + 60) == .success, let port = Self.port(in: log.text.withLock { $0 }) else {
            process.terminate()
            throw StartFailure(log: log.text.withLock { $0 })
        }
        self.port = port
    }

    /// `Listening at: http://127.0.0.1:PORT (PID)`.
    private static func port(in log: String) -> Int? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains("Listening at: ") }),
              let colon = line.range(of: "127.0.0.1:") else { return nil }
        return Int(line[colon.upperBound...].prefix { $0.isNumber })
    }

    /// Runs scripts/ensure-httpbin.sh when the venv has no gunicorn.
    private static func install() throws {
        guard !FileManager.default.isExecutableFile(atPath: venv + "/bin/gunicorn") else { return }
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/bin/bash")
        script.arguments = [repository.appendingPathComponent("scripts/ensure-httpbin.sh").path]
        try script.runSerially()
        script.waitUntilExitPolling()
        guard script.terminationStatus == 0 else { throw StartFailure(log: "scripts/ensure-httpbin.sh exited \(script.terminationStatus)") }
    }

    /// Stops gunicorn by its PID (SIGTERM: it stops its worker and exits) and waits for it.
    func stop() async {
        await process.terminateAndWait()
    }

    struct StartFailure: Error, CustomStringConvertible {
        var log: String
        var description: String { "httpbin did not start: \(log)" }
    }
}

/// What gunicorn has written on stderr so far, shared with the thread that reads it.
final class GunicornLog: Sendable {
    let text = Mutex("")
}

/// Runs curl with `arguments` (no shell in between) and returns its stdout.
func runCurl(_ arguments: [String], directory: URL) async throws -> Data {
    try await TestSupport.runCurl(arguments, directory: directory).output
}
