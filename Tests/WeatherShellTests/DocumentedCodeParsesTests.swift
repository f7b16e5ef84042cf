import Testing
import TestSupport
@testable import WeatherShell

/// Every ```` ```wsh ```` block of README.md and docs/ parses, also the illustrative ones that are
/// not run (DocumentedExamplesTests runs the others): a statement the language no longer has
/// fails here with the page and line. A synopsis (`[N]`, `on|off`) belongs in a ```` ```text ```` block.
@Suite struct DocumentedCodeParsesTests {
    @Test func everyWshBlockParses() throws {
        let blocks = try DocumentedBlock.all().filter { $0.language == "wsh" }
        #expect(blocks.count >= 10)
        for block in blocks {
            let input = block.promptInput.isEmpty ? block.lines : block.promptInput
            let file = SourceFile(name: block.page, directory: "/", text: input.joined(separator: "\n") + "\n")
            do {
                _ = try Parser.parse(file)
            } catch {
                Issue.record("\(block) (a block of \(block.page) from that line):\n\(error.rendered())")
            }
        }
    }
}
