import Foundation
import Synchronization
@testable import WeatherShell

/// Runs statements in an run whose output is captured, for tests.
@ShellActor
final class ShellHarness {
    /// What the shell wrote, from whichever thread wrote it.
    final class Captured: Sendable {
        private let text = Mutex((stdout: "", stderr: ""))

        var stdout: String {
            get { text.withLock { $0.stdout } }
            set { text.withLock { $0.stdout = newValue } }
        }

        var stderr: String {
            get { text.withLock { $0.stderr } }
            set { text.withLock { $0.stderr = newValue } }
        }

        func append(_ written: String, isError: Bool) {
            text.withLock { text in
                if isError { text.stderr += written } else { text.stdout += written }
            }
        }
    }
    let captured = Captured()
    var stdout: String { captured.stdout }
    var stderr: String { captured.stderr }
    let run: Run

    init(mode: Run.Mode = .script, terminal: Bool = false) {
        let captured = captured
        let io = ShellIO(stdoutIsTerminal: terminal, stderrIsTerminal: terminal, capture: { text, isError in
            captured.append(text, isError: isError)
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
