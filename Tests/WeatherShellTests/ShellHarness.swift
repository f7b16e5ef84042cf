import Foundation
@testable import WeatherShell

/// Runs statements in an run whose output is captured, for tests.
@ShellActor
final class ShellHarness {
    /// What the shell wrote; ShellIO calls the capture under its lock.
    final class Captured: @unchecked Sendable {
        var stdout = ""
        var stderr = ""
    }
    let captured = Captured()
    var stdout: String { captured.stdout }
    var stderr: String { captured.stderr }
    let run: Run

    init(mode: Run.Mode = .script) {
        let captured = captured
        let io = ShellIO(stdoutIsTerminal: false, stderrIsTerminal: false, capture: { text, isError in
            if isError { captured.stderr += text } else { captured.stdout += text }
        })
        run = Run(io: io, mode: mode)
    }

    /// Runs `text` and says how it ended: nil when it completed.
    @discardableResult
    func run(_ text: String, directory: String = FileManager.default.currentDirectoryPath) async -> Halt? {
        do {
            try await run.execute(text: text, file: "<test>", directory: directory)
            return nil
        } catch {
            return error
        }
    }
}
