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
}
