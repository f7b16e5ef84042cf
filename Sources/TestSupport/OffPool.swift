import Foundation

/// Runs blocking work (a socket read, waiting for a process, polling a terminal) on a thread of its
/// own, so that it holds none of the cooperative pool's threads: there are as many as cores, and a
/// test blocking them starved every other test's tasks (a refused connection took 22 s to report).
public func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
