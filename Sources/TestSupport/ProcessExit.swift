import Foundation

extension Process {
    /// Blocks until the process has ended, checking every millisecond.
    ///
    /// Foundation's `waitUntilExit()` runs the calling thread's run loop until the process ends; a
    /// thread of `offPool` has an empty run loop, which returns at once, so each waiting thread spun
    /// a core: with the suites' dozens of processes at once, a 70 s run took 11 minutes.
    public func waitUntilExitPolling() {
        while isRunning { usleep(1_000) }
    }

    /// Sends SIGTERM by its PID, if it still runs, and waits off the cooperative pool for its end:
    /// how the tests stop the servers they start.
    public func terminateAndWait() async {
        let process = self
        _ = try? await offPool {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            process.waitUntilExitPolling()
        }
    }
}

/// One process started at a time across the test process's threads: Foundation's `Process.run`
/// crashed (a bad pointer in its copy of the arguments and environment) when dozens of tests
/// started processes at once.
private let launchLock = NSLock()

extension Process {
    /// `run()`, one at a time across the test process (see `launchLock`).
    public func runSerially() throws {
        launchLock.lock()
        defer { launchLock.unlock() }
        try run()
    }
}

extension FileHandle {
    /// Everything until end of file, reading again when a signal interrupts a read: Foundation's
    /// `readDataToEndOfFile()` traps on EINTR, which a child's SIGCHLD causes while many tests run processes.
    public func readToEndRetryingInterrupts() -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                return data
            }
        }
    }

    /// What one read gives (up to 64 KB), empty at end of file; reading again when a signal
    /// interrupts it: Foundation's `availableData` traps on EINTR, as `readDataToEndOfFile()` does.
    public func availableDataRetryingInterrupts() -> Data {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 { return Data(buffer[0..<count]) }
            if count == 0 || errno != EINTR { return Data() }
        }
    }
}
