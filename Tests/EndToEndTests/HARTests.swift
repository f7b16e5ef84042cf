import Foundation
import Testing
import TestSupport

/// HAR out of the call history, checked against the HAR 1.2 JSON Schema (har-schema, with the
/// jsonschema package: Tests/Schemas/har/SOURCES.md) and read back by `import har`; and HAR files
/// written by k6's team (Tests/Files/har/SOURCES.md) imported and sent to httpbin.
@Suite struct HARTests {
    static let schemas = HTTPBinServer.repository.appendingPathComponent("Tests/Schemas/har")
    static let files = HTTPBinServer.repository.appendingPathComponent("Tests/Files/har")

    /// What har-schema finds wrong in `file`: nothing, or its errors (PATH: MESSAGE lines).
    static func schemaErrors(_ file: URL) throws -> String? {
        let python = (ProcessInfo.processInfo.environment["WSH_OPENAPI_VALIDATOR_VENV"] ?? "/tmp/wsh-openapi-validator") + "/bin/python"
        #expect(FileManager.default.isExecutableFile(atPath: python), "run scripts/ensure-openapi-spec-validator.sh")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [schemas.appendingPathComponent("validate.py").path, schemas.path, file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.runSerially()
        let text = String(decoding: output.fileHandleForReading.readToEndRetryingInterrupts(), as: UTF8.self)
        process.waitUntilExitPolling()
        return process.terminationStatus == 0 ? nil : text
    }

    /// A loopback server, a scratch directory to run in and one for the history (`XDG_STATE_HOME`).
    static func withServerAndScratch(_ body: (TestServer, URL, URL) async throws -> Void) async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            let state = try WSHProcess.temporaryDirectory()
            defer {
                ScratchDirectory.remove(directory)
                ScratchDirectory.remove(state)
            }
            try await body(server, directory, state)
        }
    }

    /// The entries of a HAR file that har-schema accepts and that gives `secret` away in no form.
    static func checkedEntries(_ har: URL, secret: String) throws -> [[String: Any]] {
        let errors = try schemaErrors(har)
        #expect(errors == nil, "har-schema: \(errors ?? "")")
        let text = try String(contentsOf: har, encoding: .utf8)
        #expect(SecretLeakCheck(secret: secret, basicUser: "").leaks(in: text).isEmpty)
        let document = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return (document?["log"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []
    }

    /// `history export har` writes the session's calls (a secret header, a JSON body, a binary answer,
    /// a call that got no answer) as a HAR that har-schema accepts, with the secret masked; `import
    /// har` of it declares targets whose calls send what the first calls sent.
    @Test func historyExportsValidHARThatImportsBackToTheSameRequests() async throws {
        try await Self.withServerAndScratch { server, directory, state in
            let secret = "har-secret-\(UUID().uuidString.prefix(8))"
            let environment = ["XDG_STATE_HOME": state.path, "WSH_HAR_KEY": secret]
            let sent = try await WSHProcess.run(["-c", """
                let key = env WSH_HAR_KEY
                set bail off
                get \(server.baseURL)/echo/items?page=2 X-Key:$key X-Plain:yes
                post \(server.baseURL)/echo/items name=Ann age:=3
                get http://127.0.0.1:1/nothing
                history export har > calls.har
                """], environment: environment, directory: directory)
            #expect(sent.stderr.contains("wrote 3 calls to calls.har"), "\(sent.stderr)")
            let har = directory.appendingPathComponent("calls.har")
            let entries = try Self.checkedEntries(har, secret: secret)
            #expect(entries.count == 3)
            #expect((entries.last?["response"] as? [String: Any])?["status"] as? Int == 0)
            #expect((entries.last?["_error"] as? String)?.contains("connection refused") == true)

            let replayed = try await WSHProcess.run(["-c", """
                import har calls.har as h
                call h.items X-Key:masked-again
                call h.items-2
                """], directory: directory)
            #expect(replayed.status == 0, "\(replayed.stderr)")
            let first = try HTTPFileTests.documents(sent.stdout), again = try HTTPFileTests.documents(replayed.stdout)
            #expect(first.count == 2 && again.count == 2, "\(replayed.stdout)")
            for (one, other) in zip(first, again) {
                for key in ["method", "path", "query", "body"] {
                    #expect(one[key] as? String == other[key] as? String, "\(key)")
                }
            }
            let headers = (again.first?["headers"] as? [[String]] ?? []).filter { $0[0].lowercased().hasPrefix("x-") }
            #expect(headers.sorted { $0[0] < $1[0] } == [["X-Key", "masked-again"], ["X-Plain", "yes"]], "\(headers)")
            // A masked secret is a parameter the call must give: it sent `***` as the key (runner tester's D33).
            let notGiven = try await WSHProcess.run(["-c", "import har calls.har as h\ncall h.items"], directory: directory)
            #expect(notGiven.status != 0 && notGiven.stderr.contains("X-Key") && !notGiven.stdout.contains("***"), "\(notGiven.stderr)")
        }
    }

    /// An answer a `--report-har` cut (a body over 64 KB) was kept as a whole sample (runner
    /// tester's D10): the report marks it in its content's comment, and `import har` leaves it out
    /// with a note. An answer whose text masking made shorter than its `size` is whole (review 10
    /// H2), as is a browser's whose `size` is larger than its text (a BOM).
    @Test func aCutAnswerIsNoSample() async throws {
        let big = String(repeating: "0123456789", count: 7_000)
        try await withLoopbackServer(routes: ["/big": StaticRoute(contentType: "text/plain", body: big)]) { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try """
                let key = env APIKEY
                get \(server.baseURL)/big > /dev/null
                expect status == 200
                get \(server.baseURL)/echo/masked X-Api-Key:$key > /dev/null
                expect status == 200
                """.write(to: directory.appendingPathComponent("t.wsh"), atomically: true, encoding: .utf8)
            let environment = ["APIKEY": "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"]
            let tested = try await WSHProcess.run(["test", "t.wsh", "--report-har", "r.har"], environment: environment, directory: directory)
            #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
            let result = try await WSHProcess.run(["--stub", "-c", "set bail off\nset output quiet\nimport har r.har --samples\ncall masked X-Api-Key:x\nprint body | length\ncall big"],
                                                  directory: directory)
            #expect(result.stderr.contains("note: 1 answer the HAR holds cut short"), "\(result.stderr)")
            #expect(result.stderr.contains("no sample"), "\(result.stderr)")
            #expect(Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)).map { $0 > 100 } == true, "\(result.stdout)")
        }
        let directory = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(directory) }
        let browser = #"{"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [{"startedDateTime": "2026-11-30T10:00:00Z", "time": 1, "request": {"method": "GET", "url": "http://127.0.0.1:9/bom", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [], "queryString": [], "headersSize": -1, "bodySize": 0}, "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [], "content": {"size": 8, "mimeType": "text/plain", "text": "whole"}, "redirectURL": "", "headersSize": -1, "bodySize": -1}, "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}"#
        try browser.write(to: directory.appendingPathComponent("b.har"), atomically: true, encoding: .utf8)
        let read = try await WSHProcess.run(["--stub", "-c", "import har b.har --samples\ncall bom"], directory: directory)
        #expect(read.status == 0 && read.stdout.contains("whole") && !read.stderr.contains("cut short"), "\(read.stdout)\(read.stderr)")
    }

    /// A masked query item, form field or JSON member of a HAR wsh wrote is a parameter the call
    /// must give, not `***` sent as the credential (runner tester's D33).
    @Test func maskedValuesOfAHARAreParametersToGive() async throws {
        try await Self.withServerAndScratch { server, directory, state in
            let environment = ["XDG_STATE_HOME": state.path, "WSH_HAR_KEY": "realAppId77"]
            let sent = try await WSHProcess.run(["-c", """
                let key = env WSH_HAR_KEY
                get "\(server.baseURL)/echo/ih?appid=$key&q=1" > /dev/null
                post \(server.baseURL)/echo/login password=$key user=ann > /dev/null
                history export har > calls.har
                """], environment: environment, directory: directory)
            #expect(sent.status == 0, "\(sent.stderr)")
            let imported = try await WSHProcess.run(["-c", "import har calls.har as h\ncall h.ih\n"], directory: directory)
            #expect(imported.status != 0 && imported.stderr.contains("appid"), "\(imported.stderr)")
            #expect(imported.stderr.contains("each is a parameter its call must give"), "\(imported.stderr)")
            let given = try await WSHProcess.run(["-c", "set output raw\nimport har calls.har as h\ncall h.ih appid=again\ncall h.login password=pw2"],
                                                 directory: directory)
            #expect(given.status == 0, "\(given.stderr)")
            let echoes = try HTTPFileTests.documents(given.stdout)
            #expect(echoes.first?["query"] as? String == "appid=again&q=1", "\(given.stdout)")
            let login = (echoes.last?["body"] as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] }
            #expect(login == ["password": "pw2", "user": "ann"], "\(given.stdout)")
        }
    }

    /// A request body that is not text goes into the HAR in base64 (`"encoding": "base64"`, as a
    /// response's content does), and importing it back says it is not declared, and why; it was
    /// written as U+FFFD for each byte that is not UTF-8, and the warning spoke of curl's options.
    @Test func aBinaryRequestBodyIsExportedInBase64AndNotImportedAsText() async throws {
        try await Self.withServerAndScratch { server, directory, state in
            let bytes = Data([0x00, 0x01, 0x02, 0xFF, 0xFE])
            try bytes.write(to: directory.appendingPathComponent("bin.dat"))
            let sent = try await WSHProcess.run(["-c", "post \(server.baseURL)/echo/up @bin.dat > /dev/null\nhistory export har > calls.har"],
                                                environment: ["XDG_STATE_HOME": state.path], directory: directory)
            #expect(sent.status == 0, "\(sent.stderr)")
            let entries = try Self.checkedEntries(directory.appendingPathComponent("calls.har"), secret: "no-secret-here")
            let postData = (entries.first?["request"] as? [String: Any])?["postData"] as? [String: Any]
            #expect(postData?["encoding"] as? String == "base64" && postData?["text"] as? String == bytes.base64EncodedString(), "\(String(describing: postData))")
            let imported = try await WSHProcess.run(["-c", "import har calls.har as h\ntargets"], directory: directory)
            #expect(imported.stderr.contains("a request not declared: POST \(server.baseURL)/echo/up sends a body that is not text"), "\(imported.stderr)")
            #expect(!imported.stderr.contains("--data-binary"), "\(imported.stderr)")
        }
    }

    /// k6's example HARs: a text body with its media type, a query given as HAR's queryString list,
    /// a form given as HAR's params (percent-encoded, as k6's test writes them), and HTTP/2
    /// pseudo-headers, which are not headers and are left out.
    @Test func k6sHARFilesImportAndReachHTTPBin() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            for name in try FileManager.default.contentsOfDirectory(atPath: Self.files.path) where name.hasSuffix(".har") {
                let text = try String(contentsOf: Self.files.appendingPathComponent(name), encoding: .utf8)
                    .replacingOccurrences(of: "https://httpbin.org", with: httpbin.baseURL)
                    .replacingOccurrences(of: "https://httpbin.test.k6.io", with: httpbin.baseURL)
                    .replacingOccurrences(of: "http://test.loadimpact.com", with: httpbin.baseURL + "/anything")
                try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
            let result = try await WSHProcess.run(["-c", """
                import har k6-full.har as full
                import har k6-x-www-form-url-encoded.har as form
                import har k6-pseudo-headers.har as pseudo
                set output quiet
                call full.post
                print .data .headers.Content-Type
                call full.get
                print .args.page
                call form.post
                print .form
                call pseudo.path
                print .headers.Authorization
                show pseudo.path
                """], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "92n2nf093n application/x-www-urlencoded", "\(result.stdout)")
            #expect(lines.dropFirst().first == "Home", "\(result.stdout)")
            #expect(lines.dropFirst(2).first == #"{"field[1]":"value[1]","field[2]":"value[2]","field[3]":"value[3]"}"#, "\(result.stdout)")
            #expect(!result.stdout.contains("header   :"), "pseudo-headers are not headers: \(result.stdout)")
        }
    }

    /// A call that got no answer (nothing listens on its port) keeps its method and URL in the
    /// test run's HAR and JSON reports; `import har` declares nothing for an entry whose URL is not
    /// absolute (`""`, `/path`), with a warning.
    @Test func aCallWithNoAnswerKeepsItsURLInTheReports() async throws {
        let port = try LoopbackPort.free()
        let directory = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(directory) }
        try "# @name down\nGET http://127.0.0.1:\(port)/nothing/here\nX-Mine: 1\n".write(to: directory.appendingPathComponent("to.http"), atomically: true, encoding: .utf8)
        let result = try await WSHProcess.run(["test", "to.http", "--report-har", "r.har", "--report-json", "r.json"], directory: directory)
        #expect(result.status != 0, "\(result.stdout)")
        let entries = try Self.checkedEntries(directory.appendingPathComponent("r.har"), secret: "no-secret-here")
        let request = entries.first?["request"] as? [String: Any]
        #expect(request?["url"] as? String == "http://127.0.0.1:\(port)/nothing/here", "\(entries)")
        #expect(request?["method"] as? String == "GET", "\(entries)")
        #expect((request?["headers"] as? [[String: Any]])?.contains { $0["name"] as? String == "X-Mine" } == true, "\(entries)")
        let call = (try TestRunnerTests.reportedFiles(directory.appendingPathComponent("r.json")).first?["calls"] as? [[String: Any]])?.first
        #expect(call?["method"] as? String == "GET" && call?["url"] as? String == "http://127.0.0.1:\(port)/nothing/here", "\(call ?? [:])")
        try """
            {"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}, "entries": [
              {"request": {"method": "GET", "url": "", "headers": [], "queryString": []}, "response": {"status": 0, "content": {}}},
              {"request": {"method": "GET", "url": "/relative/path", "headers": [], "queryString": []}, "response": {"status": 0, "content": {}}}]}}
            """.write(to: directory.appendingPathComponent("bad.har"), atomically: true, encoding: .utf8)
        let imported = try await WSHProcess.run(["-c", "import har bad.har\ntargets"], directory: directory)
        #expect(imported.stderr.contains(#"warning: bad.har: 2 requests not declared: a HAR request's URL is absolute (http://HOST/...), not "", /relative/path"#),
                "\(imported.stderr)")
        #expect(!imported.stdout.contains("http://"), "\(imported.stdout)")
    }

    /// `import har` of a `wsh test --report-har` file names each target after the one that made
    /// the call (the entry's comment `wsh test FILE: NAME`), not after its URL's path.
    @Test func aTestReportsHARGivesItsTargetNamesBack() async throws {
        let server = try await TestServer.start()
        let directory = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(directory) }
        try "# @name getUser\nGET \(server.baseURL)/echo/users/1\n\n###\n# @name post-json\nPOST \(server.baseURL)/echo/post\n\n{}\n"
            .write(to: directory.appendingPathComponent("req.http"), atomically: true, encoding: .utf8)
        let tested = try await WSHProcess.run(["test", "req.http", "--report-har", "r.har"], directory: directory)
        let imported = try await WSHProcess.run(["-c", "import har r.har as r\ntargets\ncall r.getUser"], directory: directory)
        try await server.shutdown()
        #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
        #expect(imported.stdout.contains("r.getUser") && imported.stdout.contains("r.post-json"), "\(imported.stdout)\(imported.stderr)")
        #expect(!imported.stdout.contains("r.users"), "\(imported.stdout)")
        #expect(imported.stdout.contains("/echo/users/1"), "the call is sent again: \(imported.stdout)\(imported.stderr)")
    }

    /// A User-Agent and Accept-Encoding the user gave are in the history's HAR (wsh writes none of its
    /// own defaults there), and `import har` of a HAR wsh wrote keeps them: the call sends them again.
    @Test func aUserAgentTheUserGaveSurvivesTheHARRoundTrip() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            let state = try WSHProcess.temporaryDirectory()
            defer {
                ScratchDirectory.remove(directory)
                ScratchDirectory.remove(state)
            }
            let environment = ["XDG_STATE_HOME": state.path]
            let sent = try await WSHProcess.run(["-c", "get \(httpbin.baseURL)/anything/acc Accept:application/xml User-Agent:my-agent/1.0 "
                                                 + "Accept-Encoding:identity > /dev/null\nget \(httpbin.baseURL)/anything/plain > /dev/null\n"
                                                 + "history export har > a.har"],
                                                environment: environment, directory: directory)
            #expect(sent.status == 0, "\(sent.stderr)")
            let again = try await WSHProcess.run(["-c", "import har a.har\ncall acc"], environment: environment, directory: directory)
            #expect(again.status == 0, "\(again.stderr)")
            let answer = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
            let headers = answer?["headers"] as? [String: String] ?? [:]
            #expect(headers["User-Agent"] == "my-agent/1.0", "\(headers)")
            #expect(headers["Accept-Encoding"] == "identity", "\(headers)")
            #expect(headers["Accept"] == "application/xml", "\(headers)")
            // wsh's own defaults, which its HAR records too, are not made the target's headers (review).
            let plain = try await WSHProcess.run(["-c", "import har a.har\nshow plain"], environment: environment, directory: directory)
            #expect(plain.status == 0 && !plain.stdout.contains("User-Agent") && !plain.stdout.contains("Accept"), "\(plain.stdout)\(plain.stderr)")
            // Another file's request of the same name is NAME-2 beside it, as before reloads replaced a file's own (review).
            try FileManager.default.copyItem(at: directory.appendingPathComponent("a.har"), to: directory.appendingPathComponent("b.har"))
            let both = try await WSHProcess.run(["-c", "import har a.har\nimport har b.har\ntargets"], environment: environment, directory: directory)
            #expect(both.status == 0 && both.stdout.contains("acc-2") && both.stdout.contains("plain-2") && !both.stderr.contains("warning"),
                    "\(both.stdout)\(both.stderr)")
        }
    }

    /// A browser's multipart post, given as `params` with the browser's `Content-Type:
    /// multipart/form-data; boundary=...` header (as Firefox writes it): declared, its parts sent
    /// as text parts with a boundary of the body's own; a file part is the text it holds, with a note.
    @Test func aBrowsersMultipartParamsAreDeclaredAndSent() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try """
                {"log": {"version": "1.2", "creator": {"name": "Firefox", "version": "1"}, "entries": [{"request": {"method": "POST",
                  "url": "\(httpbin.baseURL)/anything/up", "headers": [{"name": "Content-Type", "value": "multipart/form-data; boundary=----X"}],
                  "queryString": [], "postData": {"mimeType": "multipart/form-data; boundary=----X",
                  "params": [{"name": "t", "value": "text"}, {"name": "g", "value": "hello", "fileName": "x.txt", "contentType": "text/plain"}]}},
                  "response": {"status": 200, "headers": [], "content": {"size": 0, "mimeType": "application/json"}}}]}}
                """.write(to: directory.appendingPathComponent("mp.har"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["-c", "import har mp.har\ncall up"], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.contains("warning"), "\(result.stderr)")
            #expect(result.stderr.contains("note: 1 multipart part of a file sent as text"), "\(result.stderr)")
            let answer = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(answer?["form"] as? [String: String] == ["t": "text", "g": "hello"], "\(result.stdout)")
            let contentType = (answer?["headers"] as? [String: String])?["Content-Type"] ?? ""
            #expect(contentType.hasPrefix("multipart/form-data; boundary=") && !contentType.contains("----X"), "\(contentType)")
        }
    }

    /// `wsh test --report-har` writes every call of every file, bodies included, secrets masked,
    /// each at its own start; har-schema accepts it.
    @Test func aTestRunWritesEveryCallAsHAR() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let secret = "report-secret-\(UUID().uuidString.prefix(8))"
            try """
                let key = env WSH_REPORT_KEY
                post \(server.baseURL)/echo/a token=$key
                expect status == 200
                get \(server.baseURL)/echo/b
                """.write(to: directory.appendingPathComponent("one.wsh"), atomically: true, encoding: .utf8)
            try "get \(server.baseURL)/echo/c\n".write(to: directory.appendingPathComponent("two.wsh"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["test", "--report-har", "run.har", "one.wsh", "two.wsh"],
                                                  environment: ["WSH_REPORT_KEY": secret], directory: directory)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            let har = directory.appendingPathComponent("run.har")
            let entries = try Self.checkedEntries(har, secret: secret)
            #expect(entries.map { ($0["request"] as? [String: Any])?["url"] as? String ?? "" }
                    == ["\(server.baseURL)/echo/a", "\(server.baseURL)/echo/b", "\(server.baseURL)/echo/c"])
            let posted = (entries.first?["request"] as? [String: Any])?["postData"] as? [String: Any]
            #expect(posted?["text"] as? String == #"{"token":"***"}"#, "\(posted ?? [:])")
            let answered = ((entries.last?["response"] as? [String: Any])?["content"] as? [String: Any])?["text"] as? String
            #expect(answered?.contains("/echo/c") == true, "every answer's body is kept: \(answered ?? "none")")
        }
    }
}
