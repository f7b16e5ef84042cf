import Foundation
import Testing
import TestSupport

/// A server that answers an upload after reading only its head (a 401 or 413 for a body it will
/// not take, or an early 200), with an empty body and `Connection: close`, then closes: the answer
/// is shown at once, whatever the size of the body, as curl shows it.
@Suite struct EarlyAnswerUploadTests {
    private static let replies: [String: [UInt8]] = [
        "/401": RawReplyServer.response(status: "401 Unauthorized"),
        "/413": RawReplyServer.response(status: "413 Content Too Large"),
        "/200": RawReplyServer.response(status: "200 OK"),
        "/413-body": RawReplyServer.response(status: "413 Content Too Large", body: Array("too large".utf8)),
    ]

    /// 5 MB: past the 4 MB from which AsyncHTTPClient writes a body in pieces (2 MB always worked).
    @Test func anEarlyEmptyAnswerToALargeUploadIsShownAndTheCallEnds() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try Data(repeating: UInt8(ascii: "a"), count: 5_000_000).write(to: directory.appendingPathComponent("up.bin"))
        try await RawReplyServer.with(replies: Self.replies) { server in
            for (path, status) in [("/401", "401"), ("/413", "413"), ("/200", "200"), ("/413-body", "413")] {
                // The timeout only bounds a failure: the answer comes at once.
                let (result, _) = try await runScript(
                    "set timeout 5s\npost \(server.baseURL)\(path) @up.bin -h\n", directory: directory)
                #expect(result.stdout.hasPrefix("HTTP \(status) "), "\(path): \(result.stdout) \(result.stderr)")
                #expect(!result.stderr.contains("timed out"), "\(path): \(result.stderr)")
                #expect(!result.stderr.contains("closed the connection"), "\(path): \(result.stderr)")
            }
            // An early answer's body is kept too.
            let (body, _) = try await runScript("set timeout 5s\npost \(server.baseURL)/413-body @up.bin\n", directory: directory)
            #expect(body.stdout.contains("too large"), "\(body.stdout) \(body.stderr)")
        }
    }
}
