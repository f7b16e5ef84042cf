import Foundation
import Testing

/// An error at the prompt names the entry's own line (`prompt:2:3`), not a count of every line
/// typed so far as `<stdin>:85:1` did (issue 35, item 15).
@Suite struct PromptErrorLabelTests {
    @Test func anErrorAtThePromptNamesTheLineOfItsEntry() async throws {
        let outcome = try await onTerminal(environment: try promptEnvironment()) { screen in
            screen.expect("wsh> ")
            for _ in 0..<3 { screen.type("echo fine\r") }
            var mark = screen.mark
            screen.type("ech x\r")
            screen.expect("prompt:1:1: error: unknown command 'ech'", after: mark)
            mark = screen.mark
            screen.type("if 1 == 1 {\r")
            screen.type("  echo $nope\r")
            screen.type("}\r")
            screen.expect("prompt:2:8: error: undefined variable 'nope'", after: mark)
            screen.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(!outcome.screen.contains("<stdin>"))
    }
}
