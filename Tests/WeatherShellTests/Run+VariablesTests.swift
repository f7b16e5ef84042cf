import Foundation
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

    /// A bare list nested deeper than JSON's 512 levels became a string without a word, so a
    /// check on its type gave another answer: an error at the literal that names the limit.
    @Test func aLiteralNestedPastTheJSONLimitIsAnError() async {
        func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        for statement in ["let x = \(nested(513))", "let x = \(nested(10_000))"] {
            let (halt, _, stderr) = await Self.run("echo before\n" + statement)
            guard case .failure(.runtime)? = halt else { Issue.record("\(statement.prefix(12)): \(String(describing: halt))"); continue }
            #expect(stderr.contains("<test>:2:"), "at the literal: \(stderr.prefix(300))")
            #expect(stderr.contains("error: a JSON value nested deeper than 512 levels"), "\(stderr.prefix(300))")
        }
        let (halt, stdout, stderr) = await Self.run("let x = \(nested(512))\nexpect $x isList\nprint $x | length\nlet q = \"\(nested(513))\"\nexpect $q isString")
        #expect(halt == nil, "\(stderr.prefix(300))")
        #expect(stdout == "1\n")
    }

    /// A bare list with a typo (`[1,2,]`) was the text "[1,2,]": `expect .l != [1,2,]` held on
    /// the list [1,2]. Each is an error at the literal; quoted, it is text.
    @Test(arguments: ["let x = [1,2,]", "let x = [1,,2]", "let x = [1,2", "let x = [1,2]]", "let l = [1,2]\nexpect $l != [1,2,]", "let x = [[1],[2]"])
    func aBareListOrObjectWithATypoIsAnError(statement: String) async {
        let (halt, _, stderr) = await Self.run(statement)
        guard case .failure(.runtime)? = halt else { Issue.record("\(statement): \(String(describing: halt))"); return }
        #expect(stderr.contains("is written as JSON but is not JSON"), "\(statement): \(stderr)")
    }

    @Test func aQuotedListWithATypoIsText() async {
        let (halt, stdout, stderr) = await Self.run("let x = '[1,2,]'\nexpect $x isString\nprint $x")
        #expect(halt == nil, "\(stderr)")
        #expect(stdout == "[1,2,]\n")
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

    /// A secret written as a URL's password is percent-encoded whole: one holding `#`, `@`, `/` or
    /// `%` is sent as Basic credentials as typed, where it cut the URL and an error showed a piece of it.
    @ShellActor @Test func aSecretAsAURLsPasswordIsSentWholeAndNeverShownInPart() async throws {
        let server = try await TestServer.start()
        for password in ["Abc#cd3fgh", "Bs@ss7:wd/%41", "Pq?rs&t=u v"] {
            let name = "WSH_URL_PW_\(UUID().uuidString.replacingOccurrences(of: "-", with: "_"))"
            EnvironmentOverlay.define(name, password)
            let shell = ShellHarness()
            let expected = "Basic " + Data("bob:\(password)".utf8).base64EncodedString()
            for call in ["get http://bob:$pw@127.0.0.1:\(server.port)/echo/b",
                         "target t { base http://bob:$pw@127.0.0.1:\(server.port); path /echo/t }\ncall t"] {
                let halt = await shell.run("set output quiet\nlet pw = env \(name)\n\(call)")
                #expect(halt == nil, "\(password): \(shell.stderr)")
                let sent = shell.run.lastResponse?.request
                #expect(sent?.header("Authorization") == expected, "\(password): \(String(describing: sent?.headers))")
                #expect(sent?.url.hasPrefix("http://127.0.0.1:\(server.port)/echo/") == true, "\(String(describing: sent?.url))")
            }
            #expect(!shell.stderr.contains("Abc") && !shell.stderr.contains("ss7"), "\(shell.stderr)")
        }
        try await server.shutdown()
    }
}
