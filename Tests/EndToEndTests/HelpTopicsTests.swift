import Foundation
import Testing
import TestSupport

/// `help TOPIC` prints the manual's page of that name: the text of docs/TOPIC.md, one source.
@Suite struct HelpTopicsTests {
    static func page(_ name: String) throws -> String {
        try String(contentsOf: CallTests.repository.appendingPathComponent("docs/\(name).md"), encoding: .utf8)
    }

    @Test func aTopicPrintsItsPageAndACommandsNameTakesMD() async throws {
        let topic = try await WSHProcess.run(["-c", "help coming-from"])
        #expect(topic.status == 0, "\(topic.stderr)")
        #expect(topic.stdout == (try Self.page("coming-from")))
        // `history` is a command: its usage; the page is history.md.
        let command = try await WSHProcess.run(["-c", "help history"])
        #expect(command.stdout.hasPrefix("usage: history "), "\(command.stdout)")
        let page = try await WSHProcess.run(["-c", "help history.md"])
        #expect(page.stdout == (try Self.page("history")))
    }

    /// `help emit` said "no help for 'emit'" (language tester's D29): a reactor's words have their usage.
    @Test func theWordsOfAReactorHaveHelp() async throws {
        for (word, usage) in [("emit", "usage: emit NAME = VALUE"), ("catch", "catch { ... }"), ("unless", "unless FIELD"), ("action", "usage: action NAME")] {
            let result = try await WSHProcess.run(["-c", "help \(word)"])
            #expect(result.status == 0 && result.stdout.contains(usage) && result.stdout.contains("help reactor"), "\(word): \(result.stdout)\(result.stderr)")
        }
    }

    @Test func helpListsTheTopicsAndAMisspeltOneIsGuessed() async throws {
        let list = try await WSHProcess.run(["-c", "help"])
        let pages = try FileManager.default.contentsOfDirectory(atPath: CallTests.repository.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { String($0.dropLast(3)) }.sorted()
        #expect(list.stdout.contains(": " + pages.joined(separator: " ") + "\n"), "\(list.stdout)")
        let wrong = try await WSHProcess.run(["-c", "help testin"])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("no help for 'testin'") && wrong.stderr.contains("did you mean 'testing'?"), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("pages were not found"), "\(wrong.stderr)")
    }

    /// A binary copied on its own has no pages beside it: `help testing` says so and where they
    /// are read from (it said only "no help for 'testing'").
    @Test func aBinaryWithoutItsPagesSaysWhereTheyAreRead() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(directory) }
        let copy = directory.appendingPathComponent("wsh")
        try FileManager.default.copyItem(atPath: WSHProcess.binary, toPath: copy.path)
        let result = try await runProgram("/bin/sh", ["-c", "./wsh -c 'help testing' 2>&1"], directory: directory)
        let stderr = String(decoding: result.output, as: UTF8.self)
        #expect(stderr.contains("no help for 'testing'") && stderr.contains("the manual's pages were not found"), "\(stderr)")
        #expect(stderr.contains("../share/doc/wsh"), "\(stderr)")
    }
}
