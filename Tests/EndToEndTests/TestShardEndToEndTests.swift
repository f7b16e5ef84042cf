import Foundation
import Testing
import TestSupport

/// `wsh test --shard K/N`: the slices of a suite, run apart as a CI matrix would, give together
/// what the whole run gives: every file once, with the same results in the JUnit reports.
@Suite struct TestShardEndToEndTests {
    /// The lines of each file's `<testsuite>`, its test cases and failures, with times left out, sorted.
    static func suites(_ junit: String) -> [String] {
        junit.split(separator: "\n").filter { !$0.contains("testsuites") && !$0.contains("<?xml") }
            .map { $0.replacing(/\stime="[0-9.]+"/, with: "").replacing(/\stimestamp="[^"]*"/, with: "").trimmingCharacters(in: .whitespaces) }
            .sorted()
    }

    @Test func theSlicesTogetherAreTheWholeRun() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let tests = directory.appendingPathComponent("t")
        try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
        for number in 1...12 {
            // Every third file fails, so results are compared, not only names.
            let check = number % 3 == 0 ? "expect $n == 0" : "expect $n == \(number)"
            try "let n = \(number)\n\(check)\n".write(to: tests.appendingPathComponent(String(format: "f%02d.wsh", number)), atomically: true, encoding: .utf8)
        }
        let whole = try await WSHProcess.run(["test", "t", "--report-junit", "all.xml", "--report-json", "all.json"], directory: directory)
        #expect(whole.status == 4)
        var sliced: [String] = []
        for index in 1...3 {
            let shard = try await WSHProcess.run(["test", "t", "--shard", "\(index)/3", "--durations", "all.json", "--report-junit", "s\(index).xml"],
                                                 directory: directory)
            #expect(shard.stdout.hasPrefix("shard \(index)/3: "), "\(shard.stdout)")
            sliced += Self.suites(try String(contentsOf: directory.appendingPathComponent("s\(index).xml"), encoding: .utf8))
        }
        let all = Self.suites(try String(contentsOf: directory.appendingPathComponent("all.xml"), encoding: .utf8))
        #expect(all.filter { $0.hasPrefix("<testsuite ") }.count == 12)
        #expect(sliced.sorted() == all)
        let badShard = try await WSHProcess.run(["test", "t", "--shard", "3/2"], directory: directory)
        #expect(badShard.status == 1 && badShard.stderr.contains("--shard takes K/N"), "\(badShard.stderr)")
        // A negative K is read as the option's value, not taken for an option (tester's L12).
        let negative = try await WSHProcess.run(["test", "t", "--shard", "-1/3"], directory: directory)
        #expect(negative.status == 1 && negative.stderr.contains("--shard takes K/N"), "\(negative.stderr)")
        // A report made elsewhere names none of these files: said, not passed over (tester's L8).
        let inside = try await WSHProcess.run(["test", ".", "--shard", "1/3", "--durations", "../all.json"], directory: tests)
        #expect(inside.stderr.contains("note: --durations ../all.json names none of these 12 files"), "\(inside.stderr)")
        #expect(inside.stdout.hasPrefix("shard 1/3: 4 of 12 files"), "\(inside.stdout)")
    }
}
