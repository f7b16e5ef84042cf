import Foundation
import TestSupport

/// Runs the built `wsh` binary and collects what it wrote and how it exited.
struct WSHProcess {
    struct Result {
        var stdout: String
        var stderr: String
        var status: Int32
    }

    /// The built binary: `$WSH_BIN`, else `wsh` beside the test bundle, else the package's .build/debug.
    static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["WSH_BIN"] { return path }
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for directory in [bundleDirectory, bundleDirectory.deletingLastPathComponent(), Bundle.main.bundleURL.deletingLastPathComponent()] {
            let candidate = directory.appendingPathComponent("wsh").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/wsh").path
    }()

    /// A scratch directory for one test.
    static func temporaryDirectory() throws -> URL {
        try ScratchDirectory.make("wsh-e2e")
    }

    /// Runs wsh as ``run(_:stdin:environment:directory:)`` does, on a thread of its own: an async test
    /// must not hold one of the cooperative pool's few threads while the process runs. In an async
    /// context Swift picks this overload, and a call without `await` does not compile.
    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:],
                    directory: URL? = nil) async throws -> Result {
        try await offPool { try run(arguments, stdin: stdin, environment: environment, directory: directory) }
    }

    /// Runs wsh with `arguments`, `stdin` piped in (not a terminal), and an isolated HOME; blocks
    /// until it exits.
    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:],
                    directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        let home = try temporaryDirectory()
        defer { ScratchDirectory.remove(home) }
        env["HOME"] = home.path
        env["XDG_CONFIG_HOME"] = nil
        env["XDG_STATE_HOME"] = nil
        env["WSH_HISTORY"] = nil
        env["NO_COLOR"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        return try runToEnd(process, stdin: stdin)
    }

    /// SIGPIPE ignored in the test process, once, so that a write to a child that has exited fails instead.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Runs `process` with `stdin` piped in and its output collected; blocks until it exits.
    static func runToEnd(_ process: Process, stdin: String) throws -> Result {
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.runSerially()
        let stdinData = Data(stdin.utf8)
        ignoreBrokenPipes
        let writer = Thread {
            // wsh may stop reading before the end (a script stopped by its first error): the rest
            // is not written, and the write fails with EPIPE instead of killing the test process.
            try? input.fileHandleForWriting.write(contentsOf: stdinData)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        // Read both pipes concurrently so a full pipe cannot stall the child.
        nonisolated(unsafe) var errorData = Data()
        let errorReader = Thread { errorData = error.fileHandleForReading.readToEndRetryingInterrupts() }
        errorReader.start()
        let outputData = output.fileHandleForReading.readToEndRetryingInterrupts()
        process.waitUntilExitPolling()
        while !errorReader.isFinished { usleep(1000) }
        return Result(stdout: String(decoding: outputData, as: UTF8.self), stderr: String(decoding: errorData, as: UTF8.self),
                      status: process.terminationStatus)
    }
}
