import Foundation
import Testing
import TestSupport

/// `wsh test`'s line for a file that stopped says why, as Hurl's does: the place, the message,
/// the source line and a caret, under the file's line, secrets masked. A CI log then tells why
/// without the reports.
@Suite struct TestRunnerStopTests {
    /// Nothing listens there: a port of this test's range that no test binds.
    static let closedPort = 48650

    @Test func theErrorThatStoppedAFileIsShownWithItsPlaceAndCaret() async throws {
        let refused = "http://127.0.0.1:\(Self.closedPort)/x?appid=s3cr3tvalue"
        let directory = try TestRunnerTests.suite([
            "parse.wsh": "let a = 1\nexpect ((1 ==\n",
            "unknown.wsh": "let a = 1\ncall nosuch\n",
            "refused.wsh": "get \(refused)\nexpect status == 200\n",
            "expect.wsh": "expect 1 == 2\nexpect 2 == 2\n",
            "bailoff.wsh": "set bail off\nexpect 1 == 2\ncall nosuch\nexpect 3 == 3\n",
        ])
        let result = try await WSHProcess.run(["test", "tests", "--jobs", "1"], directory: directory)
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("""
            ✗ tests/parse.wsh:2:8 '((1' is not a query
                expect ((1 ==
                       ^~~
            """), "\(out)")
        #expect(out.contains("""
            ✗ tests/unknown.wsh:2:6 unknown target 'nosuch'
                call nosuch
                     ^~~~~~
            """), "\(out)")
        #expect(out.contains("✗ tests/refused.wsh:1:5 could not connect to 127.0.0.1:\(Self.closedPort): connection refused\n    get http://127.0.0.1:\(Self.closedPort)/x?appid="),
                "\(out)")
        #expect(!out.contains("s3cr3tvalue"), "a secret in the source line is masked: \(out)")
        #expect(out.contains("""
            ✗ tests/expect.wsh:1:8 expectation failed: 1 == 2
                expect 1 == 2
            """), "\(out)")
        // With bail off the file ran on past its failed check; the error that made it errored is shown too.
        #expect(out.contains("""
            ✗ tests/bailoff.wsh:2:8 expectation failed: 1 == 2
                expect 1 == 2
            """), "\(out)")
        #expect(out.contains("""
            ✗ tests/bailoff.wsh:3:6 unknown target 'nosuch'
                call nosuch
                     ^~~~~~
            """), "\(out)")
        #expect(out.hasSuffix("0 passed, 1 failed, 4 errored\n"), "\(out)")
    }

    /// A secret cut by the 100-column window of a long line shows no part of itself: the whole
    /// line is masked before the window is cut, at its right edge and at its left.
    @Test func aSecretAtTheExcerptWindowsEdgeShowsNoPart() async throws {
        let secret = "flagsecretvalue"
        let b = String(repeating: "b", count: 75)
        let directory = try TestRunnerTests.suite([
            "straddle.wsh": "set bail off\nlet v = \"a\"\nexpect $v == \"\(b)\(secret) ccc\"\ncall nosuch\(String(repeating: " ", count: 80))\(secret)\n",
            "left.wsh": "expect \"\(secret)\" == $a $b \"\(String(repeating: "x", count: 90))\"\n",
            "short.wsh": "expect \"a\" == \"\(secret)\"\n",
        ])
        let result = try await WSHProcess.run(["test", "tests", "--jobs", "1", "--secret", "pw=\(secret)",
                                               "--report-json", "r.json", "--report-junit", "r.xml"], directory: directory)
        let json = try String(contentsOf: directory.appendingPathComponent("r.json"), encoding: .utf8)
        let junit = try String(contentsOf: directory.appendingPathComponent("r.xml"), encoding: .utf8)
        #expect(result.stdout.contains("✗ tests/straddle.wsh:3:8 "), "\(result.stdout)")
        #expect(result.stdout.contains("✗ tests/straddle.wsh:4:6 unknown target 'nosuch'"), "\(result.stdout)")
        #expect(result.stdout.contains("✗ tests/left.wsh:1:32 "), "\(result.stdout)")
        #expect(result.stdout.contains("✗ tests/short.wsh:1:8 expectation failed: \"a\" == \"***\"\n    expect \"a\" == \"***\"\n"), "\(result.stdout)")
        for (name, text) in [("stdout", result.stdout), ("stderr", result.stderr), ("JSON", json), ("JUnit", junit)] {
            let prefixes = (4...secret.count).map { String(secret.prefix($0)) }.filter(text.contains)
            let suffixes = (6...secret.count).map { String(secret.suffix($0)) }.filter(text.contains)
            #expect(prefixes.isEmpty && suffixes.isEmpty, "\(name) shows \(prefixes + suffixes): \(text)")
        }
    }

    /// 60 failed checks in a file: the first 10 in full, 50 listed, the rest counted.
    @Test func manyFailedChecksAreCutShort() async throws {
        let checks = (1...60).map { "expect \($0) == 0" }.joined(separator: "\n")
        let directory = try TestRunnerTests.suite(["many.wsh": "set bail off\n\(checks)\ncall nosuch\n"])
        let result = try await WSHProcess.run(["test", "tests"], directory: directory)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("✗ tests/many.wsh:") }.count == 51, "\(result.stdout)")
        #expect(lines.filter { $0.hasPrefix("    expect ") }.count == 10, "\(result.stdout)")
        #expect(lines.contains("    expect 10 == 0") && !lines.contains("    expect 11 == 0"), "\(result.stdout)")
        #expect(result.stdout.contains("✗ tests/many.wsh:51:8 expectation failed: 50 == 0\n… 10 more failed checks: "), "\(result.stdout)")
        // The error that stopped the file is shown in full after them.
        #expect(result.stdout.contains("✗ tests/many.wsh:62:6 unknown target 'nosuch'\n    call nosuch\n"), "\(result.stdout)")
        #expect(lines.count < 100, "\(result.stdout)")
    }
}
