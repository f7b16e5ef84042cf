import Foundation
@testable import WeatherShell

/// Runs statements in an interpreter whose output is captured, for tests.
@MainActor
final class ShellHarness {
    var stdout = ""
    var stderr = ""
    let interpreter: Interpreter

    init(mode: Interpreter.Mode = .script) {
        var sink: ((String, Bool) -> Void)!
        let io = ShellIO(stdoutIsTerminal: false, stderrIsTerminal: false, capture: { text, isError in sink(text, isError) })
        interpreter = Interpreter(io: io, mode: mode)
        sink = { [unowned self] text, isError in
            if isError { self.stderr += text } else { self.stdout += text }
        }
    }

    /// Runs `text` and says how it ended: nil when it completed.
    @discardableResult
    func run(_ text: String, directory: String = FileManager.default.currentDirectoryPath) async -> Halt? {
        do {
            try await interpreter.run(text: text, file: "<test>", directory: directory)
            return nil
        } catch {
            return error
        }
    }
}
