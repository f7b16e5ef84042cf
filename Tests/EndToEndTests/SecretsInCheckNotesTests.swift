import Foundation
import Testing
import TestSupport

/// A failed check's `expected:`/`actual:` notes mask a secret as the report masks the call's body
/// and headers: on screen and in the JUnit, TAP, JSON and HTML reports of `wsh test`. Each test
/// is a case a tester found shown in full.
@Suite struct SecretsInCheckNotesTests {
    /// Runs `script` as the one file of a `wsh test` with every report; the screen and each report's text.
    static func texts(_ script: String, environment: [String: String] = [:], arguments: [String] = []) async throws -> [(name: String, text: String)] {
        let directory = try TestRunnerTests.suite(["notes.wsh": script])
        let result = try await WSHProcess.run(
            ["test", "tests", "--report-junit", "out/junit.xml", "--report-tap", "out/report.tap",
             "--report-json", "out/report.json", "--report-html", "out/html", "--report-har", "out/report.har"] + arguments,
            environment: environment, directory: directory)
        #expect(result.status == 4, "the checks fail: \(result.stdout)\(result.stderr)")
        var texts = [(name: "stdout", text: result.stdout), (name: "stderr", text: result.stderr)]
        for name in ["junit.xml", "report.tap", "report.json", "html/index.html", "report.har"] {
            texts.append((name, try String(contentsOf: directory.appendingPathComponent("out/" + name), encoding: .utf8)))
        }
        return texts
    }

    /// Expects no text to show `secret` in any form ``SecretLeakCheck`` knows.
    static func expectNoLeak(of secrets: [String], in texts: [(name: String, text: String)]) {
        for secret in secrets {
            let check = SecretLeakCheck(secret: secret, basicUser: "nobody")
            for (name, text) in texts {
                let leaks = check.leaks(in: text)
                #expect(leaks.isEmpty, "\(name) shows \(secret) as \(leaks): \(text)")
            }
        }
    }

    static let token = "eyJhbGciOiJIUzI1NiJ9.secretpayload"
    static let password = "hunter2hunter2"
    static let apiKey = "key-ABCDEF-987654"
    static let headerToken = "xtok-1234567890"

    /// A login's answer: its `access_token` and `password` members are `***` in the report's body,
    /// and in every failed check's notes that shows them; so are headers named like secrets.
    @Test func aLoginsTokenAndSecretHeadersAreMaskedInFailedChecks() async throws {
        let login = StaticRoute(status: 200, headers: [("Content-Type", "application/json"), ("X-Api-Key", Self.apiKey), ("X-Token", Self.headerToken)],
                                body: Array(#"{"access_token":"\#(Self.token)","user":{"password":"\#(Self.password)"},"token_type":"bearer"}"#.utf8))
        try await withLoopbackServer(routes: ["/login": login]) { server in
            let script = """
                set bail off
                set output quiet
                get \(server.baseURL)/login
                expect .access_token startsWith "v2"
                expect .user.password == "x"
                expect .user == "x"
                expect . contains "zzz"
                expect body contains "zzz"
                let t = .access_token
                expect $t == "x"
                expect header X-Api-Key startsWith "v2-"
                print header X-Token

                """
            let texts = try await Self.texts(script)
            Self.expectNoLeak(of: [Self.token, Self.password, Self.apiKey, Self.headerToken], in: texts)
            let screen = texts[0].text + texts[1].text
            #expect(screen.contains(#"actual:   {"password":"***"} (object)"#), "the rest of the value shows: \(screen)")
        }
    }

    static let cookies = StaticRoute(status: 200, headers: [("Content-Type", "application/json"), ("Set-Cookie", "token=s3cretvalue123; Path=/"),
                                                            ("Set-Cookie", "session=abcdefghij123; HttpOnly"), ("Set-Cookie", "lang=en; Path=/")],
                                     body: Array(#"{"ok":true}"#.utf8))

    /// A `Set-Cookie` line shows its cookies named like secrets as `***`, as `cookie token` does,
    /// and its other cookies and attributes as they are.
    @Test func secretCookiesInASetCookieHeaderAreMasked() async throws {
        try await withLoopbackServer(routes: ["/setck": Self.cookies]) { server in
            let script = """
                set bail off
                set output quiet
                get \(server.baseURL)/setck
                expect header Set-Cookie contains "lang=fr"
                expect headers Set-Cookie contains "lang=fr"
                print header Set-Cookie

                """
            let texts = try await Self.texts(script)
            Self.expectNoLeak(of: ["s3cretvalue123", "abcdefghij123"], in: texts)
            let screen = texts[0].text + texts[1].text
            #expect(screen.contains("token=***; Path=/, session=***; HttpOnly, lang=en; Path=/"), "\(screen)")
        }
    }

    static let foldedCookies = StaticRoute(status: 200, headers: [("Content-Type", "application/json"),
                                                                  ("Set-Cookie", "theme=dark, jwt=foldedsecret1; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT")],
                                           body: Array(#"{"ok":true}"#.utf8))

    /// `-h`, `-v` and the logger show a `Set-Cookie` line's cookie names and attributes, what a user
    /// reads them for, every cookie's value `***`: also a session cookie no list of names knows
    /// (`jwt`), and the second of two cookies folded into one line.
    @Test func headersShownKeepACookiesAttributesAndMaskItsValue() async throws {
        try await withLoopbackServer(routes: ["/setck": Self.cookies, "/folded": Self.foldedCookies]) { server in
            let home = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(home) }
            let script = """
                get \(server.baseURL)/setck -h
                get \(server.baseURL)/folded -h
                plugin logger on verbose
                get \(server.baseURL)/setck -v
                get \(server.baseURL)/folded -v
                """
            let result = try await WSHProcess.run(["-c", script], environment: ["HOME": home.path])
            #expect(result.status == 0, "\(result.stderr)")
            let shown = result.stdout + result.stderr
            Self.expectNoLeak(of: ["s3cretvalue123", "abcdefghij123", "foldedsecret1"], in: [("output", shown)])
            for line in ["Set-Cookie: token=***; Path=/", "Set-Cookie: session=***; HttpOnly", "Set-Cookie: lang=***; Path=/",
                         "Set-Cookie: theme=***, jwt=***; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT"] {
                // -h, -v and the logger's lines.
                #expect(shown.components(separatedBy: line).count >= 4, "\(line) in: \(shown)")
            }
        }
    }

    /// A filter on a cookie named like a secret shows what it made of the value: a number as it is
    /// (`| length`), a string `***`; never the filter applied to `***`.
    @Test func aFilteredSecretCookieShowsTheTrueNumberAndMasksStrings() async throws {
        try await withLoopbackServer(routes: ["/setck": Self.cookies]) { server in
            let script = """
                set bail off
                set output quiet
                get \(server.baseURL)/setck
                expect cookie token | length == 3
                expect cookie token | sha256 == "x"
                expect cookie token | upper == "x"

                """
            let texts = try await Self.texts(script)
            // sha256 of `***`, of the value, and the value upper-cased.
            let made = ["596f4162", "67b6c417", "S3CRETVALUE123"]
            for (name, text) in texts {
                for form in made { #expect(!text.contains(form), "\(name) shows \(form): \(text)") }
            }
            let screen = texts[0].text + texts[1].text
            #expect(screen.contains("actual:   14 (number)"), "\(screen)")
            #expect(!screen.contains("actual:   3 (number)"), "\(screen)")
            #expect(screen.contains(#"actual:   "***" (string)"#), "\(screen)")
        }
    }

    /// A secret holding `"` or `\` a filter cut out of the raw JSON text (`Zebra\"Horse42`) is not
    /// escaped a second time before it is masked: the note showed `"Zebra\\\"Horse42"`.
    @Test(arguments: [#"Zebra"Horse42"#, #"Zebra\Horse42"#])
    func aSecretWithAQuoteOrBackslashIsMaskedInNotes(secret: String) async throws {
        // The answer holds the secret JSON-escaped once, as a server echoing it writes it.
        let escaped = secret.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let answer = StaticRoute(body: #"{"body":"pre <\#(escaped)> post"}"#)
        try await withLoopbackServer(routes: ["/quoted": answer]) { server in
            let script = """
                set bail off
                set output quiet
                let tok = env WSH_NOTE_SECRET
                get \(server.baseURL)/quoted
                expect body | split "<" | last | split ">" | first == "x"
                expect body | regex "<(.*)>" == "x"
                expect body | split " " == "x"

                """
            let texts = try await Self.texts(script, environment: ["WSH_NOTE_SECRET": secret])
            for (name, text) in texts { #expect(!text.contains("Horse42"), "\(name): \(text)") }
        }
    }

    /// A string a filter made from a secret is masked whole, even when a part of it (a part
    /// `split` made earlier, a group `regex` took) is a secret already: the notes showed
    /// `"alpha bravo *** delta"` and `"ebra-***-4"`.
    @Test func aStringMadeFromASecretIsMaskedWholeAfterItsPartsWere() async throws {
        try await withLoopbackServer { server in
            let script = """
                set bail off
                set output quiet
                let a = env WSH_SPLIT_SECRET
                let b = env WSH_REGEX_SECRET
                get \(server.baseURL)/echo?x=$a
                let parts = .query | split "-"
                expect .query | replace "-" " " == "nope"
                get \(server.baseURL)/echo?x=$b
                expect body | regex "-([A-Za-z]+-[A-Za-z]+)-" == "nope"
                expect .query | regex "^..(.*).$" == "nope"

                """
            let texts = try await Self.texts(script, environment: ["WSH_SPLIT_SECRET": "alpha-bravo-charlie-delta",
                                                                   "WSH_REGEX_SECRET": "Zebra-Horse-Banana-42"])
            for (name, text) in texts {
                for part in ["bravo", "delta", "ebra"] { #expect(!text.contains(part), "\(name) shows \(part): \(text)") }
            }
        }
    }

    /// An `env` secret the answer holds JSON-escaped is masked in every report as the call history
    /// masks it: System.Text.Json (ASP.NET Core) writes `+` as `\u002B`, and any encoder may escape
    /// a letter (`\u0061`); reports masked the body's text, where neither form is the secret's.
    @Test func aSecretTheAnswerHoldsJSONEscapedIsMaskedInEveryReport() async throws {
        let answer = StaticRoute(body: #"{"echo":"AbC\u002BdEf/GhI=","u":"\u0061b/cd1234x","ok":true}"#)
        try await withLoopbackServer(routes: ["/escaped": answer]) { server in
            let script = """
                set bail off
                set output quiet
                let k = env WSH_PLUS_SECRET
                let k2 = env WSH_LETTER_SECRET
                get \(server.baseURL)/escaped
                expect body == "x"
                expect . == "x"
                expect .ok == false

                """
            let texts = try await Self.texts(script, environment: ["WSH_PLUS_SECRET": "AbC+dEf/GhI=", "WSH_LETTER_SECRET": "ab/cd1234x"])
            Self.expectNoLeak(of: ["AbC+dEf/GhI=", "ab/cd1234x"], in: texts)
            let screen = texts[0].text + texts[1].text
            #expect(screen.contains(#"actual:   "{\"echo\":\"***\",\"u\":\"***\",\"ok\":true}" (string)"#), "the rest of the body is kept: \(screen)")
        }
    }

    /// A body httpbin echoes as a JSON string (`data`) holds a secret with a `"` escaped twice
    /// (`pa\\\"ss`): the reports showed it, the call history masked it. The body keeps the
    /// server's indentation: only the literals holding the secret change.
    @Test func aSecretWithAQuoteHttpbinEchoesIsMaskedInEveryReport() async throws {
        try await HTTPBinServer.with { httpbin in
            let script = """
                set bail off
                set output quiet
                let k = env WSH_QUOTE_SECRET
                post \(httpbin.baseURL)/post name=$k count:=12
                expect status == 500
                expect body == "x"

                """
            let texts = try await Self.texts(script, environment: ["WSH_QUOTE_SECRET": #"pa"ss12345"#])
            Self.expectNoLeak(of: [#"pa"ss12345"#], in: texts)
            for (name, text) in texts { #expect(!text.contains("ss12345"), "\(name): \(text)") }
            let report = try #require(texts.first { $0.name == "report.json" }?.text)
            let calls = try #require((try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any]).flatMap {
                (($0["files"] as? [[String: Any]])?.first?["calls"] as? [[String: Any]]) })
            let body = try #require(calls.first?["body"] as? String)
            #expect(body.contains(#"  "data": "{\"name\": \"***\", \"count\": 12}","#) || body.contains(#"  "data": "{\"name\":\"***\",\"count\":12}","#),
                    "the body as httpbin indented it, the number a number: \(body)")
        }
    }

    /// A failed check on a string holding JSON with no secret shows it as the server sent it:
    /// members named like secrets (`tokens_used`, `sessions`, `keyboard`) keep their values, and
    /// the body its indentation (review 9 H3).
    @Test func aBodyHoldingNoSecretShowsAsSentInNotes() async throws {
        try await HTTPBinServer.with { httpbin in
            let script = """
                set bail off
                let k = env WSH_UNUSED_SECRET
                post \(httpbin.baseURL)/anything tokens_used:=15 sessions:=2 keyboard=azerty
                expect body contains "tokens_used\\": 16"
                expect .data == "x"

                """
            let texts = try await Self.texts(script, environment: ["WSH_UNUSED_SECRET": "unusedSecret777"])
            let screen = texts[0].text + texts[1].text
            #expect(screen.contains(#"actual:   "{\"tokens_used\": 15, \"sessions\": 2, \"keyboard\": \"azerty\"}" (string)"#)
                    || screen.contains(#"actual:   "{\"tokens_used\":15,\"sessions\":2,\"keyboard\":\"azerty\"}" (string)"#), "\(screen)")
            #expect(screen.contains(#"actual:   "{\n  \"args\": {}, \n"#) || screen.contains(#"actual:   "{\n  \"args\": {},\n"#), "indented as sent: \(screen)")
        }
    }

    /// A credential the answer gives as a list (`"token": ["..."]`) or as an object under a
    /// password's name (`"password": {"old": "..."}`) is masked by value in a failed check's notes
    /// and by `print`, as the member is in the report's body (test-runner D21).
    @Test func aCredentialGivenAsAListOrAPasswordObjectIsMaskedInNotesAndPrint() async throws {
        let answer = StaticRoute(body: #"{"token":["srvArr8181"],"password":{"old":"srvPw8282"},"api_key":12345678}"#)
        try await withLoopbackServer(routes: ["/creds": answer]) { server in
            let script = """
                set bail off
                get \(server.baseURL)/creds
                expect body == "x"
                expect .token == "x"
                expect .password.old == "x"
                print .token
                print .password

                """
            let texts = try await Self.texts(script)
            Self.expectNoLeak(of: ["srvArr8181", "srvPw8282", "12345678"], in: texts)
        }
    }

    /// A secret sent as a list (`password[]=...`, sent as `{"password":["..."]}`) is masked where
    /// httpbin echoes the body it was sent as text (`data`): in every report, and in the call
    /// history (test-runner D5).
    @Test func aSecretSentAsAListIsMaskedWhereTheServerEchoesIt() async throws {
        try await HTTPBinServer.with { httpbin in
            let script = """
                set bail off
                set output quiet
                post \(httpbin.baseURL)/post password[]=pz1313xy
                expect status == 500
                expect body == "x"

                """
            let texts = try await Self.texts(script)
            Self.expectNoLeak(of: ["pz1313xy"], in: texts)
            let state = try WSHProcess.temporaryDirectory()
            let result = try await WSHProcess.run(["-c", "post \(httpbin.baseURL)/post password[]=pa1111xy\nprint .data"],
                                                  environment: ["XDG_STATE_HOME": state.path])
            #expect(result.stdout.contains(#"{"password":["***"]}"#), "httpbin echoed the list: \(result.stdout)")
            let database = CallHistoryEndToEndTests.databaseText(state)
            #expect(database.contains("password"), "the call is in the history")
            #expect(!database.contains("pa1111xy"), "the history holds the secret: \(database)")
        }
    }

    /// An object under a credential's name that is no password (`session`, `token`) is about the
    /// credential (its user, its lifetime, its scopes): its values are no secrets, so the same
    /// values elsewhere in the answer show (review 9 H4).
    @Test func anObjectUnderACredentialsNameLeavesItsMetadataShown() async throws {
        try await HTTPBinServer.with { httpbin in
            let script = """
                set bail off
                post \(httpbin.baseURL)/anything session:='{"user":"alice","expires_in":3600}' owner=alice n:=3600 token:='{"scopes":["read","write"]}' tokens_used:=15
                expect .json.owner == "bob"
                expect .json.n == 1
                expect .json.tokens_used == 16
                expect .json.token.scopes == "x"

                """
            let texts = try await Self.texts(script)
            let screen = texts[0].text + texts[1].text
            #expect(screen.contains(#"actual:   "alice" (string)"#), "\(screen)")
            #expect(screen.contains("actual:   3600 (number)"), "\(screen)")
            #expect(screen.contains("actual:   15 (number)"), "\(screen)")
            #expect(screen.contains(#"actual:   ["read","write"]"#), "\(screen)")
        }
    }

    /// The proxy's credentials (`set proxy http://user:pass@...`), sent as Proxy-Authorization by
    /// the transport, are masked where the answer echoes that header, also once the proxy is set
    /// off: they go with the call (test-runner D15, review 9 H2). httpbin, sent the request in
    /// absolute form as a forwarding proxy would pass it on, echoes `Basic BASE64`.
    @Test func proxyCredentialsAnAnswerEchoesAreMaskedInEveryReport() async throws {
        try await HTTPBinServer.with { httpbin in
            let script = """
                set bail off
                set output quiet
                set proxy http://pu:proxyPass4646@127.0.0.1:\(httpbin.port)
                get http://a.example.test/headers
                set proxy off
                expect .headers.Proxy-Authorization == "x"
                expect body == "x"
                print .headers

                """
            let texts = try await Self.texts(script)
            Self.expectNoLeak(of: ["proxyPass4646"], in: texts)
            let screen = texts[0].text + texts[1].text
            #expect(screen.contains("Basic ***"), "httpbin echoed the header: \(screen)")
        }
    }

    /// `HTTP_PROXY`'s credentials are masked so too, in `print` and in the call history.
    @Test func environmentProxyCredentialsAreMaskedInPrintAndTheHistory() async throws {
        try await HTTPBinServer.with { httpbin in
            let state = try WSHProcess.temporaryDirectory()
            let result = try await WSHProcess.run(
                ["-c", "set output quiet\nget http://a.example.test/headers\nprint .headers.Proxy-Authorization"],
                environment: ["XDG_STATE_HOME": state.path, "HTTP_PROXY": "http://pu:proxyPass4747@127.0.0.1:\(httpbin.port)",
                              "http_proxy": "http://pu:proxyPass4747@127.0.0.1:\(httpbin.port)", "NO_PROXY": "", "no_proxy": ""])
            #expect(result.stdout.contains("Basic ***"), "httpbin echoed the header: \(result.stdout)\(result.stderr)")
            let check = SecretLeakCheck(secret: "proxyPass4747", basicUser: "pu")
            #expect(check.leaks(in: result.stdout + result.stderr).isEmpty, "\(result.stdout)")
            let database = CallHistoryEndToEndTests.databaseText(state)
            #expect(database.contains("a.example.test"), "the call is in the history")
            #expect(check.leaks(in: database).isEmpty, "the history holds the proxy's password as \(check.leaks(in: database))")
        }
    }

    /// `wsh test --secret NAME=VALUE` (Hurl's `--secret`) gives a variable that is a secret: masked
    /// on screen and in every report (test-runner D13). A `--var` is shown, whatever its name
    /// (`sort_key` is a parameter, review 9 H1).
    @Test func aSecretOptionIsMaskedInEveryReportAndAVarIsShown() async throws {
        try await HTTPBinServer.with { httpbin in
            let script = """
                set bail off
                get \(httpbin.baseURL)/anything?sort=$sort_key X-Custom:$api_key
                expect .headers.X-Custom == "x"
                expect .args.sort == "username"
                print $api_key

                """
            let texts = try await Self.texts(script, arguments: ["--secret", "api_key=cliSecret6464", "--var", "sort_key=name"])
            Self.expectNoLeak(of: ["cliSecret6464"], in: texts)
            let screen = texts[0].text + texts[1].text
            #expect(screen.contains(#"actual:   "name" (string)"#) && screen.contains(#"expected: "username" (string)"#), "\(screen)")
        }
    }

    /// `wsh FILE --secret NAME=VALUE`: the script's variable is a secret, and `save` leaves it out.
    @Test func aScriptsSecretOptionIsMaskedAndNotSaved() async throws {
        let directory = try TestRunnerTests.suite(["s.wsh": "echo key is $api_key, sort by $sort_key\nsave saved.wsh\n"])
        let result = try await WSHProcess.run(["tests/s.wsh", "--secret", "api_key=cliSecret6565", "sort_key=name"], directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("key is ***, sort by name"), "\(result.stdout)")
        let saved = try String(contentsOf: directory.appendingPathComponent("tests/saved.wsh"), encoding: .utf8)
        #expect(saved.contains("# let api_key: not saved, it is a secret given on the command line"), "\(saved)")
        #expect(!(saved + result.stdout + result.stderr).contains("cliSecret6565"), "\(saved)")
    }
}
