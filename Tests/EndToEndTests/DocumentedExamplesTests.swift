import Foundation
import Testing
import TestSupport

/// The examples of README.md and docs/, run as a reader would run them (docs/dev/testing.md says
/// how a block is marked): a ```` ```wsh ```` block offline, under `--stub`, and a
/// ```` ```console ```` block's `$ cat` and `$ wsh` commands from the repository's root, each
/// compared with the output the page shows.
@Suite struct DocumentedExamplesTests {
    static let blocks: [DocumentedBlock] = (try? DocumentedBlock.all()) ?? []

    static func runs(_ block: DocumentedBlock, language: String) -> Bool {
        block.language == language && !block.words.contains("illustrative")
    }

    /// Times as `N ms`, and the blanks around a line, change from run to run or do not matter.
    static func normalized(_ line: String) -> String {
        line.replacing(/\d+ ms/, with: "N ms").trimmingCharacters(in: .whitespaces)
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map { normalized(String($0)) }.filter { !$0.isEmpty }
    }

    /// Whether `shown` appears in `actual` in its order, other lines between them allowed.
    static func appearsInOrder(_ shown: [String], in actual: [String]) -> Bool {
        var rest = actual[...]
        for line in shown {
            guard let found = rest.firstIndex(of: line) else { return false }
            rest = rest[rest.index(after: found)...]
        }
        return true
    }

    @Test func thePagesHaveExamplesOfEachKind() {
        #expect(Self.blocks.contains { Self.runs($0, language: "wsh") && !$0.promptInput.isEmpty }, "a session at the prompt")
        #expect(Self.blocks.contains { Self.runs($0, language: "wsh") && $0.promptInput.isEmpty }, "a script")
        #expect(Self.blocks.filter { Self.runs($0, language: "console") }.count >= 2, "the README's cat and wsh test")
    }

    /// A ```` ```wsh ```` block runs offline with no error: a script as a file piped to
    /// `wsh --stub -`, a session at the prompt as its `wsh> ` lines, whose other lines (what the
    /// page shows it printing) must come in their order, on stdout or stderr.
    @Test(arguments: blocks.filter { runs($0, language: "wsh") })
    func aWshBlockRunsOffline(_ block: DocumentedBlock) async throws {
        let directory = try ScratchDirectory.make("wsh-docs")
        defer { ScratchDirectory.remove(directory) }
        for folder in ["examples", "packs"] {
            try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent(folder),
                                                       withDestinationURL: DocumentedBlock.repository.appendingPathComponent(folder))
        }
        let input = block.promptInput.isEmpty ? block.lines : block.promptInput
        let result = try await WSHProcess.run(["--stub", "-"], stdin: input.joined(separator: "\n") + "\n", directory: directory)
        #expect(result.status == 0, "\(block): exit \(result.status)\n\(result.stderr)")
        if !block.promptInput.isEmpty {
            let shown = Self.lines(block.lines.filter { !$0.hasPrefix("wsh> ") }.joined(separator: "\n"))
            let actual = Self.lines(result.stdout) + Self.lines(result.stderr)
            let shownOnStdout = shown.filter(Self.lines(result.stdout).contains)
            let shownOnStderr = shown.filter { !shownOnStdout.contains($0) }
            #expect(Self.appearsInOrder(shownOnStdout, in: Self.lines(result.stdout))
                    && Self.appearsInOrder(shownOnStderr, in: Self.lines(result.stderr)),
                    "\(block): shown \(shown), got \(actual)")
        }
    }

    /// A ```` ```console ```` block's `$ COMMAND` lines, each with the lines after it up to the next.
    static func commands(in block: DocumentedBlock) -> [(line: Int, command: String, shown: [String])] {
        var commands: [(line: Int, command: String, shown: [String])] = []
        for (offset, line) in block.lines.enumerated() {
            if line.hasPrefix("$ ") {
                let command = line.dropFirst(2).components(separatedBy: "  #").first ?? ""
                commands.append((block.line + offset, command.trimmingCharacters(in: .whitespaces), []))
            } else if !commands.isEmpty {
                commands[commands.count - 1].shown.append(line)
            }
        }
        return commands
    }

    /// `$ cat FILE` shows the file whole; `$ wsh ...` runs from the repository's root with the
    /// lines shown (a `wsh test` run's files finish in any order; `...` stands for lines left out).
    @Test(arguments: blocks.filter { runs($0, language: "console") })
    func aConsoleBlockPrintsWhatItShows(_ block: DocumentedBlock) async throws {
        let commands = Self.commands(in: block)
        #expect(!commands.isEmpty, "\(block): a console block starts with '$ COMMAND'")
        for (line, command, shownLines) in commands {
            let place = "\(block.page):\(line): $ \(command)"
            let shown = shownLines.map(Self.normalized).filter { !$0.isEmpty }
            if command.hasPrefix("cat ") {
                let path = DocumentedBlock.repository.appendingPathComponent(String(command.dropFirst(4))).path
                let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "(no file \(path))"
                #expect(Self.lines(text) == shown, "\(place)")
            } else if command.hasPrefix("wsh serve") {
                Issue.record("\(place): a server does not end by itself; mark the block ```console illustrative")
            } else if command.hasPrefix("wsh ") {
                let arguments = command.split(separator: " ").dropFirst().map(String.init)
                let result = try await WSHProcess.run(arguments, directory: DocumentedBlock.repository)
                let actual = Self.lines(result.stdout)
                #expect(result.status == 0, "\(place): exit \(result.status)\n\(result.stderr)")
                let expected = shown.filter { $0 != "..." }
                #expect(expected.allSatisfy(actual.contains), "\(place): shown \(expected), got \(actual)")
                if !shown.contains("...") { #expect(actual.sorted() == expected.sorted(), "\(place): got \(actual)") }
            } else {
                Issue.record("\(place): a console block runs only cat and wsh; mark it ```console illustrative")
            }
        }
    }
}
