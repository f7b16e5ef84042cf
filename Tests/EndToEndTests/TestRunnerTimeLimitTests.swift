import Foundation
import Testing
import TestSupport

/// `wsh test --timeout DURATION`: a server that never answers hung the run until CI's own limit.
/// A file that runs longer is ended and errored, "timed out after D", in the console and every
/// report, with where it stopped and the call in flight; the other files go on.
@Suite struct TestRunnerTimeLimitTests {
    /// The limit counts from the worker's start: 5 s, which a debug worker on a loaded machine
    /// starts well within, so that the quick file passes and the hanging one is at its call.
    @Test func aFileThatRunsLongerThanTheLimitIsErroredAndTheOthersGoOn() async throws {
        try await withLoopbackServer { server in
            let directory = try TestRunnerTests.suite([
                "a.wsh": "target never { base $base; path /never }\ncall never\n",
                "b.wsh": "target ok { base $base; path /status/200 }\ncall ok\nexpect status == 200\n",
            ])
            let result = try await WSHProcess.run(["test", "tests", "--jobs", "1", "--timeout", "5s", "--var", "base=\(server.baseURL)",
                                                   "--report-junit", "r.xml", "--report-json", "r.json", "--report-tap", "r.tap"],
                                                  directory: directory)
            #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
            let inFlight = "GET \(server.baseURL)/never"
            #expect(result.stdout.contains("✗ tests/a.wsh:2:1 timed out after 5s\n    note: the call in flight: \(inFlight)\n"), "\(result.stdout)")
            #expect(result.stdout.contains("✓ tests/b.wsh  1 check"), "\(result.stdout)")
            #expect(result.stdout.contains("1 passed, 0 failed, 1 errored\n") && !result.stdout.contains("interrupted"), "\(result.stdout)")
            let junit = try String(contentsOf: directory.appendingPathComponent("r.xml"), encoding: .utf8)
            #expect(junit.contains(#"<error message="timed out after 5s" type="timeout">tests/a.wsh:2:1: error: timed out after 5s"#), "\(junit)")
            let tap = try String(contentsOf: directory.appendingPathComponent("r.tap"), encoding: .utf8)
            #expect(tap.contains(#"message: "timed out after 5s""#) && tap.contains(#"outcome: "errored""#), "\(tap)")
            let files = try TestRunnerTests.reportedFiles(directory.appendingPathComponent("r.json"))
            let a = files.first { $0["path"] as? String == "tests/a.wsh" }
            #expect(a?["outcome"] as? String == "errored", "\(a ?? [:])")
            let error = (a?["errors"] as? [[String: Any]])?.last
            #expect(error?["kind"] as? String == "timeout" && error?["message"] as? String == "timed out after 5s" && error?["line"] as? Int == 2,
                    "\(a ?? [:])")
            #expect((a?["calls"] as? [[String: Any]])?.last?["failure"] as? String == "timed out after 5s", "\(a ?? [:])")
        }
    }

    /// A file that ends within the limit is not touched by it.
    @Test func aFileWithinTheLimitPasses() async throws {
        let directory = try TestRunnerTests.suite(["a.wsh": "echo hi\n"])
        let result = try await WSHProcess.run(["test", "tests", "--timeout", "1m"], directory: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    /// `--timeout -1s` and `--jobs -1` are values said wrong, not "Missing value" (the parser took
    /// `-1` for an option); a limit of nothing is refused too.
    @Test func aNegativeOrZeroValueIsSaidWrong() async throws {
        let directory = try TestRunnerTests.suite(["a.wsh": "echo hi\n"])
        for (arguments, said) in [(["--timeout", "-1s"], "--timeout takes a duration such as 30s or 5m"),
                                  (["--timeout", "0"], "--timeout takes a duration such as 30s or 5m"),
                                  (["--jobs", "-1"], "--jobs takes a number of 1 or more")] {
            let result = try await WSHProcess.run(["test", "tests"] + arguments, directory: directory)
            #expect(result.status == 1 && result.stderr.contains(said) && !result.stderr.contains("Missing value"), "\(arguments): \(result.stderr)")
        }
    }
}
