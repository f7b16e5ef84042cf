import Foundation

/// A value behind a lock, for the few places that must be read and written
/// synchronously from any thread.
final class Locked<Value>: @unchecked Sendable {
    // Sendable by construction: `value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
