import Foundation
import Testing

/// The shell examples of README.md and docs/ that show their output, run from the repository's
/// root and compared with it: `$ cat FILE` and `$ wsh test ...`. The others (the prompt, a server,
/// a call to a real API) are illustrative; docs/dev/testing.md says so.
@Suite struct DocumentedExamplesTests {
    struct Example: CustomStringConvertible {
        var file: String
        var line: Int
        var command: String
        var shown: [String]
        var description: String { "\(file):\(line): $ \(command)" }
    }

    static var pages: [String] {
        let docs = CallTests.repository.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// The `$ COMMAND` lines of an indented block, each with the lines after it up to the next
    /// command or the block's end, for the commands that are run.
    static func examples(in page: String) throws -> [Example] {
        let text = try String(contentsOf: CallTests.repository.appendingPathComponent(page), encoding: .utf8)
        var examples: [Example] = []
        var current: Example?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let isCode = line.hasPrefix("    ")
            if isCode, line.dropFirst(4).hasPrefix("$ ") {
                if let current { examples.append(current) }
                let command = String(line.dropFirst(6)).components(separatedBy: "  #").first ?? ""
                current = Example(file: page, line: index + 1, command: command.trimmingCharacters(in: .whitespaces), shown: [])
            } else if isCode, current != nil {
                current?.shown.append(String(line.dropFirst(4)))
            } else if let finished = current {
                examples.append(finished)
                current = nil
            }
        }
        if let current { examples.append(current) }
        return examples.filter { $0.command.hasPrefix("cat ") || $0.command.hasPrefix("wsh test ") }
    }

    /// Times as `N ms`: they change from run to run.
    static func normalized(_ line: String) -> String {
        line.replacing(/\d+ ms/, with: "N ms").trimmingCharacters(in: .whitespaces)
    }

    @Test func everyExampleThatShowsItsOutputGivesIt() async throws {
        let examples = try Self.pages.flatMap(Self.examples(in:))
        #expect(examples.count >= 3, "the README's cat and wsh test examples, and docs/testing.md's")
        for example in examples {
            let output: String
            if example.command.hasPrefix("cat ") {
                let path = CallTests.repository.appendingPathComponent(String(example.command.dropFirst(4))).path
                output = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "(no file \(path))"
            } else {
                let arguments = example.command.split(separator: " ").dropFirst().map(String.init)
                let result = try await WSHProcess.run(arguments, directory: CallTests.repository)
                #expect(result.status == 0, "\(example): exit \(result.status)\n\(result.stderr)")
                output = result.stdout
            }
            let shown = example.shown.map(Self.normalized).filter { !$0.isEmpty }
            let actual = output.split(separator: "\n").map { Self.normalized(String($0)) }.filter { !$0.isEmpty }
            if example.command.hasPrefix("cat ") {
                #expect(actual == shown, "\(example)")
            } else {
                // A file's line comes as it finishes, so in any order; `...` stands for lines left out.
                let elides = shown.contains("...")
                let expected = shown.filter { $0 != "..." }
                #expect(expected.allSatisfy(actual.contains), "\(example): shown \(expected), got \(actual)")
                if !elides { #expect(actual.sorted() == expected.sorted(), "\(example): got \(actual)") }
            }
        }
    }
}
