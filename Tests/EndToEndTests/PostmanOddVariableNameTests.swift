import Foundation
import Testing
import TestSupport

/// newman's `slashed-variable-names` collection and environment (Tests/Files/postman): Postman
/// reads `{{fo/o}}` as the variable `fo/o`, which the environment gives as wsh's `$fo_o`.
@Suite struct PostmanOddVariableNameTests {
    @Test func aSlashedNameIsTheVariableTheEnvironmentGives() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try PostmanCollectionTests.copies([("https://postman-echo.com", httpbin.baseURL)])
            defer { ScratchDirectory.remove(directory) }
            let result = try await WSHProcess.run(["-c", """
                set env slashed-variable-names
                use postman slashed-variable-names.postman_collection.json as s
                set output quiet
                call s.Slashed-variable-names-test
                print .args.foo .args.bar
                """], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "alpha beta\n", "newman's test expects alpha and beta: \(result.stdout) \(result.stderr)")
        }
    }
}
