import Foundation
import Testing
import TestSupport

/// newman's `bom-and-encoding` environment in UTF-16 LE with a byte order mark (Tests/Files/postman),
/// which newman reads: `set env` reads it, and `use postman` of it says it is an environment.
@Suite struct PostmanUTF16EnvironmentTests {
    @Test func aUTF16EnvironmentIsRead() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try PostmanCollectionTests.copies([("https://postman-echo.com", httpbin.baseURL)])
            defer { ScratchDirectory.remove(directory) }
            let environment = "utf16-le-encoding-in-env.postman_environment.json"
            let result = try await WSHProcess.run(["-c", """
                set env utf16-le-encoding-in-env
                use postman utf16-le-encoding-in-env.postman_collection.json as u
                set output quiet
                call u.A-simple-GET-request
                print .args.serviceHostName
                """], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "localhost\n", "\(result.stdout) \(result.stderr)")
            let used = try await WSHProcess.run(["-c", "use postman \(environment)"], directory: directory)
            #expect(used.stderr.contains("note:") && !used.stderr.contains("not JSON"), "\(used.stderr)")
        }
    }
}
