import Foundation
import Testing
import TestSupport

/// Where testers found a secret or a credential typed as text written out: `openapi export` and
/// `export locust`, `targets`, the call history of a JSON body sent as a form, `show --curl`
/// before and after a call, the state directory the prompt makes, the `wsh serve` log, and a
/// recording of what httpbin echoes. Each runs the built wsh against a loopback server.
@Suite struct SecretOutputsTests {
    /// Credentials typed as text: a URL's password, an API-key header, a JSON password, a query `api_key`.
    static func literalTargets(_ base: String) -> String {
        let host = base.replacingOccurrences(of: "http://", with: "")
        return """
            target a { base http://u:LITURLPW222@\(host); path /echo/a }
            target b { base \(base); path /echo/b; header X-Api-Key:LITHDR333 }
            target c { base \(base); path /echo/c; method POST; json user=x password=LITJSON555 }
            target d { base \(base); path /echo/d; query api_key=LITQ666 page=2 }
            """
    }

    /// `openapi export` writes no literal credential (it wrote all four): the parameters are
    /// required with no default, the password is a Basic security scheme, and a note says so.
    /// The document reads back, and calls that give the credentials send them.
    @Test func openAPIExportWritesNoCredentialTypedAsText() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let exported = try await WSHProcess.run(["-c", Self.literalTargets(server.baseURL) + "\ncall b > /dev/null\nopenapi export out.yaml\nopenapi export out.json"],
                                                    directory: directory)
            #expect(exported.status == 0, "\(exported.stderr)")
            #expect(exported.stderr.contains("note: credentials typed as text are not written, to be given when calling: "
                                             + "a: the password of its base URL (written as Basic auth); b: header X-Api-Key; c: body password; d: query api_key"),
                    "\(exported.stderr)")
            for name in ["out.yaml", "out.json"] {
                let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
                #expect(!text.contains("LIT") && !text.contains("***"), "\(name): \(text)")
                #expect(text.contains("basicAuth") && text.contains("page"), "\(name): \(text)")
            }
            let validator = (ProcessInfo.processInfo.environment["WSH_OPENAPI_VALIDATOR_VENV"] ?? "/tmp/wsh-openapi-validator") + "/bin/openapi-spec-validator"
            let checked = try await runShell("'\(validator)' '\(directory.path)/out.yaml' '\(directory.path)/out.json'")
            #expect(checked.status == 0 && checked.stdout.contains("out.yaml: OK"), "\(checked.stdout)\(checked.stderr)")
            let back = try await WSHProcess.run(["-c", """
                use openapi out.yaml
                plugin auth basic u:given-pw-1 everywhere
                call a
                call b X-Api-Key:given-key-2
                call c user=x password=given-pw-3
                call d api_key=given-key-4
                """], directory: directory)
            #expect(back.status == 0, "\(back.stderr)")
            let all = back.stdout
            #expect(all.components(separatedBy: #""method":"#).count == 5, "four calls answered: \(all)")
            let basic = "Basic " + Data("u:given-pw-1".utf8).base64EncodedString()
            #expect(all.contains(basic) && all.contains("given-key-2") && all.contains(#"\"password\":\"given-pw-3\""#)
                    && all.contains("api_key=given-key-4&page=2"), "\(all)")
        }
    }

    /// `export locust` reads each credential typed as text from an environment variable named for
    /// where it goes (it wrote them all, and the Basic header's base64). The locustfile, run once
    /// by Locust's own classes, sends them from the environment.
    @Test func exportLocustReadsCredentialsTypedAsTextFromTheEnvironment() async throws {
        try await PlantedServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let exported = try await WSHProcess.run(["-c", Self.literalTargets(server.baseURL) + "\nexport locust > locustfile.py"], directory: directory)
            #expect(exported.status == 0, "\(exported.stderr)")
            #expect(exported.stderr.contains("note: PASSWORD, X_API_KEY, PASSWORD_2, API_KEY stand for credentials typed as text"), "\(exported.stderr)")
            let file = try String(contentsOf: directory.appendingPathComponent("locustfile.py"), encoding: .utf8)
            let basic = Data("u:LITURLPW222".utf8).base64EncodedString()
            #expect(!file.contains("LIT") && !file.contains(basic) && !file.contains("***"), "\(file)")
            #expect(file.contains(#"os.environ["X_API_KEY"]"#), "\(file)")
            try """
                import locustfile
                from locust.env import Environment
                user = locustfile.WshUser(Environment(user_classes=[locustfile.WshUser]))
                user.on_start()
                for task in ("a", "b", "c", "d"):
                    getattr(user, task)()
                """.write(to: directory.appendingPathComponent("once.py"), atomically: true, encoding: .utf8)
            let environment = ["PASSWORD": "env-pw-1", "X_API_KEY": "env-key-2", "PASSWORD_2": "env-pw-3", "API_KEY": "env-key-4"]
            let python = ExportLocustTests.locust.replacingOccurrences(of: "/bin/locust", with: "/bin/python")
            let run = try await runShell("cd '\(directory.path)' && '\(python)' once.py", environment: environment)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            let requests = try server.loggedRequests()
            let byPath = Dictionary(requests.map { ($0["path"] as? String ?? "", $0) }, uniquingKeysWith: { $1 })
            let headers = { (path: String) in byPath[path]?["headers"] as? [String: String] ?? [:] }
            #expect(headers("/echo/a")["authorization"] == "Basic " + Data("u:env-pw-1".utf8).base64EncodedString(), "\(requests)")
            #expect(headers("/echo/b")["x-api-key"] == "env-key-2", "\(requests)")
            #expect(byPath["/echo/c"]?["body"] as? String == #"{"user":"x","password":"env-pw-3"}"#, "\(requests)")
            #expect(byPath["/echo/d"]?["query"] as? String == "api_key=env-key-4&page=2", "\(requests)")
        }
    }

    /// `targets` writes a URL as everywhere else: its password `***` (it printed it).
    /// `import curl` of a webhook whose last segment is a token named the target after the
    /// token, which `openapi export`'s note and `edit` then showed, and `edit` wrote to its file.
    @Test func aTargetIsNotNamedAfterASecretAndEditWritesNone() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(directory) }
        let result = try await WSHProcess.run(["-c", """
            set bail off
            let t = env WSH_E2E_HOOK
            import curl "curl https://hooks.example.com/services/T000/B000/$t -d x=1"
            targets
            openapi export out.yaml
            edit B000
            """], environment: ["WSH_E2E_HOOK": "hooksecret123", "EDITOR": "cat", "VISUAL": ""], directory: directory)
        #expect(result.stdout.contains("B000"), "\(result.stdout)")
        #expect(result.stderr.contains("cannot edit target 'B000': its declaration holds a secret's value"), "\(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains("hooksecret123"), "\(result.stdout)\(result.stderr)")
    }

    @Test func targetsMasksAURLsPassword() async throws {
        let listed = try await WSHProcess.run(["-c", "target lk { base http://u9:urlPASS31@127.0.0.1:1; path /anything }\ntargets"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("http://u9:***@127.0.0.1:1/anything") && !listed.stdout.contains("urlPASS31"), "\(listed.stdout)")
    }

    /// A JSON body sent with curl's form type (a pasted "Copy as cURL" `--data-raw '{...}'`) has
    /// its password masked in the call history and its write-ahead log, as a JSON body has, also
    /// where the server echoes it back.
    @Test func aJSONBodySentAsAFormIsMaskedInTheCallHistory() async throws {
        try await withLoopbackServer { server in
            let home = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(home) }
            let script = """
                import curl "curl '\(server.baseURL)/echo' --data-raw '{\\"name\\":\\"ana\\",\\"password\\":\\"pw123456\\"}'" as pasted
                call pasted > /dev/null
                history show 1
                """
            let result = try await WSHProcess.run(["-c", script], environment: ["HOME": home.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(#""password":"***""#), "\(result.stdout)")
            let state = home.appendingPathComponent(".local/state/wsh")
            for name in try FileManager.default.contentsOfDirectory(atPath: state.path) {
                let bytes = try Data(contentsOf: state.appendingPathComponent(name))
                #expect(bytes.range(of: Data("pw123456".utf8)) == nil, "\(name) holds the password")
            }
            #expect(!result.stdout.contains("pw123456"), "\(result.stdout)")
        }
    }

    /// `show NAME --curl` prints what was typed, before and after a call alike (it printed the
    /// credentials, then `***` once the target had been called); the session's secrets stay masked.
    @Test func showCurlIsTheSameBeforeAndAfterACall() async throws {
        try await withLoopbackServer { server in
            let script = """
                let s = env SHOW_SECRET
                target w2 { base \(server.baseURL); path /echo; query appid=LITAPPID777; header X-Api-Key:LITHDR8888 X-Env:$s }
                show w2 --curl
                show w2
                call w2 > /dev/null
                show w2 --curl
                show w2
                """
            let result = try await WSHProcess.run(["-c", script], environment: ["SHOW_SECRET": "env-secret-5150"])
            #expect(result.status == 0, "\(result.stderr)")
            let halves = result.stdout.components(separatedBy: "curl -L")
            #expect(halves.count == 3 && halves[1] == halves[2], "\(result.stdout)")
            #expect(halves[2].contains("appid=LITAPPID777") && halves[2].contains("X-Api-Key: LITHDR8888"), "\(result.stdout)")
            #expect(!result.stdout.contains("env-secret-5150") && result.stdout.contains("$SHOW_SECRET"), "\(result.stdout)")
        }
    }

    /// The interactive prompt that writes its line history first makes the state directory 0700,
    /// as the call history does (it was 0755).
    @Test func thePromptMakesTheStateDirectoryPrivate() async throws {
        let home = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(home) }
        let outcome = try await onTerminal(environment: ["HOME": home.path]) { terminal in
            terminal.expect("wsh> ")
            terminal.type("echo typed\r", expecting: "typed\r\nwsh> ")
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty && outcome.exitStatus == 0, "\(outcome.screen)")
        let state = home.appendingPathComponent(".local/state/wsh").path
        #expect(FileManager.default.fileExists(atPath: state + "/history"))
        let mode = try FileManager.default.attributesOfItem(atPath: state)[.posixPermissions] as? Int
        #expect(mode == 0o700, "\(String(mode ?? 0, radix: 8))")
    }

    /// A recording of httpbin's echo, which writes the URL as an IRI (`ab%3Dc\"d`, `d\u00e9`),
    /// holds no form of secrets with `"`, `=`, `+`, a space or non-ASCII letters in them.
    @Test(arguments: [#"ab+c/dé"#, #"ab=c"d"#, #"ab cd"ef"#, "50%off?x"])
    func aRecordingOfAnEchoedIRIHoldsNoSecret(secret: String) async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let script = """
                let k = env K
                set output quiet
                target a { base \(httpbin.baseURL); path /anything/{v}; query appid=$k }
                set record rec
                call a v=$k
                print .url
                """
            let (result, _) = try await runScript(script, environment: ["K": secret], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let recorded = try String(contentsOf: directory.appendingPathComponent("rec/a.json"), encoding: .utf8)
            let check = SecretLeakCheck(secret: secret, basicUser: "nobody")
            #expect(check.leaks(in: recorded).isEmpty, "the recording shows the secret as \(check.leaks(in: recorded)): \(recorded)")
            #expect(check.leaks(in: result.stdout).isEmpty, "print shows the secret: \(result.stdout)")
            #expect(recorded.contains("/anything/***?appid=***"), "\(recorded)")
        }
    }
}
