import Foundation
import Testing
import TestSupport

/// `show NAME --curl` and `--httpie`: each printed command is run by /bin/sh with the real curl
/// (and HTTPie when installed) and must reach the echo route with the request `call` sends.
@Suite struct ShowCommandTests {
    static let token = "tok-9f8e7d6c5b4a"
    static let password = "pa55-w0rd-secret"
    /// A token that a URL holds only percent-encoded.
    static let encodedToken = "tok+9/8=e f"
    static let environment = ["WSH_CURL_TOKEN": token, "WSH_CURL_PASSWORD": password, "WSH_CURL_ODD": encodedToken]

    /// One target, one call's arguments, and what the printed command must (not) hold.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var declaration: String
        var arguments: String = ""
        var setup: String = ""
        var printedHolds: [String] = []
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "GET with query defaults, a call argument and headers",
             declaration: """
                 target t { base BASE; path /echo/items; query q=café lang=en page; header Accept:application/json; header "X-Empty:" }
                 """,
             arguments: "page=2 lang=\"a b&c\" X-Trace:\"it's here\""),
        Case(name: "a secret from env in a header and in the query, as a shell reference",
             declaration: """
                 let token = env WSH_CURL_TOKEN
                 target t { base BASE; path /echo/secret; query api_key=$token; header "Authorization:Bearer $token" }
                 """,
             printedHolds: ["$WSH_CURL_TOKEN"]),
        Case(name: "a JSON body with typed values and text that needs quoting",
             declaration: """
                 target t { base BASE; path /echo/json; method POST; json name n:=3 ok:=true tags:=[1,2.50] }
                 """,
             arguments: "name=\"O'Brien \\$HOME\\nline two \\\"q\\\" 서울\""),
        Case(name: "a url-encoded form",
             declaration: """
                 target t { base BASE; path /echo/form; method PUT; form user=ana "note=a+b & c=d" }
                 """),
        Case(name: "a raw text body with line breaks and no Content-Type",
             declaration: """
                 target t { base BASE; path /echo/raw; method PATCH; body "line one\\n\\tline two\\n" }
                 """,
             printedHolds: ["--data-raw", "Content-Type:"]),
        Case(name: "a binary body from a file, with NUL bytes",
             declaration: """
                 target t { base BASE; path /echo/file; method POST; body @blob.bin; header Content-Type:application/octet-stream }
                 """,
             printedHolds: ["--data-binary", "blob.bin"]),
        Case(name: "multipart with a text field and a file part",
             declaration: """
                 target t { base BASE; path /echo/upload; method POST; multipart title=hello photo@pixel.png }
                 """,
             arguments: "title=\"two words\"",
             printedHolds: ["--form-string", "-F", "pixel.png"]),
        Case(name: "call-time items: name==value, a key given twice, a repeated query key",
             declaration: """
                 target t { base BASE; path /echo/items; query tag=a tag=b page=1 }
                 """,
             arguments: "page=2 page=3 extra==\"x y\" \"q==a&b\""),
        Case(name: "a call-time @FILE body",
             declaration: """
                 target t { base BASE; path /echo/at; method PUT; json name=x }
                 """,
             arguments: "@blob.bin",
             printedHolds: ["--data-binary", "blob.bin"]),
        Case(name: "a multipart file chosen at call time with its own type",
             declaration: """
                 target t { base BASE; path /echo/upload2; method POST; multipart title=x photo@pixel.png }
                 """,
             arguments: "photo@blob.bin;type=image/gif",
             printedHolds: ["blob.bin", "type=image/gif"]),
        Case(name: "DELETE with a path parameter",
             declaration: """
                 target t { base BASE; path /echo/users/{id}; method DELETE }
                 """,
             arguments: "id=\"7 of 9\""),
        Case(name: "the session's user agent, redirect limit and HTTP/1.1",
             declaration: """
                 set user-agent "my-app/1.0"
                 set follow 5
                 set http 1.1
                 target t { base BASE; path /echo/settings }
                 """,
             printedHolds: ["my-app/1.0", "--max-redir"]),
        Case(name: "plugin auth bearer from an env variable",
             declaration: """
                 let token = env WSH_CURL_TOKEN
                 plugin auth bearer $token everywhere
                 target t { base BASE; path /echo/bearer }
                 """,
             printedHolds: ["$WSH_CURL_TOKEN"]),
        Case(name: "plugin auth basic whose password is an env variable, as -u",
             declaration: """
                 let password = env WSH_CURL_PASSWORD
                 plugin auth basic ana:$password everywhere
                 target t { base BASE; path /echo/basic }
                 """,
             printedHolds: ["$WSH_CURL_PASSWORD"]),
    ]

    static func script(_ testCase: Case, base: String, last: String) -> String {
        testCase.declaration.replacingOccurrences(of: "BASE", with: base) + "\n" + last
    }

    static func prepare(_ directory: URL) throws {
        try Data([0x00, 0x01, 0xFF, 0x0A, 0x27, 0x00, 0x22, 0x5C]).write(to: directory.appendingPathComponent("blob.bin"))
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00]).write(to: directory.appendingPathComponent("pixel.png"))
    }

    @Test(arguments: cases) func curlSendsWhatCallSends(_ testCase: Case) async throws {
        try await compare(testCase, tool: "--curl", holds: testCase.printedHolds)
    }

    @Test(.enabled(if: httpieProgram != nil, "HTTPie is not installed: scripts/ensure-httpie.sh installs it"), arguments: cases)
    func httpieSendsWhatCallSends(_ testCase: Case) async throws {
        try await compare(testCase, tool: "--httpie", holds: testCase.printedHolds.filter { !$0.hasPrefix("-") })
    }

    static let encodedQueryCase = Case(
        name: "a secret from env that the query holds percent-encoded, between other pairs",
        declaration: """
            let odd = env WSH_CURL_ODD
            target t { base BASE; path /echo/odd; query a=1 api_key=$odd "b=x y" c=3 }
            """,
        printedHolds: ["$WSH_CURL_ODD"])

    /// The query's encoded secret goes to the tool as an item it encodes itself (`--url-query`,
    /// HTTPie's `==`); the pairs after it follow in order. The tools encode a space and hex in
    /// their own spelling (`+`, `%2b`), so what the server read is compared.
    @Test func curlGivesAnEncodedQuerySecretAsAURLQueryItem() async throws {
        try await compare(Self.encodedQueryCase, tool: "--curl", holds: ["--url-query", "$WSH_CURL_ODD"], byMeaning: true)
    }

    @Test(.enabled(if: httpieProgram != nil, "HTTPie is not installed: scripts/ensure-httpie.sh installs it"))
    func httpieGivesAnEncodedQuerySecretAsAnItem() async throws {
        try await compare(Self.encodedQueryCase, tool: "--httpie", holds: ["\"api_key==$WSH_CURL_ODD\""], byMeaning: true)
    }

    @Test func anEncodedSecretOutsideTheQueryIsMaskedWithANoteNamingItsVariable() async throws {
        let script = "let odd = env WSH_CURL_ODD\ntarget t { base http://127.0.0.1:9; path /keys/{k} }\nshow t --curl k=$odd"
        let result = try await WSHProcess.run(["-c", script], environment: Self.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("/keys/***"), "\(result.stdout)")
        #expect(result.stderr.contains("note: $WSH_CURL_ODD is sent encoded here"), "\(result.stderr)")
        #expect(!result.stderr.contains("no environment variable behind it"), "\(result.stderr)")
    }

    private func compare(_ testCase: Case, tool: String, holds: [String], byMeaning: Bool = false) async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            try Self.prepare(directory)
            let call = try await WSHProcess.run(["-c", Self.script(testCase, base: server.baseURL, last: "call t \(testCase.arguments)")],
                                                environment: Self.environment, directory: directory)
            #expect(call.status == 0, "\(call.stderr)")
            let show = try await WSHProcess.run(["-c", Self.script(testCase, base: server.baseURL, last: "show t \(tool) \(testCase.arguments)")],
                                                environment: Self.environment, directory: directory)
            #expect(show.status == 0, "\(show.stderr)")
            for text in holds { #expect(show.stdout.contains(text), "\(show.stdout)") }
            #expect(!show.stdout.contains(Self.token) && !show.stdout.contains(Self.password), "\(show.stdout)")
            #expect(!show.stdout.contains("***") && show.stderr.isEmpty, "\(show.stdout)\n\(show.stderr)")
            #expect(!show.stdout.contains("9%2F8") && !show.stdout.contains(Self.encodedToken), "\(show.stdout)")
            var environment = Self.environment
            if let httpie = httpieProgram {
                environment["PATH"] = URL(fileURLWithPath: httpie).deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
            }
            let sent = try await runShell("cd '\(directory.path)' && " + show.stdout, environment: environment)
            #expect(sent.status == 0, "\(show.stdout)\n\(sent.stderr)")
            let viaCall = try EchoedRequest(echo: call.stdout)
            let viaCommand = try EchoedRequest(echo: sent.stdout)
            if byMeaning {
                #expect(viaCall.meaning == viaCommand.meaning, "\(show.stdout)\n\(viaCall)\n\(viaCommand)")
            } else {
                #expect(viaCall == viaCommand, "\(show.stdout)")
            }
        }
    }

    @Test func aMissingRequiredParameterIsAnErrorWithACaret() async throws {
        let script = "target t { base http://127.0.0.1:9; path /x; query city }\nshow t --curl"
        let result = try await WSHProcess.run(["-c", script])
        #expect(result.status == 3)
        #expect(result.stderr.contains("<command line>:2:6: error: missing parameter 'city' for target 't'"), "\(result.stderr)")
        #expect(result.stderr.contains("   show t --curl\n        ^"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func theToolsFlagMayComeAfterTheArguments() async throws {
        let declare = "target j { base http://127.0.0.1:9; path /items/{id}; query q }\n"
        let first = try await WSHProcess.run(["-c", declare + "show j --curl id=7 q=a"])
        let last = try await WSHProcess.run(["-c", declare + "show j id=7 q=a --curl"])
        let between = try await WSHProcess.run(["-c", declare + "show j id=7 --httpie q=a"])
        #expect(first.status == 0 && last.status == 0 && between.status == 0, "\(last.stderr)\(between.stderr)")
        #expect(first.stdout.contains("http://127.0.0.1:9/items/7?q=a"), "\(first.stdout)")
        #expect(last.stdout == first.stdout)
        #expect(between.stdout.hasPrefix("http "), "\(between.stdout)")
        #expect(between.stdout.contains("http://127.0.0.1:9/items/7?q=a"), "\(between.stdout)")
    }

    @Test func aSecretWithNoEnvironmentVariableIsMaskedWithANote() async throws {
        let script = "plugin auth bearer literal-credential-123 everywhere\ntarget t { base http://127.0.0.1:9; path /x }\nshow t --curl"
        let result = try await WSHProcess.run(["-c", script])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Authorization: Bearer ***"), "\(result.stdout)")
        #expect(!result.stdout.contains("literal-credential-123"))
        #expect(result.stderr.contains("note: a secret with no environment variable"), "\(result.stderr)")
    }
}
