import Foundation
import Testing
import TestSupport

/// Two `.http` files run at one prompt whose requests have no name (httpyac's requestBody
/// examples): the second's `request-1` is refused with advice that works, as `source` has no `as`.
@Suite struct SecondHTTPFileTests {
    @Test func theAdviceForASecondUnnamedRequestWorks() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try "POST \(httpbin.baseURL)/anything\n\nfoo=bar\n".write(to: directory.appendingPathComponent("a.http"), atomically: true, encoding: .utf8)
            try "POST \(httpbin.baseURL)/anything\nContent-Type: application/json\n\n{\"a\": 1}\n"
                .write(to: directory.appendingPathComponent("b.http"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["-c", "set output quiet\nsource a.http\nsource b.http"], directory: directory)
            #expect(result.stderr.contains("'request-1' is already declared (<http a.http>:1); forget it first, "
                                           + "or give the request a name of its own (# @name NAME)"), "\(result.stderr)")
            #expect(!result.stderr.contains("as PREFIX"), "source has no as: \(result.stderr)")
        }
    }
}
