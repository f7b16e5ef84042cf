import Foundation
import Synchronization

/// Variables that `env NAME` reads as if they were in the process's environment, without changing
/// it: for an app that embeds the shell, and for tests. `setenv` is not safe while other threads
/// start processes (Foundation's `Process.run` copies the environment as `setenv` moves it).
public enum EnvironmentOverlay {
    private static let values = Mutex<[String: String]>([:])

    /// Makes `env name` give `value` in every session of this process.
    public static func define(_ name: String, _ value: String) {
        values.withLock { $0[name] = value }
    }

    /// The overlay's value for `name`, else the process environment's.
    static func value(_ name: String) -> String? {
        values.withLock { $0[name] } ?? ProcessInfo.processInfo.environment[name]
    }
}
