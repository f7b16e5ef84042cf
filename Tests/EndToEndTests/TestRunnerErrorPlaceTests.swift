import Foundation
import Testing

/// Where `wsh test` says a check that could not be evaluated failed: the console, TAP and JSON
/// name the error's place, where the caret is and where a plain run points, so that an editor or a
/// CI annotation jumping to `file:line:col` lands on it.
@Suite struct TestRunnerErrorPlaceTests {
    /// `expect .a == $undefinedvar`: the console said `e18.wsh:3:8` (the expression) with the caret
    /// under column 14 (the variable), which the JSON report and `wsh e18.wsh` named.
    @Test func anUnevaluableCheckIsPlacedWhereItsErrorIs() async throws {
        let directory = try TestRunnerTests.suite([
            "e18.wsh": "target j { base http://127.0.0.1:9; path /j; sample '{\"a\": 1}' }\ncall j\nexpect .a == $undefinedvar\n",
        ])
        let tests = directory.appendingPathComponent("tests")
        let result = try await WSHProcess.run(["test", "--stub", "e18.wsh", "--report-tap", "r.tap", "--report-json", "r.json"], directory: tests)
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("✗ e18.wsh:3:14 undefined variable 'undefinedvar'"), "\(result.stdout)")
        let tap = try String(contentsOf: tests.appendingPathComponent("r.tap"), encoding: .utf8)
        #expect(tap.contains("at: \"e18.wsh:3:14\""), "\(tap)")
        #expect(!tap.contains("3:8\""), "\(tap)")
        let plain = try await WSHProcess.run(["--stub", "e18.wsh"], directory: tests)
        #expect(plain.stderr.contains("e18.wsh:3:14: error: undefined variable"), "\(plain.stderr)")
    }

    /// A check that was evaluated and failed is still placed at its expression.
    @Test func aFailedCheckIsPlacedAtItsExpression() async throws {
        let directory = try TestRunnerTests.suite(["f.wsh": "target j { base http://127.0.0.1:9; path /j; sample '{\"a\": 1}' }\ncall j\nexpect .a == 5\n"])
        let result = try await WSHProcess.run(["test", "--stub", "f.wsh"], directory: directory.appendingPathComponent("tests"))
        #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("✗ f.wsh:3:8 expectation failed: .a == 5"), "\(result.stdout)")
    }
}
