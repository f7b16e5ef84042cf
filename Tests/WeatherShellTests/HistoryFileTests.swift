import Foundation
import TestSupport
import Testing
@testable import WeatherShell

/// The history file: a statement over several lines is one line of the file, read back whole;
/// a file written before, one line an entry, reads as it did.
@Suite struct HistoryFileTests {
    func path() throws -> String {
        let directory = try ScratchDirectory.make("wsh-history")
        return directory.appendingPathComponent("history").path
    }

    /// A relative `XDG_STATE_HOME` is ignored, as the XDG spec says (runner tester's D31).
    @Test func aRelativeStateHomeIsIgnored() {
        #expect(HistoryFile.defaultPath(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"]) == "/h/.local/state/wsh/history")
        #expect(HistoryFile.defaultPath(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/wsh/history")
    }

    @Test func entriesWithLineBreaksRoundTrip() throws {
        let path = try path()
        let entries = ["target t {\n  path /a # a comment\n  header Accept:application/json\n}", "echo \"a\\nb\" \\\\", "call t",
                       "plugin auth \\\nbearer ***", "reactor r {\n\n  action go {\n    echo 서울 😀\n  }\n}", "echo \r\n"]
        let writer = HistoryFile(path: path) { Issue.record("reported \($0)") }
        for entry in entries { writer.append(entry) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count == entries.count + 1, "\(text.debugDescription)")
        #expect(text.hasPrefix("target t {\u{01}  path /a # a comment\u{01}  header Accept:application/json\u{01}}\necho \"a\\nb\" \\\\\n"))
        #expect(HistoryFile(path: path) { Issue.record("reported \($0)") }.load() == entries)
    }

    @Test func aFileOfOneLineEntriesReadsAsBefore() throws {
        let path = try path()
        try "let a = 1\nplugin auth \\\nbearer ***\necho \"\\n\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(HistoryFile(path: path) { _ in }.load() == ["let a = 1", "plugin auth \\", "bearer ***", "echo \"\\n\""])
    }

    @Test func encodingIsTheIdentityWithoutLineBreaks() {
        for entry in ["", "echo hi", "echo \\n", "서울"] {
            #expect(HistoryFile.encoded(entry) == entry)
            #expect(HistoryFile.decoded(entry) == entry)
        }
        #expect(HistoryFile.encoded("a\nb\n") == "a\u{01}b\u{01}")
        #expect(HistoryFile.decoded("a\u{01}b\u{01}") == "a\nb\n")
    }
}
