import Foundation
import Testing
import TestSupport

/// HTTPie's flags on ad-hoc requests (`get URL -a user:pw -v`), at the prompt's language and from
/// the command line, each compared with what HTTPie does with it.
@Suite struct RequestFlagTests {
    static let authCases: [[String]] = [
        ["-a", "ann:pa ss"],
        ["--auth=ann:x:y"],
        ["--auth", "ann:"],
        ["-A", "bearer", "-a", "tok-123456"],
        ["--auth-type=basic", "-a", "ann:pw"],
        // Glued to the flag, as argparse reads a one-letter option's value.
        ["-aann:GluedPw77"],
        ["-Abearer", "-atok-123456"],
    ]

    /// The Authorization header HTTPie sends for the same flags, from `http --offline --print=H`.
    @Test(.enabled(if: httpieProgram != nil, "HTTPie is not installed: scripts/ensure-httpie.sh installs it"), arguments: authCases)
    func authSendsWhatHTTPieSends(_ flags: [String]) async throws {
        let program = try #require(httpieProgram)
        let httpie = try await runHTTPie(program, ["--ignore-stdin", "--offline", "--print=H", "GET", "example.org/a"] + flags)
        let expected = httpie.stdout.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").first { $0.hasPrefix("Authorization: ") }.map { String($0.dropFirst(15)) }
        #expect(expected != nil, "\(httpie.stdout)\(httpie.stderr)")
        try await withLoopbackServer { server in
            let result = try await WSHProcess.run(["get", "\(server.baseURL)/echo/a"] + flags)
            #expect(result.status == 0, "\(flags): \(result.stderr)")
            #expect(try AdHocRequestTests.Echo(json: result.stdout).headers["authorization"] == expected, "\(flags)")
        }
    }

    @Test func aCredentialIsMaskedInErrorsTheRequestShownAndTheHistory() async throws {
        let port = try LoopbackPort.free()
        let refused = try await WSHProcess.run(["-c", "get http://127.0.0.1:\(port)/x -a ann:sekret-pw-1"])
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("-a ann:***"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("sekret"), "\(refused.stderr)")
        let fromShell = try await WSHProcess.run(["get", "http://127.0.0.1:\(port)/x", "-A", "bearer", "-a", "sekret-token-2"])
        #expect(!fromShell.stderr.contains("sekret"), "\(fromShell.stderr)")
        // A mistyped flag is refused without showing its value.
        for typo in ["--auth:ann:sekret-pw-4", "-Aann:sekret-pw-4", "-vaann:sekret-pw-4"] {
            let mistyped = try await WSHProcess.run(["-c", "get http://127.0.0.1:\(port)/x \(typo)"])
            #expect(mistyped.status == 2, "\(mistyped.stderr)")
            #expect(!mistyped.stderr.contains("sekret"), "\(mistyped.stderr)")
        }
        try await withLoopbackServer { server in
            let result = try await WSHProcess.run(["-c", "get \(server.baseURL)/echo/v -v -a ann:sekret-pw-3\nhistory\nhistory show 1"])
            #expect(result.status == 0, "\(result.stderr)")
            let shown = result.stdout.components(separatedBy: "\n\n").first ?? ""
            #expect(shown.hasPrefix("GET /echo/v HTTP/1.1\nHost: 127.0.0.1:\(server.port)\n"), "\(result.stdout)")
            #expect(shown.contains("\nAuthorization: ***"), "\(shown)")
            let base64 = Data("ann:sekret-pw-3".utf8).base64EncodedString()
            let afterBody = result.stdout.components(separatedBy: "\"bodyHex\"").last ?? ""
            #expect(!shown.contains(base64) && !afterBody.contains(base64) && !afterBody.contains("sekret"), "\(afterBody)")
            #expect(!result.stderr.contains("sekret"))
        }
    }

    /// Every form of a mistyped auth flag (the next word, glued, quoted, after `=`, `-auth` for
    /// `--auth`, `-vA` for `-va`) keeps its password out of the line history, the error and its
    /// quoted line, and the call history (they kept `-A al:pw`, `-A"al:pw"`, `-A=al:pw`...).
    @Test func aMistypedAuthFlagsPasswordIsHiddenEverywhere() async throws {
        let environment = try promptEnvironment()
        let home = try #require(environment["HOME"]), history = try #require(environment["WSH_HISTORY"])
        let port = try LoopbackPort.free()
        let typos = ["-A al:MtPw41", "-A\"al:MtPw42\"", "-A \"al:MtPw43\"", "-auth al:MtPw44", "-A=al:MtPw45",
                     "-Aal\":MtPw46\"", "-vA al:MtPw47", "--auth-type al:MtPw48", "-Aal:MtPw49"]
        let outcome = try await onTerminal(environment: environment) { terminal in
            terminal.expect("wsh> ")
            var errors: [String] = []
            for typo in typos {
                let mark = terminal.mark
                terminal.type("get http://127.0.0.1:\(port)/x \(typo)\r")
                terminal.expect("error", after: mark)
                // After the typed line's echo: the error and the line it quotes, up to the next prompt.
                let error = terminal.screen[mark...].range(of: "error")?.lowerBound ?? mark
                terminal.expect("wsh> ", after: error)
                errors.append(String(terminal.screen[error...]))
            }
            terminal.type("exit\r")
            return errors
        }
        #expect(outcome.missed.isEmpty, "\(outcome.screen.debugDescription)")
        for (typo, error) in zip(typos, outcome.value) {
            #expect(error.contains("error") && !error.contains("MtPw"), "\(typo): \(error)")
        }
        let lines = try String(contentsOfFile: history, encoding: .utf8)
        #expect(lines.split(separator: "\n").filter { $0.hasPrefix("get ") }.count == typos.count, "\(lines)")
        #expect(!lines.contains("MtPw"), "the line history holds a password: \(lines)")
        let state = home + "/.local/state/wsh"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: state)) ?? [] {
            let bytes = FileManager.default.contents(atPath: state + "/" + name) ?? Data()
            #expect(bytes.range(of: Data("MtPw".utf8)) == nil, "\(name) holds a password")
        }
    }

    /// `-A` quoted or given by a variable is read as HTTPie (argparse) reads it: `-A"bearer"` is
    /// `-A bearer` (it was refused as no auth type), and `-A $type` is the variable's value.
    @Test(arguments: ["-A\"bearer\" -a TokQ51", "-A \"bearer\" -a TokQ51", "-A $type -a TokQ51", "-A\"$type\" -aTokQ51",
                      "--auth-type=$type -a TokQ51", "-A \"${type}\" --auth=TokQ51"])
    func aQuotedOrVariableAuthTypeIsRead(flags: String) async throws {
        let state = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(state) }
        try await withLoopbackServer { server in
            let script = "let type = \"Bearer\"\nget \(server.baseURL)/echo/a \(flags)"
            let result = try await WSHProcess.run(["-c", script], environment: ["XDG_STATE_HOME": state.path])
            #expect(result.status == 0, "\(flags): \(result.stderr)")
            #expect(try AdHocRequestTests.Echo(json: result.stdout).headers["authorization"] == "Bearer TokQ51", "\(flags): \(result.stdout)")
            #expect(!CallHistoryEndToEndTests.databaseText(state).contains("TokQ51"), "the call history holds the token")
        }
    }

    /// A variable that names no auth type is refused when the request runs, without its value.
    @Test func aVariableAuthTypeThatIsNoneIsRefused() async throws {
        let port = try LoopbackPort.free()
        let result = try await WSHProcess.run(["-c", "let type = \"al:VarPw61\"\nget http://127.0.0.1:\(port)/x -A $type -a tok"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("'-A' takes an auth type"), "\(result.stderr)")
        #expect(!result.stderr.contains("VarPw61"), "\(result.stderr)")
    }

    /// `-v` and `--offline` mask the request line as they mask the headers: an env secret in the
    /// query and a query key named like a credential are `***`, at the prompt and from the command line.
    /// The calls go where no answer echoes the query: answers are shown as they came.
    @Test func theRequestLineShownHasItsSecretsMasked() async throws {
        try await withLoopbackServer { server in
            let script = """
                let t = env TOK
                get \(server.baseURL)/status/200?q=$t&appid=Ap55555 -v
                post \(server.baseURL)/status/201?q=$t&appid=Ap55555 --offline name=Ana
                """
            let result = try await WSHProcess.run(["-c", script], environment: ["TOK": "EnvTok5555"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("GET /status/200?q=***&appid=*** HTTP/1.1\n"), "\(result.stdout)")
            #expect(result.stdout.contains("POST /status/201?q=***&appid=*** HTTP/1.1\n"), "\(result.stdout)")
            #expect(!result.stdout.contains("EnvTok5555") && !result.stdout.contains("Ap55555"), "\(result.stdout)")
            let fromShell = try await WSHProcess.run(["get", "\(server.baseURL)/status/200?api_key=CliK999", "-v"])
            #expect(fromShell.stdout.hasPrefix("GET /status/200?api_key=*** HTTP/1.1\n"), "\(fromShell.stdout)")
            #expect(!fromShell.stdout.contains("CliK999"), "\(fromShell.stdout)")
        }
    }

    @Test func headersBodyAndVerboseChooseWhatIsPrinted() async throws {
        try await withLoopbackServer { server in
            let headers = try await WSHProcess.run(["get", "\(server.baseURL)/echo/h", "-h"])
            #expect(headers.stdout.hasPrefix("HTTP 200 OK\n") && headers.stdout.contains("Content-Type: application/json\n"), "\(headers.stdout)")
            #expect(!headers.stdout.contains("\"method\""))
            let body = try await WSHProcess.run(["-c", "set output all\nget \(server.baseURL)/echo/b --body"])
            #expect(body.stdout.hasPrefix("{\"method\":\"GET\""), "\(body.stdout)")
            let verbose = try await WSHProcess.run(["post", "\(server.baseURL)/echo/v", "-v", "name=Ana"])
            let parts = verbose.stdout.components(separatedBy: "\n\n")
            try #require(parts.count >= 3, "\(verbose.stdout)")
            #expect(parts[0].hasPrefix("POST /echo/v HTTP/1.1\n") && parts[0].contains("\nContent-Type: application/json"), "\(verbose.stdout)")
            #expect(parts[1] == #"{"name":"Ana"}"#, "\(verbose.stdout)")
            #expect(parts[2].hasPrefix("HTTP 200 OK\n"), "\(verbose.stdout)")
        }
    }

    /// `--offline` prints what HTTPie's prints for the same items (its request line, the items'
    /// headers, the body) and sends nothing.
    @Test(.enabled(if: httpieProgram != nil, "HTTPie is not installed: scripts/ensure-httpie.sh installs it"))
    func offlinePrintsTheRequestAndSendsNothing() async throws {
        let program = try #require(httpieProgram)
        let items = ["q==1", "name=Ana", "tags[]=a", "X-Trace:1"]
        let httpie = try await runHTTPie(program, ["--ignore-stdin", "--offline", "POST", "example.org/echo/o"] + items)
        let httpieParts = httpie.stdout.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n")
        try #require(httpieParts.count >= 2, "\(httpie.stdout)")
        try await withLoopbackServer { server in
            let result = try await WSHProcess.run(["post", "\(server.baseURL)/echo/o", "--offline"] + items)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(server.hits("/echo/o") == 0)
            let parts = result.stdout.components(separatedBy: "\n\n")
            try #require(parts.count >= 2, "\(result.stdout)")
            let head = parts[0].split(separator: "\n")
            #expect(head.first == httpieParts[0].split(separator: "\n").first, "\(result.stdout)")
            #expect(head.contains("X-Trace: 1") && head.contains("Content-Type: application/json"), "\(result.stdout)")
            let sent = try JSONSerialization.jsonObject(with: Data(parts[1].utf8)) as? NSObject
            let expected = try JSONSerialization.jsonObject(with: Data(httpieParts[1].utf8)) as? NSObject
            #expect(sent == expected, "\(parts[1]) against \(httpieParts[1])")
        }
    }

    @Test func outputAndDownloadWriteTheBodyToAFile() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try await withLoopbackServer { server in
            let output = try await WSHProcess.run(["get", "\(server.baseURL)/echo/o", "-o", "out.json"], directory: directory)
            #expect(output.status == 0 && output.stdout.isEmpty, "\(output.stderr)")
            let written = try String(contentsOf: directory.appendingPathComponent("out.json"), encoding: .utf8)
            #expect(written.hasPrefix("{\"method\":\"GET\""))
            for expected in ["report.json", "report.json-1"] {
                let download = try await WSHProcess.run(["get", "\(server.baseURL)/echo/report.json", "--download"], directory: directory)
                #expect(download.status == 0 && download.stdout.isEmpty, "\(download.stderr)")
                #expect(download.stderr.contains("saved ") && download.stderr.contains(" to \(expected)"), "\(download.stderr)")
                #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(expected).path))
            }
        }
    }

    /// Downloads started at once each chose the first free name and the later rename replaced
    /// the earlier file (runner tester's D34): each claims its name as it chooses it, and one
    /// whose request fails leaves no empty file behind.
    @Test func downloadsAtOnceKeepEveryAnswer() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(directory) }
        let count = 6
        try await withLoopbackServer { server in
            try await withThrowingTaskGroup(of: WSHProcess.Result.self) { group in
                for index in 1...count {
                    group.addTask { try await WSHProcess.run(["get", "\(server.baseURL)/echo/data?i=\(index)", "-d"], directory: directory) }
                }
                for try await result in group { #expect(result.status == 0, "\(result.stderr)") }
            }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["data"] + (1..<count).map { "data-\($0)" }, "\(names)")
        let queries = try names.map { name in
            let echo = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(name))) as? [String: Any]
            return echo?["query"] as? String ?? ""
        }
        #expect(Set(queries) == Set((1...count).map { "i=\($0)" }), "\(queries)")
        let refused = try await WSHProcess.run(["get", "http://127.0.0.1:\(try LoopbackPort.free())/gone", "-d"], directory: directory)
        #expect(refused.status == 3, "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("gone").path))
    }

    /// A run ended by SIGHUP (its terminal closed) or SIGTERM (`timeout`, a CI job cancelled)
    /// while the answer is on its way left the empty file claimed for it (review 10's M4), which
    /// the next run stepped past to `never-1`: `get URL -d`, and `>> ./slow.json` in a `.http` file.
    @Test(arguments: [SIGHUP, SIGTERM]) func aSignalDuringTheRequestLeavesNoClaimedFile(signal: Int32) async throws {
        let directory = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(directory) }
        try await withLoopbackServer { server in
            try "GET \(server.baseURL)/never\n\n>> ./slow.json\n".write(to: directory.appendingPathComponent("s.http"), atomically: true, encoding: .utf8)
            for (arguments, claimed) in [(["get", "\(server.baseURL)/never", "-d"], "never"), (["s.http"], "slow.json")] {
                let calls = server.hits("/never")
                let running = try RunningWSH(arguments, directory: directory)
                let deadline = ContinuousClock.now + .seconds(60)
                while server.hits("/never") == calls, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
                let path = directory.appendingPathComponent(claimed).path
                #expect(FileManager.default.fileExists(atPath: path), "\(claimed) is claimed before the request goes")
                running.interrupt(with: signal)
                #expect(try await offPool { running.waitForExit() } == signal, "\(arguments): \(running.stderr)")
                #expect(!FileManager.default.fileExists(atPath: path), "\(arguments) left \(claimed)")
            }
        }
    }

    /// A name that holds NUL once decoded (`/a%00b`) was cut there by `open`: the second download
    /// found `a` taken for every numbered name and looped for ever (review 10's L5).
    @Test func aDownloadNameHoldingNULEnds() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(directory) }
        try await withLoopbackServer { server in
            for expected in ["a_b", "a_b-1"] {
                let running = try RunningWSH(["get", "\(server.baseURL)/echo/a%00b", "-d"], directory: directory)
                #expect(try await offPool { running.waitForExit() } == 0, "\(running.stderr)")
                #expect(running.stderr.contains(" to \(expected)"), "\(running.stderr)")
                let saved = try String(contentsOf: directory.appendingPathComponent(expected), encoding: .utf8)
                #expect(saved.contains("/echo/a%00b"), "\(saved)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["a_b", "a_b-1"])
    }

    @Test func followCheckStatusAndAnUnknownFlag() async throws {
        try await withLoopbackServer { server in
            let followed = try await WSHProcess.run(["-c", "set follow off\nget \(server.baseURL)/redirect?n=1 -F\nexpect status == 200"])
            #expect(followed.status == 0, "\(followed.stderr)")
            let notFollowed = try await WSHProcess.run(["-c", "set follow off\nget \(server.baseURL)/redirect?n=1\nexpect status == 302"])
            #expect(notFollowed.status == 0, "\(notFollowed.stderr)")
            let checked = try await WSHProcess.run(["-c", "get \(server.baseURL)/status/404 --check-status\necho after"])
            #expect(checked.status == 3)
            #expect(checked.stderr.contains("error: HTTP 404 Not Found (--check-status)"), "\(checked.stderr)")
            #expect(!checked.stdout.contains("after"))
            let unchecked = try await WSHProcess.run(["-c", "get \(server.baseURL)/status/404"])
            #expect(unchecked.status == 0)
            let unknown = try await WSHProcess.run(["-c", "get \(server.baseURL)/x --pretty=all"])
            #expect(unknown.status == 2)
            #expect(unknown.stderr.contains("error: unknown option '--pretty'"), "\(unknown.stderr)")
            #expect(unknown.stderr.contains("note: options: -a/--auth USER:PASS, -A/--auth-type basic|bearer|digest, -v/--verbose"))
        }
    }

    /// `-A digest` answers httpbin's Digest challenge, as `http -A digest -a ann:PASS` does.
    @Test func digestIsLetInByHTTPBin() async throws {
        try await HTTPBinServer.with { httpbin in
            let route = "\(httpbin.baseURL)/digest-auth/auth/ann/pa55-Digest-9z/MD5"
            let result = try await WSHProcess.run(["get", route, "-A", "digest", "-a", "ann:pa55-Digest-9z"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"authenticated\""), "\(result.stdout)")
            let wrong = try await WSHProcess.run(["get", route, "-A", "digest", "-a", "ann:wrong-password"])
            #expect(wrong.status == 4, "\(wrong.stderr)")
        }
    }

    /// A glued value written with a variable or quotes is the flag's, and the next word stays an item.
    @Test func aGluedValueFromAVariableOrQuotesIsTheFlags() async throws {
        try await withLoopbackServer { server in
            let basic = ["ann:Var Pw", "bob:Quoted Pw"].map { "Basic " + Data($0.utf8).base64EncodedString() }
            let script = """
                set output quiet
                let cred = "ann:Var Pw"
                get \(server.baseURL)/echo/a -a$cred X-Other:val
                expect $.headers[?@[0] == 'Authorization'][1] | first == "\(basic[0])"
                expect $.headers[?@[0] == 'X-Other'][1] | first == "val"
                get \(server.baseURL)/echo/b -a"bob:Quoted Pw" X-Other:val2
                expect $.headers[?@[0] == 'Authorization'][1] | first == "\(basic[1])"
                expect $.headers[?@[0] == 'X-Other'][1] | first == "val2"
                """
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        }
    }

    /// `-v` shows the request line in the version the answer came in: nginx speaks HTTP/2 over TLS.
    @Test func verboseShowsTheRequestInTheVersionSpoken() async throws {
        try await withNginx { nginx in
            let url = "https://127.0.0.1:\(nginx.selfSignedPort)/tls"
            let result = try await WSHProcess.run(["-c", "set insecure on\nget \(url) -v"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("GET /tls HTTP/2\n") && result.stdout.contains("HTTP/2.0"), "\(result.stdout)")
            let plain = try await WSHProcess.run(["get", "\(nginx.httpURL)/tls", "-v"])
            #expect(plain.stdout.hasPrefix("GET /tls HTTP/1.1\n"), "\(plain.stdout)")
        }
    }
}
