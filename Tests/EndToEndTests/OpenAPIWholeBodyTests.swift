import Foundation
import Testing
import TestSupport

/// An OpenAPI operation whose required JSON body is no object of properties (the OpenAPI
/// Initiative's tic-tac-toe example, Tests/Files/openapi/SOURCES.md: `put-square` takes a `mark`,
/// a string) sends sample data of its shape as JSON, and a body the call gives in its place with
/// the same Content-Type; not an empty PUT with no Content-Type.
@Suite struct OpenAPIWholeBodyTests {
    static let files = HTTPBinServer.repository.appendingPathComponent("Tests/Files/openapi")

    @Test func aRequiredStringBodyIsSentAsJSON() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try FileManager.default.copyItem(at: Self.files.appendingPathComponent("tictactoe.yaml"),
                                             to: directory.appendingPathComponent("tictactoe.yaml"))
            try #""X""#.write(to: directory.appendingPathComponent("mark.json"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["-c", """
                use openapi tictactoe.yaml
                set base \(httpbin.baseURL)/anything
                set output quiet
                call put-square row=1 column=1
                print .method .url .json .headers.Content-Type
                call put-square row=1 column=1 @mark.json
                print .json .headers.Content-Type
                """], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "PUT \(httpbin.baseURL)/anything/board/1/1 . application/json", "the schema's example, '.': \(result.stdout)")
            #expect(lines.count > 1 && lines[1] == "X application/json", "\(result.stdout)")
        }
    }
}
