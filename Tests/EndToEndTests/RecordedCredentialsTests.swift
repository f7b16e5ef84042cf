import Foundation
import Testing
import TestSupport

/// `set record DIR` writes sample files that users commit: credentials a server issues are
/// masked in them by name (a string under `access_token`, `client_secret`, ...) and by shape (a
/// JWT, a URL's password, a `Bearer`/`Basic` value), while ordinary values and bodies with no
/// credential are kept as they came (mock tester's F20). Which sample replays a target's success
/// is the latest 2xx recorded (F11). Each runs the built wsh against a loopback server.
@Suite struct RecordedCredentialsTests {
    static let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbmEifQ.c2lnbmF0dXJlLXZhbHVl"
    static let login = """
        {"access_token": "\(jwt)", "refresh_token": "rt-9f8e7d6c5b", "id_token": "idt-1234abcd",
         "token_type": "bearer", "expires_in": 3600, "credentialsRequired": true, "tokenCount": 3,
         "client_secret": "cs-55667788", "password": "pw-77889900", "api_key": "ak-99001122"}
        """
    static let credentials = ["rt-9f8e7d6c5b", "idt-1234abcd", "cs-55667788", "pw-77889900", "ak-99001122",
                              "eyJhbGci", "abc123DEF456ghi", "dXNlcjpwYXNz", "pa55word",
                              "tok-aaaa1111", "123456789012", "sec-bbbb2222", "HdrIssued-24680", "XMLKEY55", "WSSEPASS44"]
    /// What the release masked by name and by the values an answer issued (review of F20): a list of
    /// tokens, a number under `api_key`, an object under `secret`, a header's token echoed in the body.
    static let names = #"{"tokens": ["tok-aaaa1111"], "api_key": 123456789012, "secret": {"value": "sec-bbbb2222"}}"#
    /// 5 MB of links whose URLs hold an `@`: no credential, so recorded byte for byte.
    static let page = Array(String(repeating: "<a href=\"http://x/@y\">eyJ Bearer earer asic ://</a>\n", count: 5 << 20 / 51).utf8)

    @Test func credentialsAServerIssuesAreMaskedInRecordingsAndReplayAsStars() async throws {
        let routes = [
            "/login": StaticRoute(body: Self.login),
            "/echoed": StaticRoute(contentType: "text/plain", body: "Authorization: Bearer abc123DEF456ghi\nProxy: Basic dXNlcjpwYXNz\n"),
            "/dsn": StaticRoute(body: #"{"database": "postgres://user:pa55word@db.example/app", "note": "issued \#(Self.jwt) today"}"#),
            "/page": StaticRoute(contentType: "text/html", body: Self.page),
            "/names": StaticRoute(body: Self.names),
            "/issued": StaticRoute(headers: [("Content-Type", "application/json"), ("X-Session-Token", "HdrIssued-24680")],
                                   body: Array(#"{"value": "HdrIssued-24680"}"#.utf8)),
            // A SOAP answer: its elements named like secrets are masked as JSON members are (test-serve H1).
            "/soap": StaticRoute(contentType: "text/xml", body: "<r><apiKey>XMLKEY55</apiKey><wsse:Password>WSSEPASS44</wsse:Password><city>Suwon</city></r>"),
        ]
        try await withLoopbackServer(routes: routes) { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let script = """
                set output quiet
                target login { base \(server.baseURL); path /login }
                target echoed { base \(server.baseURL); path /echoed }
                target dsn { base \(server.baseURL); path /dsn }
                target page { base \(server.baseURL); path /page }
                target names { base \(server.baseURL); path /names }
                target issued { base \(server.baseURL); path /issued }
                target soap { base \(server.baseURL); path /soap }
                set record rec
                call soap
                call names
                call issued
                call login
                call echoed
                call dsn
                call page
                save session.wsh
                """
            let environment = ["HOME": directory.path]
            let (result, took) = try await runScript(script, environment: environment, directory: directory)
            print("recording the four answers (one 5 MB page) took \(took)")
            #expect(result.status == 0, "\(result.stderr)")
            let records = directory.appendingPathComponent("rec")
            let login = try String(contentsOf: records.appendingPathComponent("login.json"), encoding: .utf8)
            let echoed = try String(contentsOf: records.appendingPathComponent("echoed.txt"), encoding: .utf8)
            let dsn = try String(contentsOf: records.appendingPathComponent("dsn.json"), encoding: .utf8)
            let names = try String(contentsOf: records.appendingPathComponent("names.json"), encoding: .utf8)
            let issued = try String(contentsOf: records.appendingPathComponent("issued.json"), encoding: .utf8)
            let soap = try String(contentsOf: records.appendingPathComponent("soap.xml"), encoding: .utf8)
            #expect(soap == "<r><apiKey>***</apiKey><wsse:Password>***</wsse:Password><city>Suwon</city></r>", "\(soap)")
            for credential in Self.credentials {
                #expect(![login, echoed, dsn, names, issued, soap].contains { $0.contains(credential) },
                        "\(credential) recorded: \(login)\n\(echoed)\n\(dsn)\n\(names)\n\(issued)")
            }
            for kept in [#""expires_in": 3600"#, #""credentialsRequired": true"#, #""access_token": "***""#, #""client_secret": "***""#] {
                #expect(login.contains(kept), "\(kept): \(login)")
            }
            #expect(echoed == "Authorization: Bearer ***\nProxy: Basic ***\n", "\(echoed)")
            #expect(dsn.contains("postgres://user:***@db.example/app") && dsn.contains("issued *** today"), "\(dsn)")
            #expect(try Data(contentsOf: records.appendingPathComponent("page.html")) == Data(Self.page), "the page is kept byte for byte")

            // The history row of each call is written by the time wsh exits.
            let history = try await WSHProcess.run(["-c", "history"], environment: environment, directory: directory)
            #expect(history.stdout.contains("/page") && history.stdout.contains("/login"), "\(history.stdout)\(history.stderr)")
            let state = directory.appendingPathComponent(".local/state/wsh").path
            for name in (try? FileManager.default.contentsOfDirectory(atPath: state)) ?? [] {
                let bytes = FileManager.default.contents(atPath: state + "/" + name) ?? Data()
                #expect(bytes.range(of: Data("WSSEPASS44".utf8)) == nil && bytes.range(of: Data("XMLKEY55".utf8)) == nil, "\(name) holds an XML secret")
            }

            // Offline, the masked fixture replays: a masked value answers as `***`.
            let replay = try await WSHProcess.run(["--stub", "-c", "set output quiet\nsource session.wsh\ncall login\nprint .access_token .expires_in"],
                                                  environment: environment, directory: directory)
            #expect(replay.status == 0, "\(replay.stderr)")
            #expect(replay.stdout == "*** 3600\n", "\(replay.stdout)")
        }
    }

    /// A server that echoes an `env` key base64-encoded (standard, URL-safe without padding, or inside
    /// a longer encoded text) shows it in no recording and no history row (test-serve H2).
    @Test func anEnvKeysBase64EchoIsMaskedInRecordings() async throws {
        let key = "K3y/v@l+ue=9"
        let standard = Data(key.utf8).base64EncodedString()
        let urlSafe = Data(("Bearer " + key).utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").trimmingCharacters(in: ["="])
        let routes = ["/b64": StaticRoute(body: #"{"b64": "\#(standard)", "auth": "\#(urlSafe)"}"#)]
        try await withLoopbackServer(routes: routes) { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let script = """
                set output quiet
                let key = env UPKEY
                target b64 { base \(server.baseURL); path /b64; header X-Api-Key:$key }
                set record rec
                call b64
                """
            let (result, _) = try await runScript(script, environment: ["HOME": directory.path, "UPKEY": key], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let recorded = try String(contentsOf: directory.appendingPathComponent("rec/b64.json"), encoding: .utf8)
            #expect(!recorded.contains(standard) && !recorded.contains("SzN5L3ZAbCt1ZT05") && recorded.contains(#""b64": "***""#), "\(recorded)")
            #expect(!recorded.contains(String(urlSafe.dropFirst(12).prefix(12))), "the key inside a longer encoded text: \(recorded)")
            let state = directory.appendingPathComponent(".local/state/wsh").path
            for name in (try? FileManager.default.contentsOfDirectory(atPath: state)) ?? [] {
                let bytes = FileManager.default.contents(atPath: state + "/" + name) ?? Data()
                #expect(bytes.range(of: Data(standard.utf8)) == nil, "\(name) holds the key's base64")
            }
        }
    }

    /// A target that answered 201 (create) then 200 replays the 200: the latest success is the
    /// default sample; the 201 stays in its own file and replays under `status 201` (it replayed 201).
    @Test func theLatestSuccessRecordedIsWhatAReplayAnswers() async throws {
        let routes = ["/created": StaticRoute(status: 201, body: #"{"step": "created"}"#), "/ok": StaticRoute(body: #"{"step": "ok"}"#)]
        try await withLoopbackServer(routes: routes) { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let script = """
                set output quiet
                target item { base \(server.baseURL); path /{step} }
                set record rec
                call item step=created
                call item step=ok
                save session.wsh
                """
            let (result, _) = try await runScript(script, environment: ["HOME": directory.path], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let replay = try await WSHProcess.run(["--stub", "-c", """
                set output quiet
                source session.wsh
                call item step=x
                print status .step
                set stub immediate status 201
                call item step=x
                print status .step
                """], environment: ["HOME": directory.path], directory: directory)
            #expect(replay.status == 0, "\(replay.stderr)")
            #expect(replay.stdout == "200 ok\n201 created\n", "\(replay.stdout)")
        }
    }
}
