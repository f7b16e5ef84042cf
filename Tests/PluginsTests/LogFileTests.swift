import Foundation
import TestSupport
@testable import Plugins
import Targets
import Testing

/// The log file writes lines in blocks: at a size, after a delay, on request, and when it goes.
@Suite struct LogFileTests {
    private func temporaryPath() throws -> String {
        let directory = try ScratchDirectory.make("wsh-logfile")
        return directory.appendingPathComponent("log.txt").path
    }

    private func contents(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    @Test func flushWritesHeldLinesInOrderAfterWhatWasThere() throws {
        let path = try temporaryPath()
        try "earlier\n".write(toFile: path, atomically: true, encoding: .utf8)
        let file = try LogFile(path: path)
        for number in 1...3 { file.append("line \(number)") }
        file.flush()
        #expect(contents(path) == "earlier\nline 1\nline 2\nline 3\n")
    }

    @Test func heldLinesAreWrittenAfterTheDelayWithoutAFlush() async throws {
        let path = try temporaryPath()
        let file = try LogFile(path: path)
        file.append("soon")
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while contents(path).isEmpty, clock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(contents(path) == "soon\n")
        withExtendedLifetime(file) {}
    }

    @Test func aFullBlockIsWrittenAtOnce() throws {
        let path = try temporaryPath()
        let file = try LogFile(path: path)
        let line = String(repeating: "x", count: 99)
        for _ in 0..<(LogFile.blockSize / 100 + 1) { file.append(line) }
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        #expect(size >= LogFile.blockSize)
        withExtendedLifetime(file) {}
    }

    @Test func flushAllWritesEveryOpenFile() throws {
        let paths = try [temporaryPath(), temporaryPath()]
        let files = try paths.map { try LogFile(path: $0) }
        for (index, file) in files.enumerated() { file.append("file \(index)") }
        LogFile.flushAll()
        #expect(paths.map(contents) == ["file 0\n", "file 1\n"])
        withExtendedLifetime(files) {}
    }

    @Test func theLastCopyGoingWritesWhatIsHeld() throws {
        let path = try temporaryPath()
        do {
            let file = try LogFile(path: path)
            let copy = file
            copy.append("kept")
        }
        #expect(contents(path) == "kept\n")
    }

    @Test func linesFromManyThreadsStayWhole() async throws {
        let path = try temporaryPath()
        let file = try LogFile(path: path)
        let line = String(repeating: "y", count: 300)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<200 { file.append(line) } }
            }
        }
        file.flush()
        let lines = contents(path).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 8 * 200 + 1)
        #expect(lines.dropLast().allSatisfy { $0 == line[...] })
    }
}

/// Log lines built as bytes.
@Suite struct LineBufferTests {
    @Test func numbersAndTextComeOutAsWritten() {
        var line = LineBuffer(capacity: 8)
        line.append(0)
        line.append(" ")
        line.append(-42)
        line.append(" ")
        line.append(Int.max)
        line.append(" é ✓")
        #expect(line.text == "0 -42 \(Int.max) é ✓")
    }
}
