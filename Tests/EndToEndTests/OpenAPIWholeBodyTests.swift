import Foundation
import Testing
import TestSupport

/// An OpenAPI operation whose required JSON body is no object of properties (the OpenAPI
/// Initiative's tic-tac-toe example, Tests/Files/openapi/SOURCES.md: `put-square` takes a `mark`,
/// a string) is given whole by each call, `@FILE`, and sent with its JSON Content-Type; a call that
/// gives none is an error saying so: wsh sends no data of its own (the example "." would clear a
/// square), nor an empty PUT with no Content-Type. `help` says how to give it.
@Suite struct OpenAPIWholeBodyTests {
    static let files = HTTPBinServer.repository.appendingPathComponent("Tests/Files/openapi")

    @Test func aRequiredStringBodyIsGivenWholeByTheCall() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try FileManager.default.copyItem(at: Self.files.appendingPathComponent("tictactoe.yaml"),
                                             to: directory.appendingPathComponent("tictactoe.yaml"))
            try #""X""#.write(to: directory.appendingPathComponent("mark.json"), atomically: true, encoding: .utf8)
            let given = try await WSHProcess.run(["-c", """
                use openapi tictactoe.yaml
                set base \(httpbin.baseURL)/anything
                set output quiet
                call put-square row=1 column=1 @mark.json
                print .method .url .json .headers.Content-Type
                """], directory: directory)
            #expect(given.status == 0, "\(given.stderr)")
            #expect(given.stdout == "PUT \(httpbin.baseURL)/anything/board/1/1 X application/json\n", "\(given.stdout)")
            let missing = try await WSHProcess.run(["-c", """
                use openapi tictactoe.yaml
                set base \(httpbin.baseURL)/anything
                call put-square row=1 column=1
                print .method
                """], directory: directory)
            #expect(missing.status == 3 && missing.stdout.isEmpty, "nothing sent: \(missing.stdout) \(missing.stderr)")
            #expect(missing.stderr.contains("error: missing body for target 'put-square': its OpenAPI document requires one"), "\(missing.stderr)")
            #expect(missing.stderr.contains(#"note: give it whole from a file: call put-square @FILE (application/json, string); the document's example: ".""#),
                    "\(missing.stderr)")
            let help = try await WSHProcess.run(["-c", "use openapi tictactoe.yaml\nhelp put-square"], directory: directory)
            #expect(help.stdout.contains("body: required; give it whole from a file: call put-square @FILE"), "\(help.stdout)")
        }
    }
}
