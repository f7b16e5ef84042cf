import Foundation
import TestSupport
@testable import Plugins
import Targets
import Testing

/// The log file writes each line as it comes: nothing is held, so no timer decides what is on disk.
@Suite struct LogFileTests {
    private func temporaryPath() throws -> String {
        let directory = try ScratchDirectory.make("wsh-logfile")
        return directory.appendingPathComponent("log.txt").path
    }

    private func contents(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    @Test func eachLineIsInTheFileAsSoonAsItIsAppendedAfterWhatWasThere() throws {
        let path = try temporaryPath()
        try "earlier\n".write(toFile: path, atomically: true, encoding: .utf8)
        let file = try LogFile(path: path)
        var expected = "earlier\n"
        for number in 1...3 {
            file.append("line \(number)")
            expected += "line \(number)\n"
            #expect(contents(path) == expected)
        }
        withExtendedLifetime(file) {}
    }

    @Test func copiesShareTheFile() throws {
        let path = try temporaryPath()
        let file = try LogFile(path: path)
        let copy = file
        file.append("one")
        copy.append("two")
        #expect(contents(path) == "one\ntwo\n")
    }

    /// Eight threads append 200 numbered lines each, some longer than a pipe's atomic write:
    /// every line arrives whole and exactly once, and each thread's lines in the order it wrote them.
    @Test func linesFromManyThreadsArriveWholeOnceAndInOrder() async throws {
        let path = try temporaryPath()
        let file = try LogFile(path: path)
        let padding = String(repeating: "y", count: 5000)
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask { for number in 0..<200 { file.append("\(thread) \(number) \(padding)") } }
            }
        }
        let lines = contents(path).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 8 * 200 + 1)
        #expect(lines.last == "")
        var next = [Int](repeating: 0, count: 8)
        for line in lines.dropLast() {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let thread = Int(fields[0]), let number = Int(fields[1]), next.indices.contains(thread),
                  fields[2] == padding[...] else {
                Issue.record("a line was cut or mixed with another: \(line.prefix(40))...")
                return
            }
            #expect(number == next[thread], "thread \(thread) wrote line \(number) where \(next[thread]) was next")
            next[thread] = number + 1
        }
        #expect(next == [Int](repeating: 200, count: 8))
    }
}
