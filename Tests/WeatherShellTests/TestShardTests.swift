import Foundation
import Testing
@testable import WeatherShell

@Suite struct TestShardTests {
    @Test func slicesByCountCoverEveryFileOnce() throws {
        let files = (1...10).map { "t/f\($0).wsh" }
        let slices = try (1...3).map { try #require(TestShard("\($0)/3")).select(files) }
        // In sorted order f1, f10, f2, ...: the slices are the same whatever order the files are given in.
        #expect(slices[0] == ["t/f1.wsh", "t/f3.wsh", "t/f6.wsh", "t/f9.wsh"])
        #expect(try #require(TestShard("1/3")).select(files.reversed()) == ["t/f9.wsh", "t/f6.wsh", "t/f3.wsh", "t/f1.wsh"])
        #expect(slices.map(\.count) == [4, 3, 3])
        #expect(Set(slices.flatMap { $0 }) == Set(files) && slices.flatMap { $0 }.count == files.count)
        #expect(TestShard("0/3") == nil && TestShard("4/3") == nil && TestShard("1/0") == nil && TestShard("a/b") == nil && TestShard("1/3/4") == nil)
        #expect(try #require(TestShard("1/1")).select(files) == files)
    }

    /// `./t3.wsh` sorted before `t1.wsh` as typed, so two machines given the same files spelled
    /// differently cut different slices: a file ran twice and another on no machine.
    @Test func slicesAreTheSameHoweverThePathsAreSpelled() throws {
        let plain = (1...7).map { "t\($0).wsh" } + ["sub/a.wsh", "sub/b.wsh"]
        let here = TestShard.key(FileManager.default.currentDirectoryPath)
        let spelled = ["./t1.wsh", "t2.wsh", "./t3.wsh", "sub/../t4.wsh", "t5.wsh", "./t6.wsh", "t7.wsh", "./sub/a.wsh", "sub//b.wsh"]
        for index in 1...3 {
            let shard = try #require(TestShard("\(index)/3"))
            #expect(shard.select(spelled).map { TestShard.relativeKey($0, under: here) } == shard.select(plain), "slice \(index)")
        }
    }

    /// A directory took `A.HTTP` in any case but `C.WSH` only in lower case: that test never ran.
    @Test func aDirectoryGivesTestFilesInAnyCase() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsh-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["A.HTTP", "b.wsh", "C.WSH", "notes.txt"] {
            try "echo hi\n".write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        #expect(try TestFiles.collect([directory.path]).files.map { URL(fileURLWithPath: $0).lastPathComponent } == ["A.HTTP", "C.WSH", "b.wsh"])
    }

    /// A hidden test file (`.smoke.wsh`) is skipped, as a shell's `*.wsh` skips it, and named so
    /// that the suite cannot pass without it unseen; a hidden directory's files are not named.
    @Test func aHiddenTestFileIsSkippedAndNamed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsh-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent(".git"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["ok.wsh", ".smoke.wsh", ".notes.txt", ".git/hook.wsh", "._ok.wsh"] {
            try "echo hi\n".write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let collected = try TestFiles.collect([directory.path])
        #expect(collected.files.map { URL(fileURLWithPath: $0).lastPathComponent } == ["ok.wsh"])
        #expect(collected.hidden.map { URL(fileURLWithPath: $0).lastPathComponent } == [".smoke.wsh", ".git"].filter { $0.hasSuffix(".wsh") })
    }

    /// A linked directory (a shared suite linked in) was skipped without a word and its failing
    /// tests never ran; a link to nothing was dropped silently. Links are followed, each directory
    /// walked once (a cycle ends), and what cannot be opened is named.
    @Test func linkedDirectoriesAreWalkedOnceAndALinkToNothingIsNamed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wsh-files-\(UUID().uuidString)")
        let tests = root.appendingPathComponent("tests")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("shared"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try "expect 1 == 2\n".write(to: root.appendingPathComponent("shared/failing.wsh"), atomically: true, encoding: .utf8)
        try "expect 1 == 1\n".write(to: tests.appendingPathComponent("ok.wsh"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: tests.appendingPathComponent("shared").path, withDestinationPath: "../shared")
        try FileManager.default.createSymbolicLink(atPath: tests.appendingPathComponent("again").path, withDestinationPath: "../shared")
        try FileManager.default.createSymbolicLink(atPath: tests.appendingPathComponent("up").path, withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: tests.appendingPathComponent("gone.wsh").path, withDestinationPath: "nowhere.wsh")
        let collected = try TestFiles.collect([tests.path])
        let relative = { (paths: [String]) in paths.map { String($0.dropFirst(tests.path.count + 1)) } }
        #expect(relative(collected.files).count == 2, "\(collected.files)")
        #expect(relative(collected.files).contains("ok.wsh"))
        #expect(relative(collected.files).contains { $0.hasSuffix("/failing.wsh") })
        #expect(relative(collected.unopened) == ["gone.wsh"])
    }

    /// With an earlier run's times: the longest first, each where the least time is so far; a
    /// file the report does not name weighs the median.
    @Test func slicesByDurationBalanceTheTime() throws {
        let files = ["a.wsh", "b.wsh", "c.wsh", "d.wsh", "e.wsh", "new.wsh"]
        let durations = ["a.wsh": 900.0, "b.wsh": 300, "c.wsh": 300, "d.wsh": 200, "e.wsh": 100].reduce(into: [String: Double]()) {
            $0[TestShard.key($1.key)] = $1.value
        }
        let first = try #require(TestShard("1/2")).select(files, durations: durations)
        let second = try #require(TestShard("2/2")).select(files, durations: durations)
        // a (900) | b, c, new (300 each, new by the median) = 900; then d (200) to the first on the
        // tie, e (100) to the second: 1100 against 1000.
        #expect(first == ["a.wsh", "d.wsh"])
        #expect(second == ["b.wsh", "c.wsh", "e.wsh", "new.wsh"])
    }

    @Test func durationsComeFromAJSONReport() throws {
        let report = #"{"files": [{"path": "t/a.wsh", "milliseconds": 12.5, "outcome": "passed"}, {"path": "t/b.wsh", "milliseconds": 3}]}"#
        let durations = try TestShard.durations(fromReport: Array(report.utf8))
        #expect(durations == [TestShard.key("t/a.wsh"): 12.5, TestShard.key("t/b.wsh"): 3])
        #expect(throws: CommandFailure.self) { try TestShard.durations(fromReport: Array("[1]".utf8)) }
        // A time that would put every file in one slice is refused, not used (tester's L8).
        for bad in ["-5000", "\"x\"", "1e308", "null"] {
            let text = #"{"files": [{"path": "t/a.wsh", "milliseconds": "# + bad + "}]}"
            #expect(throws: CommandFailure.self, "\(bad)") { try TestShard.durations(fromReport: Array(text.utf8)) }
        }
    }
}
