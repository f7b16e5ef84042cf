import TestSupport
import Testing
@testable import WeatherShell

/// `$status`, `$url` and `$time` are the last answer's, in `echo`, strings and conditions, unless a
/// variable of that name is set (issue 35, item 15).
@Suite struct RunVariablesTests {
    @ShellActor private static func run(_ script: String) async -> (Halt?, String, String) {
        let shell = ShellHarness()
        let halt = await shell.run(script)
        return (halt, shell.stdout, shell.stderr)
    }

    @Test func theLastAnswersStatusURLAndTimeAreVariables() async throws {
        try await TestServer.with { server in
            let (halt, stdout, stderr) = await Self.run("""
                set output quiet
                get \(server.baseURL)/status/404?token=t0k
                echo "failed: $status at $url"
                if $status == 404 { echo typed }
                if $time >= 0 { echo timed }
                let status = mine
                echo $status
                """)
            #expect(halt == nil, "\(stderr)")
            #expect(stdout == "failed: 404 at \(server.baseURL)/status/404?token=***\ntyped\ntimed\nmine\n")
        }
    }

    @Test func beforeAnyAnswerTheyAreUndefined() async {
        let (halt, _, stderr) = await Self.run("echo $status")
        #expect(halt != nil)
        #expect(stderr.contains("undefined variable 'status'"), "\(stderr)")
    }
}
