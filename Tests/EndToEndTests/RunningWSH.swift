import Foundation
import TestSupport
import Synchronization

/// A wsh process still running, stdout and stderr piped: the test reads what it has written so far,
/// sends it signals, and waits for its end. For behaviour in time: an echo before the action ends,
/// Ctrl-C (SIGINT) in the middle of a call.
final class RunningWSH: @unchecked Sendable {
    // Unchecked: Foundation's Process and Thread are not Sendable; `readers` is set once, in init.
    private let process = Process()
    private let output = Mutex((stdout: "", stderr: ""))
    private var readers: [Thread] = []

    init(_ arguments: [String], environment: [String: String] = [:], directory: URL? = nil) throws {
        process.executableURL = URL(fileURLWithPath: WSHProcess.binary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = try WSHProcess.temporaryDirectory().path
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe(), error = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = error
        try process.runSerially()
        readers = [reader(output, isError: false), reader(error, isError: true)]
        readers.forEach { $0.start() }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    var stdout: String { output.withLock { $0.stdout } }
    var stderr: String { output.withLock { $0.stderr } }
    var isRunning: Bool { process.isRunning }

    /// Waits until stdout (or stderr) holds `text`, the process ends, or the time runs out: a
    /// bound only a failure reaches, generous for a loaded machine.
    func waitForOutput(_ text: String, inStderr: Bool = false, timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var seen: Bool { (inStderr ? stderr : stdout).contains(text) }
        while Date() < deadline {
            if seen { return true }
            if !process.isRunning, readers.allSatisfy(\.isFinished) { return seen }
            usleep(5_000)
        }
        return false
    }

    /// Sends SIGINT, as Ctrl-C does to the foreground process; or `signal` (SIGTERM, as a CI job's cancel).
    func interrupt(with signal: Int32 = SIGINT) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the end and returns the exit status; nil when still running after `timeout`.
    func waitForExit(timeout: TimeInterval = 60) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        guard !process.isRunning else { return nil }
        while !readers.allSatisfy(\.isFinished), Date() < deadline { usleep(1_000) }
        return process.terminationStatus
    }

    private func reader(_ pipe: Pipe, isError: Bool) -> Thread {
        Thread { [self] in
            let handle = pipe.fileHandleForReading
            while true {
                let data = handle.availableDataRetryingInterrupts()
                if data.isEmpty { return }
                let text = String(decoding: data, as: UTF8.self)
                output.withLock { output in
                    if isError { output.stderr += text } else { output.stdout += text }
                }
            }
        }
    }
}
