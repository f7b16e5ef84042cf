import Foundation
import Testing
import TestSupport

/// `import curl '...'`: browser "Copy as cURL" commands become targets; calling the target sends
/// what running the curl command sends (both echoed by the loopback server and compared by meaning).
@Suite struct CurlImportTests {
    /// A curl command whose `BASE` is the server's URL, the target's name, and lines `show NAME` must print.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var command: String
        var target: String
        var declares: [String] = []
        var notes: [String] = []
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "Chrome: JSON POST with cookies, sec-ch-ua, a $'...' header and --compressed",
             command: #"""
                 curl 'BASE/echo/api/v1/search?q=caf%C3%A9&limit=10' \
                   -H 'accept: application/json, text/plain, */*' \
                   -H 'accept-language: en-US,en;q=0.9,ko;q=0.8' \
                   -H 'content-type: application/json' \
                   -H 'cookie: sid=abc123; theme=dark' \
                   -H 'sec-ch-ua: "Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"' \
                   -H $'x-note: it\'s \u00e9t\u00e9\ttabbed' \
                   --data-raw $'{"query":"caf\u00e9 \'quoted\'","page":1,"filters":{"open":true,"tags":["a","b"]}}' \
                   --compressed
                 """#,
             target: "search",
             declares: ["  path     /echo/api/v1/search", "  method   POST", "  query    q=café limit=10",
                        "  header   \"cookie:sid=abc123; theme=dark\"",
                        "  json     \"query=café 'quoted'\" page:=1 \"filters:={\\\"open\\\":true,\\\"tags\\\":[\\\"a\\\",\\\"b\\\"]}\""]),
        Case(name: "Firefox: form POST with Accept-Encoding, Cookie and a browser User-Agent",
             command: #"""
                 curl 'BASE/echo/login' -X POST -H 'User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0' -H 'Accept: text/html,application/xhtml+xml' -H 'Accept-Language: en-US,en;q=0.5' -H 'Accept-Encoding: gzip, deflate, br' -H 'Content-Type: application/x-www-form-urlencoded' -H 'Origin: BASE' -H 'Connection: keep-alive' -H 'Cookie: a=1; b=2' -H 'Upgrade-Insecure-Requests: 1' --data-raw 'user=ana&note=hello+world%21'
                 """#,
             target: "login",
             declares: ["  form     user=ana \"note=hello world!\""],
             notes: ["note: Accept-Encoding is left out"]),
        Case(name: "by hand: -G with --data-urlencode, -u, -A, -e, -b, attached -XGET, -sSL and -k",
             command: #"""
                 curl -sSLk -XGET -G "BASE/echo/find" --data-urlencode "q=a b&c" -d page=2 -u ana:s3cret -A 'wsh-test/1' -e https://ref.example/ -b 'k=v'
                 """#,
             target: "find",
             declares: ["  query    \"q=a b&c\" page=2", "  header   \"Authorization:Basic YW5hOnMzY3JldA==\""],
             notes: ["note: -k: a target does not turn off certificate checks"]),
        Case(name: "by hand: --json, a raw text body, and multipart with a file",
             command: #"""
                 curl --json '[1, 2, 3]' --url BASE/echo/numbers
                 """#,
             target: "numbers",
             declares: ["  body     \"[1, 2, 3]\"", "  header   Content-Type:application/json", "  header   Accept:application/json"]),
        Case(name: "files: --data-binary @FILE as body @FILE, -d @FILE without its line breaks",
             command: #"""
                 curl --data-binary @blob.bin -H 'Content-Type: application/octet-stream' BASE/echo/bin
                 """#,
             target: "bin",
             declares: ["  body     @/", "blob.bin\n", "  header   Content-Type:application/octet-stream"]),
        Case(name: "-d @FILE drops line breaks, and joins pieces with &",
             command: #"""
                 curl -d @notes.txt -d 'x=1' -H 'Content-Type: text/plain' BASE/echo/notes
                 """#,
             target: "notes",
             declares: ["  body     \"line oneline two&x=1\""]),
        Case(name: "multipart: a text part and a file part",
             command: #"""
                 curl -F 'title=two words' -F 'photo=@pixel.png' -F 'raw=@blob.bin;type=image/gif' BASE/echo/upload
                 """#,
             target: "upload",
             declares: ["  multipart \"title=two words\" photo@/", "blob.bin;type=image/gif"]),
        Case(name: "--oauth2-bearer is an Authorization: Bearer header",
             command: #"""
                 curl BASE/echo/bearer --oauth2-bearer ImpBr99tok
                 """#,
             target: "bearer",
             declares: ["  header   \"Authorization:Bearer ImpBr99tok\""]),
        Case(name: "-H Authorization wins over -u: one Authorization header, as curl sends",
             command: #"""
                 curl -H 'Authorization: Bearer HdTok99' BASE/echo/both -u u:DgPw99
                 """#,
             target: "both",
             declares: ["  header   \"Authorization:Bearer HdTok99\""],
             notes: ["note: -u and --oauth2-bearer are left out: the -H Authorization header is sent instead"]),
        Case(name: "--digest -u never becomes Basic: the password is not sent",
             command: #"""
                 curl BASE/echo/dg --digest -u u:DgPw99 --basic --digest
                 """#,
             target: "dg",
             notes: ["note: --digest -u is left out, never sent as Basic: plugin auth digest u:$password"]),
    ]

    /// `text` as a wsh "..." string, which main's lexer and the raw-string one read alike.
    static func wshString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "$", with: "\\$").replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    @Test(arguments: cases) func theTargetSendsWhatCurlSends(_ testCase: Case) async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00]).write(to: directory.appendingPathComponent("pixel.png"))
            try Data([0x00, 0xFF, 0x0A, 0x0D, 0x27]).write(to: directory.appendingPathComponent("blob.bin"))
            try Data("line one\r\nline two\n".utf8).write(to: directory.appendingPathComponent("notes.txt"))
            let command = testCase.command.replacingOccurrences(of: "BASE", with: server.baseURL)
            let script = "import curl \(Self.wshString(command))\nshow \(testCase.target)\ncall \(testCase.target)"
            let result = try await WSHProcess.run(["-c", script], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            for line in testCase.declares { #expect(result.stdout.contains(line), "\(line)\n\(result.stdout)") }
            for note in testCase.notes { #expect(result.stderr.contains(note), "\(result.stderr)") }
            guard let echoStart = result.stdout.range(of: "}\n{\"method\"") else {
                Issue.record("no echo after the declaration: \(result.stdout)")
                return
            }
            let viaTarget = try EchoedRequest(echo: String(result.stdout[result.stdout.index(after: echoStart.lowerBound)...]))
            // bash, as the browsers' "Copy as cURL (bash)": Chrome's $'...' is not POSIX sh.
            let viaCurl = try EchoedRequest(echo: try await runShell("cd '\(directory.path)' && " + command, shell: "/bin/bash").stdout)
            #expect(viaTarget.meaning == viaCurl.meaning)
            // And back: show --curl of the imported target sends it again.
            let shown = try await WSHProcess.run(["-c", "import curl \(Self.wshString(command))\nshow \(testCase.target) --curl"], directory: directory)
            let viaShown = try EchoedRequest(echo: try await runShell("cd '\(directory.path)' && " + shown.stdout).stdout)
            #expect(viaShown == viaTarget, "\(shown.stdout)")
        }
    }

    /// A command pasted as words after `import curl`: wsh's '...' strings are sh's, and a
    /// trailing backslash continues the line, so Firefox's command needs no quoting of its own.
    @Test func aCommandPastedAsWordsNeedsNoQuoting() async throws {
        try await withLoopbackServer { server in
            let command = """
                curl '\(server.baseURL)/echo/login?next=%2Fhome' -X POST \\
                  -H 'User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0' \\
                  -H 'Accept: text/html,application/xhtml+xml' -H 'Cookie: a=1; b="2"' -H 'X-Dollar: $HOME' \\
                  -H 'Content-Type: application/x-www-form-urlencoded' --data-raw 'user=ana&note=hello+world%21'
                """
            let script = "import curl \(command) as login\nshow login\ncall login\n"
            let (result, _) = try await runScript(script)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("  header   \"X-Dollar:\\$HOME\"\n"), "\(result.stdout)")
            guard let echoStart = result.stdout.range(of: "}\n{\"method\"") else {
                Issue.record("no echo after the declaration: \(result.stdout)")
                return
            }
            let viaTarget = try EchoedRequest(echo: String(result.stdout[result.stdout.index(after: echoStart.lowerBound)...]))
            let viaCurl = try EchoedRequest(echo: try await runShell(command).stdout)
            #expect(viaTarget.meaning == viaCurl.meaning)
        }
    }

    /// `-u ann:***` (a masked line wsh printed) makes the Authorization header one the call must
    /// give: it was sent as the Basic credential of `ann:***` (review 10 L3).
    @Test func aMaskedUserIsAHeaderTheCallGives() async throws {
        try await withLoopbackServer { server in
            let script = "import curl \"curl \(server.baseURL)/echo/me -u 'ann:***'\" as me\nshow me\ncall me Authorization:'Basic YW5uOnB3'\ncall me\n"
            let (result, _) = try await runScript(script)
            #expect(result.stdout.contains("  header   Authorization\n") && !result.stdout.contains("YW5uOioqKg"), "\(result.stdout)")
            #expect(result.stdout.contains("YW5uOnB3") && result.status != 0 && result.stderr.contains("Authorization"), "\(result.stdout)\(result.stderr)")
        }
    }

    @Test func theNameComesFromAsAndOptionsThatDoNotMapAreNamed() async throws {
        let script = """
            import curl "curl https://api.example.com/v2/users.json --proxy http://proxy:3128 --tlsv1.3 -o out.json" as people
            show people
            """
        let result = try await WSHProcess.run(["-c", script])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "target people {\n  base     https://api.example.com\n  path     /v2/users.json\n}\n")
        #expect(result.stderr.contains("note: --proxy has no equivalent in a target and is left out"))
        #expect(result.stderr.contains("note: --tlsv1.3 is not understood and is left out"))
        #expect(result.stderr.contains("note: -o has no equivalent in a target and is left out"))
        let named = try await WSHProcess.run(["-c", "import curl \"curl https://api.example.com/v2/users.json\"\ntargets"])
        #expect(named.stdout.hasPrefix("users  GET"), "\(named.stdout)")
    }

    @Test func aBrokenCommandIsAnErrorAtTheArgument() async throws {
        let result = try await WSHProcess.run(["-c", "import curl \"curl 'https://h/x\""])
        #expect(result.status == 3)
        #expect(result.stderr.contains("<command line>:1:13: error: cannot read the curl command: a ' quote is not closed"), "\(result.stderr)")
        let noURL = try await WSHProcess.run(["-c", "import curl \"curl -H 'A: b'\""])
        #expect(noURL.stderr.contains("error: cannot read the curl command: the command has no URL"), "\(noURL.stderr)")
        // The word after an option wsh does not know may be its value, perhaps a credential: it is
        // not the URL when another word is (`--frobnicate VALUE URL` took VALUE as the URL), and no
        // message names it (the line shown under an error is the one typed, -u's password masked).
        for command in ["curl https://h/x --aws-sigv4 aws:amz:us-east-1:s3 -u AKIA:Sk99", "curl --aws-sigv4 aws:amz:us-east-1:s3 https://h/x -u AKIA:Sk99"] {
            let taken = try await WSHProcess.run(["-c", "import curl \"\(command)\"\ntargets"])
            #expect(taken.status == 0 && taken.stdout.contains("GET     https://h/x"), "\(command): \(taken.stdout) \(taken.stderr)")
            #expect(taken.stderr.contains("note: the word after --aws-sigv4 is taken as its value and left out"), "\(taken.stderr)")
            #expect(!taken.stderr.contains("amz") && !taken.stdout.contains("amz") && !taken.stderr.contains("Sk99"), "\(taken.stderr)")
        }
        let unknown = try await WSHProcess.run(["-c", "import curl \"curl --aws-sigv4 aws:amz:us-east-1:s3 --frobnicate https://h/x -u AKIA:Sk99\""])
        #expect(unknown.stderr.contains("error: cannot read the curl command: cannot tell which word is the URL: each follows an option wsh does not understand (--aws-sigv4), and may be its value"),
                "\(unknown.stderr)")
        let message = unknown.stderr.split(separator: "\n").first ?? ""
        #expect(!message.contains("amz") && !unknown.stderr.contains("Sk99"), "\(unknown.stderr)")
    }
}
