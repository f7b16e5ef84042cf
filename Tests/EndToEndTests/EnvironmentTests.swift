import Foundation
import Testing
import TestSupport

/// `env NAME` reads the environment wsh was started with. Each test hands wsh its own environment,
/// so no test changes the environment of the test process, which runs tests in parallel.
@Suite struct EnvironmentTests {
    static let secret = "s3cr3t-value"

    @Test func envVariablesAreSecretsEverywhereTheyAreShown() async throws {
        let result = try await WSHProcess.run(["-"], stdin: """
        let key = env WSH_TEST_SECRET
        let derived = "prefix-$key"
        vars
        echo $key
        echo $derived $nope

        """, environment: ["WSH_TEST_SECRET": Self.secret])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(!result.stdout.contains(Self.secret))
        #expect(!result.stderr.contains(Self.secret))
        #expect(result.stdout.contains("key = ***  (env WSH_TEST_SECRET)"))
        #expect(result.stdout.contains("derived = ***"))
        #expect(result.stderr.contains("<stdin>:5:15: error: undefined variable 'nope'"), "\(result.stderr)")
    }

    /// A base URL from the environment is a secret by default, so URLs show it as `***`: the first
    /// call says so once, and how to say it is not one; `public` does (issue 35, item 14).
    @Test func anEnvValueInAURLIsNotedOnceAndPublicShowsIt() async throws {
        try await withLoopbackServer { server in
            let secret = try await WSHProcess.run(["-c", """
                let base = env API_BASE
                get $base/echo > /dev/null
                get $base/echo > /dev/null
                print url
                """], environment: ["API_BASE": server.baseURL])
            #expect(secret.status == 0, "\(secret.stderr)")
            #expect(secret.stdout == "***/echo\n")
            let note = "wsh: note: URLs show $base as *** (a value from env is a secret); if API_BASE is no secret: let base = env API_BASE public\n"
            #expect(secret.stderr == note)
            let open = try await WSHProcess.run(["-c", """
                let base = env API_BASE public
                let fallback = env NOT_SET or "http://127.0.0.1:1" public
                get $base/echo > /dev/null
                print url
                vars
                """], environment: ["API_BASE": server.baseURL])
            #expect(open.status == 0, "\(open.stderr)")
            #expect(open.stderr == "")
            #expect(open.stdout == "\(server.baseURL)/echo\nbase = \(server.baseURL)\nfallback = http://127.0.0.1:1\n")
        }
    }
}
