import Foundation
import Testing
import TestSupport

/// A value `env NAME` reads is a secret in `wsh test`'s lines and reports even where it shows
/// before the `let … = env NAME` line that makes it one, and in a file that never runs because it
/// does not parse: each file's records are masked again when it ends.
@Suite struct LateSecretTests {
    static let secret = "RjTgHdFsYuIoPw"
    /// Given with `--var key=...`: it stands in for `let key = env NAME`, a secret from that line on.
    static let given = "QwErTyUiOpAsDf"

    @Test func anEnvValueShownBeforeItsLetOrInAFileThatDoesNotParseIsMasked() async throws {
        try await withLoopbackServer { server in
            let b = String(repeating: "b", count: 75)
            let directory = try TestRunnerTests.suite([
                "late.wsh": """
                    set bail off
                    get \(server.baseURL)/status/200?q=\(Self.secret)
                    expect "a" == "\(Self.secret)"
                    expect "a" == "\(b)\(Self.secret) ccc"
                    let k = env REVIEW_KEY
                    call t

                    """,
                "parse.wsh": "let k = env REVIEW_KEY\nexpect \"a\" == \"\(Self.secret)\" ((\n",
                // Known only once the file ends: the name comes from a variable, the value from --var.
                "named.wsh": """
                    set bail off
                    let n = "REVIEW"
                    expect "a" == "\(b)\(Self.secret) ccc"
                    expect "a" == "\(Self.given)"
                    let k = env ${n}_KEY
                    let key = env UNSET_KEY_OF_THIS_TEST
                    call t

                    """,
            ])
            let result = try await WSHProcess.run(
                ["test", "tests", "--jobs", "1", "--var", "key=\(Self.given)", "--report-junit", "out/junit.xml", "--report-tap", "out/report.tap",
                 "--report-json", "out/report.json", "--report-html", "out/html", "--report-har", "out/report.har"],
                environment: ["REVIEW_KEY": Self.secret], directory: directory)
            #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("✗ tests/late.wsh:3:8 expectation failed: \"a\" == \"***\"\n    expect \"a\" == \"***\"\n"), "\(result.stdout)")
            #expect(result.stdout.contains("✗ tests/late.wsh:6:6 unknown target 't'"), "\(result.stdout)")
            #expect(result.stdout.contains("✗ tests/parse.wsh:2:"), "\(result.stdout)")
            var texts = [("stdout", result.stdout), ("stderr", result.stderr)]
            for name in ["junit.xml", "report.tap", "report.json", "html/index.html", "report.har"] {
                texts.append((name, try String(contentsOf: directory.appendingPathComponent("out/" + name), encoding: .utf8)))
            }
            #expect(result.stdout.contains("✗ tests/named.wsh:4:8 expectation failed: \"a\" == \"***\"\n    expect \"a\" == \"***\"\n"), "\(result.stdout)")
            let pieces = [Self.secret, Self.given].flatMap { secret in
                let characters = Array(secret)
                return (0...(characters.count - 4)).map { String(characters[$0..<($0 + 4)]) }
            }
            for (name, text) in texts {
                let shown = pieces.filter(text.contains)
                #expect(shown.isEmpty, "\(name) shows \(shown): \(text)")
            }
        }
    }
}
