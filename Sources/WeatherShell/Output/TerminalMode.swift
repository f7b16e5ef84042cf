import Glibc

/// The terminal's mode (echo, canonical input, signals) around a program that sets its own: a
/// pager or an editor that ends without putting it back must not leave the prompt in its mode.
enum TerminalMode {
    /// Runs `body` and then sets stdin's terminal mode back to what it was before, when stdin is a
    /// terminal.
    static func restoring<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        var saved = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else { return try await body() }
        defer { _ = tcsetattr(STDIN_FILENO, TCSADRAIN, &saved) }
        return try await body()
    }
}
