import Foundation
import TestSupport

/// How a session on a pseudo-terminal went, to check once the test is back on its own task.
struct TerminalOutcome<Value: Sendable>: Sendable {
    /// What the steps returned.
    var value: Value
    /// What the steps waited for in vain (see ``PseudoTerminal/expect(_:after:)``).
    var missed: [String]
    /// wsh's exit status, or `nil` when it had not exited 10 s after the steps.
    var exitStatus: Int32?
    /// Everything wsh wrote to the terminal.
    var screen: String
}

/// Starts wsh on a new pseudo-terminal (its controlling terminal with `controlling`), runs `steps`
/// against it and waits for wsh to exit, all on a thread of its own: the terminal is polled, which
/// must not hold a thread of the cooperative pool.
func onTerminal<Value: Sendable>(
    arguments: [String] = ["--norc"], environment: [String: String], directory: URL? = nil, controlling: Bool = false,
    _ steps: @escaping @Sendable (PseudoTerminal) throws -> Value
) async throws -> TerminalOutcome<Value> {
    try await offPool {
        let terminal = try PseudoTerminal(arguments: arguments, environment: environment, directory: directory,
                                          controlling: controlling)
        let value = try steps(terminal)
        let status = terminal.waitForExit()
        return TerminalOutcome(value: value, missed: terminal.missed, exitStatus: status, screen: terminal.screen)
    }
}

/// An environment for a prompt test: a fresh HOME and history file, plus `extra`.
func promptEnvironment(_ extra: [String: String] = [:]) throws -> [String: String] {
    ["HOME": try WSHProcess.temporaryDirectory().path,
     "WSH_HISTORY": try WSHProcess.temporaryDirectory().appendingPathComponent("history").path].merging(extra) { $1 }
}
