import Foundation
import Testing

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
}
