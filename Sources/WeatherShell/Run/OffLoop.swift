import Foundation

/// Runs blocking work (waiting for the call history's writer, reading its database) on a thread
/// of its own: the shell's actor runs on the session's event loop, which every connection shares
/// and which must never wait (a 5 s flush there held a test's refused connection for 14 s).
func offLoop<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
