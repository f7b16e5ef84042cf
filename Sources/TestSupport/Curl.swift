import Foundation

/// Runs the system's curl with `arguments` (`--silent --show-error` first) off the cooperative pool,
/// and returns its exit status and standard output; standard error is dropped. `environment` nil
/// keeps the test process's (a proxy variable in it would then apply: pass `[:]` to run without).
public func runCurl(
    _ arguments: [String], directory: URL? = nil, environment: [String: String]? = nil
) async throws -> (status: Int32, output: Data) {
    try await runProgram("/usr/bin/curl", ["--silent", "--show-error"] + arguments, directory: directory, environment: environment)
}

/// Runs the program at `path` with `arguments` off the cooperative pool, and returns its exit
/// status and standard output; standard error is dropped. `environment` nil keeps the test process's.
public func runProgram(
    _ path: String, _ arguments: [String], directory: URL? = nil, environment: [String: String]? = nil
) async throws -> (status: Int32, output: Data) {
    try await offPool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.runSerially()
        let data = output.fileHandleForReading.readToEndRetryingInterrupts()
        process.waitUntilExitPolling()
        return (process.terminationStatus, data)
    }
}
