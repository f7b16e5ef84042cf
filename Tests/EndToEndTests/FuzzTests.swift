import Foundation
import Testing
import TestSupport

/// `wsh fuzz` as a user runs it, against servers it did not write: the planted-defect server
/// (Tests/Files/planted) after `use openapi` of its document, and targets declared by hand
/// against the loopback test server.
@Suite struct FuzzTests {
    static func script(_ server: PlantedServer, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("planted.wsh")
        try "use openapi \(PlantedServer.document)\nset base \(server.baseURL)\n".write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    /// Every planted defect found in 600 calls, each failure with a reproducer that fails again:
    /// its wsh lines pasted after the same two lines (exit 4 for its `expect`, or 3 where the
    /// call fails on its own: the time-out, a status the target's `validate` refuses), its curl
    /// command getting the status the fuzzer got.
    @Test func findsEveryPlantedDefectAndEachReproducerFailsAgain() async throws {
        try await PlantedServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            let script = try Self.script(server, in: directory)
            let report = directory.appendingPathComponent("report.json")
            let junit = directory.appendingPathComponent("report.xml")
            let result = try await WSHProcess.run(["fuzz", script, "--calls", "600", "--seed", "1", "--stateful", "--allow-writes",
                                                   "--timeout", "2s", "--report-json", report.path, "--report-junit", junit.path], directory: directory)
            #expect(result.status == 4, "\(result.stderr)")
            #expect(result.stderr.contains("wsh fuzz: 16 targets at \(server.baseURL), up to 600 calls, seed 1"), "\(result.stderr)")
            #expect(try server.requests().count == 600)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
            let failures = try #require(json["failures"] as? [[String: Any]])
            let defects = try PlantedServer.defects()
            var found: Set<String> = []
            for failure in failures {
                let target = failure["target"] as? String ?? "", oracle = failure["oracle"] as? String ?? ""
                let shown = defects.filter { $0.isShown(byTarget: target, oracle: oracle) }.map(\.id)
                #expect(!shown.isEmpty, "a failure that is no planted defect: \(failure)")
                found.formUnion(shown)
            }
            #expect(found.count == 13, "found \(found.sorted()); stdout:\n\(result.stdout)")
            let xml = try String(contentsOf: junit, encoding: .utf8)
            #expect(xml.contains(#"<testcase classname="searchNotes" name="server-error">"#) && xml.contains(#"<failure message="500" type="server-error">"#))

            for failure in failures {
                let lines = try #require(failure["wsh"] as? String)
                let again = try await WSHProcess.run(["-c", "use openapi \(PlantedServer.document)\nset base \(server.baseURL)\n" + lines], directory: directory)
                let expected: Int32 = lines.contains("\nexpect ") || lines.hasPrefix("expect ") ? 4 : 3
                #expect(again.status == expected, "\(lines)\n\(again.stderr)")
                #expect(failure["oracle"] as? String != "server-error" || again.stderr.contains("HTTP 500"), "\(again.stderr)")
                if let curl = failure["curl"] as? String, let status = failure["status"] as? Int {
                    let sent = try await Self.shell(curl + " -s -o /dev/null -w '%{http_code}'", in: directory)
                    // A chain's commands are all run; the last one's status is the one that failed.
                    #expect(sent.hasSuffix(String(status)), "\(curl)")
                }
            }
        }
    }

    /// The same seed sends the same requests, in the same order, to a fresh server.
    @Test func theSameSeedSendsTheSameRequests() async throws {
        var runs: [[String]] = []
        for _ in 0..<2 {
            try await PlantedServer.with { server in
                let directory = try WSHProcess.temporaryDirectory()
                let result = try await WSHProcess.run(["fuzz", try Self.script(server, in: directory), "searchNotes", "getUser", "greet",
                                                       "--calls", "80", "--seed", "42"], directory: directory)
                #expect(result.status == 4, "\(result.stderr)")
                runs.append(try server.requests().map(\.line))
            }
        }
        #expect(runs[0].count == 80)
        #expect(runs[0] == runs[1])
    }

    /// Only loopback unless allowed; writes left out unless allowed, and said so; bad options
    /// and unknown targets are errors in the user's words.
    @Test func refusesOtherHostsLeavesOutWritesAndSaysWhatIsWrong() async throws {
        let away = try await WSHProcess.run(["-c", "target t {\n base https://api.example.com\n path /x\n}\nfuzz t"])
        #expect(away.status == 3)
        #expect(away.stderr.contains("will not fuzz api.example.com (target 't'): it is not this machine"), "\(away.stderr)")
        #expect(away.stderr.contains("give --allow-host api.example.com"), "\(away.stderr)")

        try await PlantedServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            let script = try Self.script(server, in: directory)
            let writes = try await WSHProcess.run(["fuzz", script, "createUser", "searchNotes", "--calls", "20", "--seed", "3"], directory: directory)
            #expect(writes.stderr.contains("left out, as they write: POST createUser (give --allow-writes to send them)"), "\(writes.stderr)")
            #expect(try server.requests().allSatisfy { $0.line.hasPrefix("GET ") })
            let unknown = try await WSHProcess.run(["fuzz", script, "searchNote"], directory: directory)
            #expect(unknown.status == 3 && unknown.stderr.contains("unknown target 'searchNote'") && unknown.stderr.contains("did you mean 'searchNotes'?"), "\(unknown.stderr)")
            let badCheck = try await WSHProcess.run(["fuzz", script, "--check", "speed"], directory: directory)
            #expect(badCheck.status == 1 && badCheck.stderr.contains("unknown check 'speed': the checks are server-error, no-answer"), "\(badCheck.stderr)")
        }
    }

    /// A redirect to a host that is not this machine is refused unsent at every hop, as `wsh load`
    /// refuses it: the fuzzed call fails with the refusal, and the other host gets nothing.
    @Test func redirectsToOtherHostsAreRefused() async throws {
        let routes: [String: StaticRoute] = [
            "/away": StaticRoute(status: 307, headers: [("Location", "http://192.0.2.2:9/owned")], body: []),
            "/ok": StaticRoute(body: #"{"id": 1}"#),
        ]
        try await TestServer.with(routes: routes) { server in
            let script = """
                target away { base \(server.baseURL); path /away; method POST; json name=x; sample '{"id": 1}' }
                target ok { base \(server.baseURL); path /ok; sample '{"id": 1}' }
                fuzz away ok --allow-writes --calls 10 --seed 1 --timeout 2s
                """
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status == 4, "\(result.stderr)")
            #expect(result.stdout.contains("✘ away  no-answer") && result.stdout.contains("will not fuzz 192.0.2.2: it is not a loopback address"),
                    "\(result.stdout)")
            #expect(!result.stdout.contains("could not connect") && server.hits("/away") > 0, "\(result.stdout)")
            // No reproducer sends there either: the URL is named only where the error says where the redirect led.
            let named = result.stdout.components(separatedBy: "http://192.0.2.2").count - 1
            #expect(named == result.stdout.components(separatedBy: "(redirected by a 307 to http://192.0.2.2").count - 1, "\(result.stdout)")
        }
    }

    /// A text answer's schema is judged as `expect schema` judges it: a `text/plain` schema of
    /// `type: string` describes the text, one of `type: integer` reads it as JSON. Every `text/*`
    /// answer was passed unchecked (mock tester's F22).
    @Test func aTextAnswerThatBreaksItsSchemaIsFound() async throws {
        let routes: [String: StaticRoute] = ["/count": StaticRoute(contentType: "text/plain", body: "abc"),
                                             "/short": StaticRoute(contentType: "text/plain", body: "toolong"),
                                             "/fine": StaticRoute(contentType: "text/plain", body: "ok")]
        try await TestServer.with(routes: routes) { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            func operation(_ id: String, _ schema: String) -> String {
                #""/\#(id)": {"get": {"operationId": "\#(id)", "responses": {"200": {"description": "ok", "content": {"text/plain": {"schema": \#(schema)}}}}}}"#
            }
            let document = #"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "servers": [{"url": "\#(server.baseURL)"}], "paths": {"#
                + [operation("count", #"{"type": "integer"}"#), operation("short", #"{"type": "string", "maxLength": 3}"#),
                   operation("fine", #"{"type": "string", "maxLength": 3}"#)].joined(separator: ", ") + "}}"
            try document.write(to: directory.appendingPathComponent("text.json"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["fuzz", "text.json", "--calls", "6", "--seed", "1"], directory: directory)
            #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("✘ short  schema: 200"), "\(result.stdout)")
            #expect(result.stdout.contains("✘ count  schema: 200 not JSON"), "\(result.stdout)")
            #expect(result.stdout.contains("✔ fine"), "\(result.stdout)")
        }
    }

    /// Targets declared by hand: the shape of the sample is the schema, a 5xx is found, and the
    /// reproducer is the target's own call.
    @Test func handDeclaredTargetsAreCheckedAgainstTheirSamples() async throws {
        let routes: [String: StaticRoute] = ["/weather": StaticRoute(body: #"{"city": "Suwon", "temp": "hot"}"#)]
        try await TestServer.with(routes: routes) { server in
            let directory = try WSHProcess.temporaryDirectory()
            try #"{"city": "Suwon", "temp": 21.5}"#.write(to: directory.appendingPathComponent("weather.json"), atomically: true, encoding: .utf8)
            let script = """
                target weather {
                  base \(server.baseURL)
                  path /weather
                  query city=Suwon days=3
                  sample @weather.json
                }
                fuzz weather --calls 30 --seed 5
                """
            let result = try await WSHProcess.run(["-c", script], directory: directory)
            #expect(result.status == 4, "\(result.stderr)")
            #expect(result.stdout.contains("✘ weather  schema: 200 /temp: number"), "\(result.stdout)")
            #expect(result.stdout.contains("wsh:  call weather "), "\(result.stdout)")
        }
    }

    /// The requests of a .http file and of a Postman collection are fuzzed as declared targets
    /// are: the query items of their URLs and the fields of their JSON bodies, typed by their values;
    /// the reproducer writes the request out, since `call` would send the URL's own items too.
    @Test func fuzzesTheRequestsOfHTTPFilesAndPostmanCollections() async throws {
        try await PlantedServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try """
                @host = \(server.baseURL)

                ### Search notes
                GET {{host}}/search?q=hello

                ### Make a user
                POST {{host}}/users
                Content-Type: application/json

                {"name": "Ada", "email": "ada@example.com"}
                """.write(to: directory.appendingPathComponent("planted.http"), atomically: true, encoding: .utf8)
            let http = try await WSHProcess.run(["fuzz", "planted.http", "--calls", "200", "--seed", "3", "--allow-writes"], directory: directory)
            #expect(http.status == 4, "\(http.stderr)")
            #expect(http.stdout.contains("✘ Search-notes  server-error: 500"), "\(http.stdout)")
            #expect(http.stdout.contains("wsh:  get \(server.baseURL)/search q=="), "\(http.stdout)")
            #expect(http.stdout.contains("✘ Make-a-user  server-error: 500"), "\(http.stdout)")
            #expect(try server.requests().contains { $0.line == "POST /users" && $0.defect == "D3" })

            try """
                {"info": {"name": "Planted", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
                 "variable": [{"key": "base", "value": "\(server.baseURL)"}],
                 "item": [{"name": "Greet", "request": {"method": "GET", "url": {"raw": "{{base}}/greet?name=Ada", "host": ["{{base}}"],
                           "path": ["greet"], "query": [{"key": "name", "value": "Ada"}]}}}]}
                """.write(to: directory.appendingPathComponent("planted.postman_collection.json"), atomically: true, encoding: .utf8)
            let postman = try await WSHProcess.run(["fuzz", "planted.postman_collection.json", "--calls", "60", "--seed", "3"], directory: directory)
            #expect(postman.status == 4, "\(postman.stderr)")
            #expect(postman.stdout.contains("✘ Greet  server-error: 500"), "\(postman.stdout)")
        }
    }

    /// A key from the environment, sent in every call and echoed back by the server inside a
    /// value that breaks the sample's shape, is in no form in the output, the reproducers or the
    /// reports; the key is never changed by the fuzzer.
    @Test func aSecretIsNeverShownOrFuzzed() async throws {
        let secret = "s3cr3t-Key/with+chars"
        try await TestServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try #"{"method": "GET", "query": 1}"#.write(to: directory.appendingPathComponent("echo.json"), atomically: true, encoding: .utf8)
            let script = """
                let key = env FUZZ_KEY
                target echo {
                  base \(server.baseURL)
                  path /echo
                  query appid=$key q=hello
                  sample @echo.json
                }
                fuzz echo --calls 40 --seed 9 --report-json report.json --report-junit report.xml
                """
            let result = try await WSHProcess.run(["-c", script], environment: ["FUZZ_KEY": secret], directory: directory)
            #expect(result.status == 4, "\(result.stderr)")
            #expect(result.stdout.contains("✘ echo  schema: 200 /query: number"), "\(result.stdout)")
            // The key was sent, and is shown masked where the answer quotes it.
            #expect(result.stdout.contains("appid=***"), "\(result.stdout)")
            let check = SecretLeakCheck(secret: secret, basicUser: "")
            for text in [result.stdout, result.stderr, try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8),
                         try String(contentsOf: directory.appendingPathComponent("report.xml"), encoding: .utf8)] {
                #expect(check.leaks(in: text).isEmpty, "\(text)")
            }
        }
    }

    /// Credentials typed as text in a target (a Bearer token, an `X-API-Key`, a query `appid`),
    /// echoed back by the server into a value that breaks the sample's shape, are masked in the
    /// output, the curl reproducers and the reports, as a call's sent credentials are elsewhere.
    @Test func literalCredentialsAreMaskedAndNotFuzzed() async throws {
        let secrets = ["LITBEARER98765", "XAPIKEY555551", "LITAPPID12345"]
        try await TestServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try #"{"method": "GET", "query": 1, "headers": 1}"#.write(to: directory.appendingPathComponent("echo.json"), atomically: true, encoding: .utf8)
            let script = """
                target echo {
                  base \(server.baseURL)
                  path /echo
                  query appid=\(secrets[2]) q=hello
                  header Authorization:"Bearer \(secrets[0])"
                  header X-API-Key:\(secrets[1])
                  sample @echo.json
                }
                fuzz echo --calls 40 --seed 9 --report-json report.json --report-junit report.xml
                """
            let result = try await WSHProcess.run(["-c", script], directory: directory)
            #expect(result.status == 4, "\(result.stderr)")
            #expect(result.stdout.contains("✘ echo  schema: 200 /query: number") && result.stdout.contains("curl"), "\(result.stdout)")
            #expect(result.stdout.contains("appid=***"), "\(result.stdout)")
            for secret in secrets {
                let check = SecretLeakCheck(secret: secret, basicUser: "")
                for text in [result.stdout, result.stderr, try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8),
                             try String(contentsOf: directory.appendingPathComponent("report.xml"), encoding: .utf8)] {
                    #expect(check.leaks(in: text).isEmpty, "\(secret): \(text)")
                }
            }
        }
    }

    /// A 200 with an empty body, where the sample (or an OpenAPI schema) says an object comes
    /// back, breaks the schema: no body is no JSON value, as Schemathesis reports it.
    @Test func anEmptyBodyWhereAnObjectIsDeclaredBreaksTheSchema() async throws {
        try await TestServer.with(routes: ["/empty": StaticRoute(body: "")]) { server in
            let script = """
                target empty { base \(server.baseURL); path /empty; sample '{"id": 1}' }
                fuzz empty --calls 5 --seed 1
                """
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status == 4, "\(result.stdout)")
            #expect(result.stdout.contains("✘ empty  schema: 200 empty body"), "\(result.stdout)")
        }
    }

    /// Ctrl-C stops the run: the report of what ran is printed, and the exit status is 130.
    @Test func interruptingPrintsWhatRanAndExits130() async throws {
        try await PlantedServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            // listItems sleeps 8 s past page_size 500: a time-out of a minute keeps calls in flight.
            let running = try RunningWSH(["fuzz", try Self.script(server, in: directory), "listItems", "--calls", "100000", "--seed", "1",
                                          "--timeout", "60s"], directory: directory)
            #expect(running.waitForOutput("up to 100000 calls", inStderr: true))
            #expect(try await Self.wait { try server.requests().count >= 5 })
            running.interrupt()
            #expect(running.waitForExit() == 130)
            #expect(running.stdout.contains(", interrupted: "), "\(running.stdout)")
        }
    }

    /// `--check location` and `--check after-delete` judge the chains of `--stateful` only: without
    /// it they could never fail, so asking for them is a usage error, said before any call.
    @Test func chainChecksNeedStateful() async throws {
        let result = try await WSHProcess.run(["-c", "target t { base http://127.0.0.1:9; path /x }\nfuzz t --check server-error --check after-delete"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("--check after-delete needs --stateful"), "\(result.stderr)")
        #expect(!result.stderr.contains("nothing answered"), "\(result.stderr)")
        // `wsh fuzz` from the system shell took it and reported no failures, exit 0.
        let directory = try WSHProcess.temporaryDirectory()
        try "target t { base http://127.0.0.1:9; path /x }\n".write(to: directory.appendingPathComponent("t.wsh"), atomically: true, encoding: .utf8)
        let command = try await WSHProcess.run(["fuzz", "t.wsh", "--check", "location", "--calls", "3"], directory: directory)
        #expect(command.status == 1, "\(command.stdout)\(command.stderr)")
        #expect(command.stderr.contains("--check location needs --stateful"), "\(command.stderr)")
    }

    /// A run where no call got an answer says what stood in the way: a server that takes longer
    /// than `--timeout` is there, so its note is the time-out; a refused connection's is the address.
    @Test func nothingAnsweredSaysWhetherTheServerWasSlowOrAbsent() async throws {
        try await TestServer.with { server in
            let slow = try await WSHProcess.run(["-c", "target hangs { base \(server.baseURL); path /never }\nfuzz hangs --calls 2 --timeout 200ms --seed 1"])
            #expect(slow.status != 0, "\(slow.stdout)")
            #expect(slow.stderr.contains("timed out after 200 ms"), "\(slow.stderr)")
            #expect(slow.stderr.contains("note: the server answers more slowly than --timeout allows"), "\(slow.stderr)")
            #expect(!slow.stderr.contains("is the server running?"), "\(slow.stderr)")
        }
        let absent = try await WSHProcess.run(["-c", "target gone { base http://127.0.0.1:9; path /x }\nfuzz gone --calls 2 --seed 1"])
        #expect(absent.stderr.contains("nothing answered at http://127.0.0.1:9"), "\(absent.stderr)")
        #expect(absent.stderr.contains("note: is the server running?"), "\(absent.stderr)")
    }

    /// A target whose only call was cancelled by Ctrl-C passed nothing: it is not shown ✔, and
    /// its JUnit test cases are skipped, not passed.
    @Test func aTargetWhoseOnlyCallWasInterruptedIsNotShownPassing() async throws {
        try await TestServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try "target hangs { base \(server.baseURL); path /never; sample '{\"id\": 1}' }\n"
                .write(to: directory.appendingPathComponent("hangs.wsh"), atomically: true, encoding: .utf8)
            let running = try RunningWSH(["fuzz", "hangs.wsh", "--seed", "1", "--timeout", "60s", "--report-junit", "report.xml"], directory: directory)
            #expect(running.waitForOutput("up to 100 calls", inStderr: true))
            #expect(try await Self.wait { server.hits("/never") >= 1 })
            running.interrupt()
            #expect(running.waitForExit() == 130)
            #expect(!running.stdout.contains("✔ hangs") && running.stdout.contains("- hangs: not judged: its one call was cancelled"), "\(running.stdout)")
            let xml = try String(contentsOf: directory.appendingPathComponent("report.xml"), encoding: .utf8)
            #expect(xml.contains("<skipped"), "\(xml)")
        }
    }

    static func wait(_ condition: @escaping @Sendable () throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// `command` run by sh in `directory`: its standard output.
    static func shell(_ command: String, in directory: URL) async throws -> String {
        String(decoding: try await runProgram("/bin/sh", ["-c", command], directory: directory).output, as: UTF8.self)
    }
}
