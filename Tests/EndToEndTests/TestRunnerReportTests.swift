import Foundation
import Testing
import TestSupport

/// The reports of `wsh test`: JUnit XML valid against Jenkins's schema (xmllint), TAP 14, JSON
/// with every call and check, and the HTML page as headless Chromium renders it; and no secret
/// in any of them, in any form.
@Suite struct TestRunnerReportTests {
    static let secret = "t0k/en+Sécret 42"
    static let check = SecretLeakCheck(secret: secret, basicUser: "alice")

    /// A passing file and a failing one that send the secret every way and get it echoed back.
    static func suite(_ server: TestServer) throws -> URL {
        let secretCalls = """
            let token = env WSH_TOKEN
            target echo { base \(server.baseURL); path /echo; method POST; query appid=$token; json key=$token note="<&>" }
            plugin auth basic alice:$token everywhere

            """
        return try TestRunnerTests.suite([
            "a-pass.wsh": secretCalls + "call echo\nexpect status == 200\nexpect .method == POST\n",
            "b-fail.wsh": secretCalls + "call echo\nexpect status == 200\nexpect .query == \"<not & this>\"\nexpect .method == POST\n",
        ])
    }

    static func runWithReports(_ server: TestServer) async throws -> (WSHProcess.Result, URL) {
        let directory = try suite(server)
        let result = try await WSHProcess.run(
            ["test", "tests", "--report-junit", "out/junit.xml", "--report-tap", "out/report.tap",
             "--report-json", "out/report.json", "--report-html", "out/html"],
            environment: ["WSH_TOKEN": secret], directory: directory)
        return (result, directory.appendingPathComponent("out"))
    }

    static func tool(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.runSerially()
        let data = output.fileHandleForReading.readToEndRetryingInterrupts()
        process.waitUntilExitPolling()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static var schema: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Schemas/junit-jenkins.xsd").path
    }

    /// A report's forgotten FILE takes the next test's name: `--report-junit t1.wsh t2.wsh` wrote
    /// XML over t1.wsh, and `--report-json notes.txt` over any file. Both are refused, untouched;
    /// an earlier report of the same kind is replaced.
    @Test func aReportIsNeverWrittenOverATestOrAFileThatIsNoSuchReport() async throws {
        let test = "echo hi\n"
        let directory = try TestRunnerTests.suite(["t1.wsh": test, "t2.wsh": test, "notes.txt": "my notes\n", "old.xml": "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"wsh test\" tests=\"0\">\n</testsuites>\n"])
        let tests = directory.appendingPathComponent("tests")
        for arguments in [["--report-junit", "t1.wsh", "t2.wsh"], ["t2.wsh", "--report-json", "t2.wsh"], ["t2.wsh", "--report-tap", "notes.txt"],
                          ["t2.wsh", "--report-har", "notes.txt"]] {
            let result = try await WSHProcess.run(["test"] + arguments, directory: tests)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("\(arguments.first { $0.hasPrefix("--report") } ?? "") "), "\(result.stderr)")
        }
        #expect(try String(contentsOf: tests.appendingPathComponent("t1.wsh"), encoding: .utf8) == test)
        #expect(try String(contentsOf: tests.appendingPathComponent("t2.wsh"), encoding: .utf8) == test)
        #expect(try String(contentsOf: tests.appendingPathComponent("notes.txt"), encoding: .utf8) == "my notes\n")
        let replaced = try await WSHProcess.run(["test", "t1.wsh", "--report-junit", "old.xml"], directory: tests)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try String(contentsOf: tests.appendingPathComponent("old.xml"), encoding: .utf8).contains("t1.wsh"))
    }

    /// A report that could not be written was found out only after every file had run, and the
    /// earlier run's report stayed under its name (saying all passed) for CI to publish. Each
    /// report is checked writable before the first file runs (a usage error, nothing run), and an
    /// earlier report is removed then: a run killed before its end leaves none.
    @Test func reportsAreCheckedBeforeTheRunAndAnEarlierOneDoesNotOutliveIt() async throws {
        let directory = try TestRunnerTests.suite(["t1.wsh": "echo one\n", "notes.txt": "my notes\n"])
        let tests = directory.appendingPathComponent("tests")
        try FileManager.default.createDirectory(at: tests.appendingPathComponent("adir"), withIntermediateDirectories: true)
        for (arguments, reason) in [(["--report-json", "notes.txt/r.json"], "cannot write the report notes.txt/r.json: not a directory"),
                                    (["--report-tap", "r.tap", "--report-junit", "adir"], "cannot write the report adir: is a directory")] {
            let refused = try await WSHProcess.run(["test", "t1.wsh"] + arguments, directory: tests)
            #expect(refused.status == 1 && refused.stderr.contains(reason), "\(arguments): \(refused.stderr)")
            #expect(!refused.stdout.contains("t1.wsh"), "no file runs: \(refused.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: tests.appendingPathComponent("r.tap").path))

        let earlier = try await WSHProcess.run(["test", "t1.wsh", "--report-json", "r.json"], directory: tests)
        #expect(earlier.status == 0 && FileManager.default.fileExists(atPath: tests.appendingPathComponent("r.json").path), "\(earlier.stderr)")
        // Emptied in place, not removed: a hard link to it sees the same (review 12 M1).
        #expect(link(tests.appendingPathComponent("r.json").path, tests.appendingPathComponent("k.json").path) == 0)
        func size(_ name: String) -> Int? {
            (try? FileManager.default.attributesOfItem(atPath: tests.appendingPathComponent(name).path))?[.size] as? Int
        }
        try await withLoopbackServer { server in
            try "get \(server.baseURL)/never\n".write(to: tests.appendingPathComponent("t2.wsh"), atomically: true, encoding: .utf8)
            let running = try RunningWSH(["test", "t1.wsh", "t2.wsh", "--jobs", "1", "--report-json", "r.json"], directory: tests)
            #expect(try await offPool { running.waitForOutput("✓ t1.wsh") })
            #expect(size("r.json") == 0 && size("k.json") == 0, "the earlier report is emptied as the run starts")
            running.interrupt(with: SIGKILL)
            #expect(try await offPool { running.waitForExit() } != nil)
        }
        #expect(size("r.json") == 0, "a killed run leaves no report")
    }

    /// A reader of the lines that goes (`wsh test | head -1`) killed the run by SIGPIPE before
    /// any report was written. With a report asked for, the run goes on and writes it; without,
    /// wsh still stops as `cat` does. The pipe's read end is closed before wsh starts, so its
    /// first line meets a reader that has gone.
    @Test func aReaderThatGoesLosesNoReport() async throws {
        let directory = try TestRunnerTests.suite(["t1.wsh": "echo one\n", "t2.wsh": "echo two\n"])
        let tests = directory.appendingPathComponent("tests")
        let closedPipe = "import os, subprocess, sys\nr, w = os.pipe()\nos.close(r)\nprint(subprocess.run(sys.argv[1:], stdout=w).returncode)\n"
        let kept = try await runProgram("/usr/bin/python3", ["-c", closedPipe, WSHProcess.binary, "test", "t1.wsh", "t2.wsh", "--jobs", "1",
                                                             "--report-json", "r.json"], directory: tests)
        #expect(String(decoding: kept.output, as: UTF8.self) == "0\n")
        let report = try String(contentsOf: tests.appendingPathComponent("r.json"), encoding: .utf8)
        #expect(report.contains("t1.wsh") && report.contains("t2.wsh") && report.contains(#""passed" : 2"#), "\(report)")
        // `--shard` says its slice first, before any file runs.
        let sharded = try await runProgram("/usr/bin/python3", ["-c", closedPipe, WSHProcess.binary, "test", "t1.wsh", "t2.wsh", "--shard", "1/1",
                                                                "--report-junit", "r.xml"], directory: tests)
        #expect(String(decoding: sharded.output, as: UTF8.self) == "0\n")
        #expect(try String(contentsOf: tests.appendingPathComponent("r.xml"), encoding: .utf8).contains("t2.wsh"))
        let stopped = try await runProgram("/usr/bin/python3", ["-c", closedPipe, WSHProcess.binary, "test", "t1.wsh", "t2.wsh"], directory: tests)
        #expect(String(decoding: stopped.output, as: UTF8.self) == "-13\n")
    }

    /// A check in a loop gave JUnit test cases of one name, the failing one between passing ones:
    /// tools that key cases by name merged them and could show the run as passed.
    @Test func aCheckRunAgainInALoopIsACaseOfItsOwnInJUnit() async throws {
        let directory = try TestRunnerTests.suite(["l.wsh": "set bail off\nfor n in 1 2 3 {\n  expect $n != 2\n}\n"])
        let tests = directory.appendingPathComponent("tests")
        let result = try await WSHProcess.run(["test", "l.wsh", "--report-junit", "l.xml"], directory: tests)
        #expect(result.status == 4, "\(result.stderr)")
        let report = try String(contentsOf: tests.appendingPathComponent("l.xml"), encoding: .utf8)
        let names = report.components(separatedBy: "<testcase name=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(names == ["expect $n != 2 (3:10)", "expect $n != 2 (3:10) #2", "expect $n != 2 (3:10) #3"], "\(report)")
    }

    /// JUnit's `classname` was the file's name, `login.wsh`: Jenkins, which splits it at its last
    /// dot, showed every file as a class `wsh` in a package of its own. Then it was the path
    /// without its extension, `/` as `.`, and two files shared one (review 12's L3: `a.wsh` and
    /// `a.http`, `a/b.wsh` and `a.b.wsh`), which Jenkins merges into one class. It is the
    /// directories joined by `.`, then the name with its dots as `_`; the suite keeps the path.
    @Test func junitClassNamesAreThePathOneForEachFile() async throws {
        let directory = try TestRunnerTests.suite(["smoke/login.wsh": "expect 1 == 1\n", "a.wsh": "expect 2 == 2\n",
                                                   "a/b.wsh": "expect 3 == 3\n", "a.b.wsh": "expect 4 == 4\n",
                                                   // A .http file has no checks: its error is its testcase.
                                                   "a.http": "GET http://127.0.0.1:\(try LoopbackPort.free())/gone\n"])
        let result = try await WSHProcess.run(["test", "tests", "--report-junit", "j.xml"], directory: directory)
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        let report = try String(contentsOf: directory.appendingPathComponent("j.xml"), encoding: .utf8)
        let classNames = Set(report.components(separatedBy: "classname=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) })
        #expect(classNames == ["tests.a_wsh", "tests.a_http", "tests.smoke.login_wsh", "tests.a.b_wsh", "tests.a_b_wsh"], "\(report)")
        #expect(report.contains(#"<testsuite name="tests/smoke/login.wsh""#), "\(report)")
    }

    /// After redirects followed, the reports named the last hop's URL as the call's: the request
    /// the test made appeared nowhere. The call's URL is the one called, the final one and each
    /// redirect beside it in the JSON report; the HAR's request is the one called, as
    /// `history export har` writes it.
    @Test func aRedirectedCallIsReportedAsTheRequestMadeWithItsHops() async throws {
        try await withLoopbackServer { server in
            let directory = try TestRunnerTests.suite(["r.wsh": "get \"$base/redirect?n=2\"\nexpect redirects | length == 2\n"])
            let result = try await WSHProcess.run(["test", "tests", "--var", "base=\(server.baseURL)", "--report-json", "r.json",
                                                   "--report-har", "r.har"], directory: directory)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            let call = (try TestRunnerTests.reportedFiles(directory.appendingPathComponent("r.json")).first?["calls"] as? [[String: Any]])?.first ?? [:]
            #expect(call["url"] as? String == "\(server.baseURL)/redirect?n=2", "\(call)")
            #expect(call["finalUrl"] as? String == "\(server.baseURL)/redirect?n=0", "\(call)")
            let hops = (call["redirects"] as? [[String: Any]] ?? []).map { "\($0["method"] ?? "") \($0["url"] ?? "") \($0["status"] ?? "") \($0["location"] ?? "")" }
            #expect(hops == ["GET \(server.baseURL)/redirect?n=2 302 /redirect?n=1", "GET \(server.baseURL)/redirect?n=1 302 /redirect?n=0"], "\(call)")
            let har = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("r.har"))) as? [String: Any]
            let entry = ((har?["log"] as? [String: Any])?["entries"] as? [[String: Any]])?.first
            #expect((entry?["request"] as? [String: Any])?["url"] as? String == "\(server.baseURL)/redirect?n=2", "\(entry ?? [:])")
            #expect((entry?["response"] as? [String: Any])?["status"] as? Int == 200, "\(entry ?? [:])")
        }
    }

    /// `--report-junit same.out --report-tap same.out` kept only the TAP report, and a report
    /// option given twice only its last file, both silently: a CI job then published a report
    /// that was never written. Both are usage errors, before anything runs.
    @Test func twoReportsToOneFileOrOneOptionTwiceIsAUsageError() async throws {
        let directory = try TestRunnerTests.suite(["t1.wsh": "echo hi\n"])
        let tests = directory.appendingPathComponent("tests")
        let same = try await WSHProcess.run(["test", "t1.wsh", "--report-junit", "same.out", "--report-tap", "./same.out"], directory: tests)
        #expect(same.status == 1 && same.stderr.contains("--report-junit and --report-tap both write ./same.out"), "\(same.stderr)")
        let twice = try await WSHProcess.run(["test", "t1.wsh", "--report-junit", "a.xml", "--report-junit=b.xml"], directory: tests)
        #expect(twice.status == 1 && twice.stderr.contains("--report-junit is given twice"), "\(twice.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tests.path).filter { !$0.hasSuffix(".wsh") }.isEmpty)
    }

    /// `--report-json r.json --report-junit link.xml`, link.xml a link to r.json (symbolic, to a
    /// report not written yet, or hard), wrote one report over the other (D29): a usage error
    /// naming both options, before anything runs. Two reports on one log (`/dev/stdout` and
    /// `/dev/stderr`, both a pipe) still go.
    @Test func twoReportsToOneFileThroughALinkIsAUsageError() async throws {
        let directory = try TestRunnerTests.suite(["t1.wsh": "echo hi\n"])
        let tests = directory.appendingPathComponent("tests")
        try FileManager.default.createSymbolicLink(atPath: tests.appendingPathComponent("link.xml").path, withDestinationPath: "r.json")
        let symbolic = try await WSHProcess.run(["test", "t1.wsh", "--report-json", "r.json", "--report-junit", "link.xml"], directory: tests)
        #expect(symbolic.status == 1, "\(symbolic.stdout)\(symbolic.stderr)")
        #expect(symbolic.stderr.contains("--report-junit link.xml and --report-json r.json are one file"), "\(symbolic.stderr)")
        try Data().write(to: tests.appendingPathComponent("e.tap"))
        try FileManager.default.linkItem(atPath: tests.appendingPathComponent("e.tap").path, toPath: tests.appendingPathComponent("hard.xml").path)
        let hard = try await WSHProcess.run(["test", "t1.wsh", "--report-junit", "hard.xml", "--report-tap", "e.tap"], directory: tests)
        #expect(hard.status == 1 && hard.stderr.contains("--report-junit hard.xml and --report-tap e.tap are one file"), "\(hard.stderr)")
        #expect(!symbolic.stdout.contains("passed") && !hard.stdout.contains("passed"), "nothing ran")
        #expect(!FileManager.default.fileExists(atPath: tests.appendingPathComponent("r.json").path))
        let log = try await WSHProcess.run(["test", "t1.wsh", "--report-tap", "/dev/stdout", "--report-json", "/dev/stderr"], directory: tests)
        #expect(log.status == 0 && log.stdout.contains("TAP version 14") && log.stderr.contains("\"errored\""), "\(log.stdout)\(log.stderr)")
        // Both streams on one log (`2>&1`), as CI runs it, were refused as one file (review 15 H1).
        let merged = try await runProgram("/bin/sh", ["-c", "'\(WSHProcess.binary)' test t1.wsh --report-tap /dev/stdout --report-json /dev/stderr 2>&1"],
                                          directory: tests)
        let text = String(decoding: merged.output, as: UTF8.self)
        #expect(merged.status == 0 && text.contains("TAP version 14") && text.contains("\"errored\""), "\(text)")
    }

    /// A binary answer (a PNG) that a failed check looked at was kept as text decoded from its
    /// bytes, U+FFFD for every byte that was no UTF-8, which passed for the body in every report
    /// (D27). The JSON report keeps its bytes as `bodyBase64`, the HAR as base64 content, and the
    /// HTML report says what it is, as Hurl does: `(N bytes of binary, image/png)`.
    @Test func aBinaryAnswerIsKeptAsBytesNotAsText() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try TestRunnerTests.suite(["png.wsh": "target png { base $base; path /image/png }\ncall png\nexpect status == 201\n"])
            let result = try await WSHProcess.run(["test", "tests", "--var", "base=\(httpbin.baseURL)", "--report-json", "r.json",
                                                   "--report-har", "r.har", "--report-html", "site", "--report-junit", "j.xml"],
                                                  directory: directory)
            #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
            let call = (try TestRunnerTests.reportedFiles(directory.appendingPathComponent("r.json")).first?["calls"] as? [[String: Any]])?.first ?? [:]
            #expect(call["body"] == nil, "\(call)")
            let bytes = (call["bodyBase64"] as? String).flatMap { Data(base64Encoded: $0) } ?? Data()
            #expect(bytes.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]) && bytes.count == call["bodyBytes"] as? Int, "\(call)")
            let har = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("r.har"))) as? [String: Any]
            let entry = ((har?["log"] as? [String: Any])?["entries"] as? [[String: Any]])?.first
            let content = (entry?["response"] as? [String: Any])?["content"] as? [String: Any] ?? [:]
            #expect(content["encoding"] as? String == "base64" && (content["text"] as? String).flatMap { Data(base64Encoded: $0) } == bytes, "\(content)")
            let html = try String(contentsOf: directory.appendingPathComponent("site/index.html"), encoding: .utf8)
            #expect(html.contains("(\(bytes.count) bytes of binary, image/png)"), "\(html)")
            for report in ["r.json", "r.har", "site/index.html", "j.xml"] {
                let text = try String(contentsOf: directory.appendingPathComponent(report), encoding: .utf8)
                #expect(!text.contains("\u{FFFD}"), "\(report) holds text decoded from the PNG")
            }
        }
    }

    /// A JSON answer with one byte that is not UTF-8 counts as binary: its bytes were kept as
    /// `bodyBase64` with a `password` member in them (review 15 M2). Such a body is not kept.
    @Test func aBinaryAnswerNamingACredentialIsNotKept() async throws {
        let body = Array(#"{"password":"pw-PLAIN4567","city":"M"#.utf8) + [0xFC] + Array(#"nchen"}"#.utf8)
        try await TestServer.with(routes: ["/login": StaticRoute(body: body)]) { server in
            let directory = try TestRunnerTests.suite(["l.wsh": "get \(server.baseURL)/login\nexpect status == 201\n"])
            let result = try await WSHProcess.run(["test", "tests", "--report-json", "r.json", "--report-har", "r.har"], directory: directory)
            #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
            let call = (try TestRunnerTests.reportedFiles(directory.appendingPathComponent("r.json")).first?["calls"] as? [[String: Any]])?.first ?? [:]
            #expect(call["bodyBase64"] == nil && call["body"] == nil, "\(call)")
            for report in ["r.json", "r.har"] {
                let text = String(decoding: try Data(contentsOf: directory.appendingPathComponent(report)), as: UTF8.self)
                #expect(!text.contains("pw-PLAIN4567") && !text.contains(Data("pw-PLAIN4567".utf8).base64EncodedString().prefix(12)), "\(report)")
            }
        }
    }

    /// A test file under `/dev/shm` (a RAM disk) is a regular file and runs; only the runner's
    /// input named as a file is refused (review 15 M1).
    @Test func aRegularFileUnderDevRuns() async throws {
        let directory = URL(fileURLWithPath: "/dev/shm/wsh-test-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil else { return }
        defer { try? FileManager.default.removeItem(at: directory) }
        try "expect 1 == 1\n".write(to: directory.appendingPathComponent("s.wsh"), atomically: true, encoding: .utf8)
        let result = try await WSHProcess.run(["test", directory.appendingPathComponent("s.wsh").path])
        #expect(result.status == 0 && result.stdout.contains("1 passed"), "\(result.stdout)\(result.stderr)")
    }

    /// `--report-junit /dev/stdout` read the "existing file" to see whether it was a report: at a
    /// terminal or a pipe that waited for input, and wsh hung before running anything. With the
    /// output a file, the report truncated it, and the results printed before it were lost.
    @Test func aReportSentToStandardOutputFollowsTheResults() async throws {
        let directory = try TestRunnerTests.suite(["t1.wsh": "echo one\n"])
        let tests = directory.appendingPathComponent("tests")
        let wrapper = """
            import subprocess, sys
            try:
                if sys.argv[1] == "pipe":
                    sys.stdout.buffer.write(subprocess.run(sys.argv[2:], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=60).stdout)
                else:
                    with open("out.txt", "wb") as out:
                        subprocess.run(sys.argv[2:], stdout=out, stdin=subprocess.DEVNULL, timeout=60)
            except subprocess.TimeoutExpired:
                print("hung")
            """
        let run = [WSHProcess.binary, "test", "t1.wsh", "--report-junit", "/dev/stdout"]
        let piped = String(decoding: try await runProgram("/usr/bin/python3", ["-c", wrapper, "pipe"] + run, directory: tests).output, as: UTF8.self)
        _ = try await runProgram("/usr/bin/python3", ["-c", wrapper, "file"] + run, directory: tests)
        let filed = try String(contentsOf: tests.appendingPathComponent("out.txt"), encoding: .utf8)
        for output in [piped, filed] {
            let results = output.range(of: "1 passed"), report = output.range(of: "<testsuites")
            #expect(results != nil && report != nil && !output.contains("hung"), "\(output)")
        }
    }

    /// Any JSON was taken for a JSON report or a HAR, any XML for JUnit, and `--report-html`
    /// replaced any `index.html`: a `package.json`, a schema, a page were lost. Only a report wsh
    /// wrote, of the same kind, is replaced.
    @Test func aReportReplacesOnlyAReportOfItsKindThatWshWrote() async throws {
        let mine: [String: String] = ["package.json": #"{"name": "my-app", "version": "1.0.0"}"# + "\n",
                                      "user.schema.json": #"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}"# + "\n",
                                      "notes.xml": "<?xml version=\"1.0\"?>\n<notes><note>keep</note></notes>\n",
                                      "docs/index.html": "<!DOCTYPE html>\n<html><body>Handwritten docs</body></html>\n",
                                      // Another tool's JUnit and TAP, which were taken for wsh's and replaced.
                                      "pytest.xml": "<?xml version=\"1.0\" encoding=\"utf-8\"?><testsuites name=\"pytest tests\"><testsuite name=\"pytest\" tests=\"1\"/></testsuites>\n",
                                      "prove.tap": "TAP version 13\n1..1\nok 1 - from prove\n",
                                      "node.tap": "TAP version 14\n# Subtest: test/a.js\n    ok 1 - a\n    1..1\nok 1 - test/a.js\n1..1\n"]
        let directory = try TestRunnerTests.suite(["t1.wsh": "echo hi\n"].merging(mine) { $1 })
        let tests = directory.appendingPathComponent("tests")
        for arguments in [["--report-json", "package.json"], ["--report-har", "user.schema.json"], ["--report-junit", "notes.xml"],
                          ["--report-html", "docs"], ["--report-junit", "pytest.xml"], ["--report-tap", "prove.tap"], ["--report-tap", "node.tap"]] {
            let result = try await WSHProcess.run(["test", "t1.wsh"] + arguments, directory: tests)
            #expect(result.status == 1 && result.stderr.contains("is not such a report"), "\(arguments): \(result.stderr)")
        }
        for (name, text) in mine {
            #expect(try String(contentsOf: tests.appendingPathComponent(name), encoding: .utf8) == text, "\(name)")
        }
        let reports = ["--report-json", "r.json", "--report-har", "r.har", "--report-junit", "r.xml", "--report-tap", "r.tap", "--report-html", "html"]
        for run in 1...2 {
            let result = try await WSHProcess.run(["test", "t1.wsh"] + reports, directory: tests)
            #expect(result.status == 0, "run \(run): \(result.stderr)")
        }
    }

    @Test func junitIsValidAgainstJenkinsSchemaWithTheFailure() async throws {
        try await withLoopbackServer { server in
            let (result, out) = try await Self.runWithReports(server)
            #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
            let junit = out.appendingPathComponent("junit.xml").path
            let lint = try await offPool { try Self.tool("/usr/bin/xmllint", ["--noout", "--schema", Self.schema, junit]) }
            #expect(lint.status == 0, "xmllint: \(lint.output)")
            let xml = try String(contentsOfFile: junit, encoding: .utf8)
            #expect(xml.contains(#"<testsuite name="tests/a-pass.wsh" tests="2" failures="0" errors="0""#), "\(xml)")
            #expect(xml.contains(#"<testsuite name="tests/b-fail.wsh" tests="2" failures="1" errors="0""#), "\(xml)")
            #expect(xml.contains(#"<failure message="expectation failed: .query == &quot;&lt;not &amp; this&gt;&quot;" type="expectation">tests/b-fail.wsh:6:8: "#), "\(xml)")
        }
    }

    /// A check that could not be evaluated is one testcase with an `<error>`, counted once (it was
    /// a failed testcase and an error testcase besides), in its own testcase, not an earlier one;
    /// the HTML page shows that error once, in the check's item (it showed it above the checks too,
    /// with the answer a second time).
    @Test func aCheckThatCouldNotBeEvaluatedIsOneErrorInJUnitAndHTML() async throws {
        try await withLoopbackServer { server in
            let directory = try TestRunnerTests.suite([
                "c-error.wsh": """
                    target echo { base \(server.baseURL); path /echo }
                    set bail off
                    call echo
                    expect status == 200
                    expect status == 500
                    expect .method | toInt == 3

                    """,
            ])
            let result = try await WSHProcess.run(["test", "tests", "--report-junit", "out/junit.xml", "--report-html", "out/html"],
                                                  directory: directory)
            #expect(result.status != 0, "\(result.stdout)\(result.stderr)")
            let junit = directory.appendingPathComponent("out/junit.xml").path
            let lint = try await offPool { try Self.tool("/usr/bin/xmllint", ["--noout", "--schema", Self.schema, junit]) }
            #expect(lint.status == 0, "xmllint: \(lint.output)")
            let xml = try String(contentsOfFile: junit, encoding: .utf8)
            #expect(xml.contains(#"<testsuites name="wsh test" tests="3" failures="1" errors="1""#), "\(xml)")
            #expect(xml.contains(#"<testsuite name="tests/c-error.wsh" tests="3" failures="1" errors="1""#), "\(xml)")
            #expect(xml.components(separatedBy: "<testcase ").count - 1 == 3, "\(xml)")
            let cases = xml.components(separatedBy: "<testcase ").dropFirst()
            #expect(cases.filter { $0.contains("<failure") }.map { $0.hasPrefix(#"name="expect status == 500 (5:8)""#) } == [true], "\(xml)")
            #expect(cases.filter { $0.contains("<error") }.map { $0.hasPrefix(#"name="expect .method | toInt == 3 (6:8)""#) } == [true],
                    "the error is in the testcase of the check it stopped: \(xml)")
            #expect(xml.contains(#"<error message="&#39;| toInt&#39; needs a number"#), "\(xml)")

            let html = try String(contentsOf: directory.appendingPathComponent("out/html/index.html"), encoding: .utf8)
            let items = html.components(separatedBy: "<li class=\"check ").dropFirst()
            #expect(html.components(separatedBy: "needs a number").count - 1 == 1, "the error once: \(html)")
            #expect(items.filter { $0.contains("needs a number") }.map { $0.hasPrefix("errored\"") } == [true], "in its check's item: \(html)")
            #expect(items.filter { $0.hasPrefix("failed\"") }.count == 1 && !html.contains("Last answer"), "\(html)")
        }
    }

    /// A file failed by no `expect` (an `until` that ran out, also under `set bail off` before
    /// `exit 0`; `exit 4`; `exit 3`) is a failure, or an error, in JUnit: such files had no
    /// testcase (`tests="0"`), so a CI reading JUnit showed them green, and the `until` under bail
    /// off passed outright. `exit 130` written in a file is an error too, not a Ctrl-C: it made the
    /// whole run "interrupted".
    @Test func filesFailedByNoExpectAreFailuresInJUnit() async throws {
        let until = "target q { base http://127.0.0.1:1; path /x; sample '{\"state\": \"RUNNING\"}' }\n"
            + "until .state == \"COMPLETED\" every 0ms max 2 { call q }\n"
        let directory = try TestRunnerTests.suite([
            "a-until.wsh": until,
            "b-until-bail-off.wsh": "set bail off\n" + until + "exit 0\n",
            "c-exit-4.wsh": "exit 4\n",
            "d-exit-3.wsh": "exit 3\n",
            "e-exit-130.wsh": "exit 130\n",
        ])
        let result = try await WSHProcess.run(["test", "--stub", "tests", "--report-junit", "out/junit.xml", "--report-html", "out/html"],
                                              directory: directory)
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        let html = try String(contentsOf: directory.appendingPathComponent("out/html/index.html"), encoding: .utf8)
        #expect(html.components(separatedBy: "still does not hold after 2 rounds").count - 1 == 2, "once in each of two files: \(html)")
        #expect(result.stdout.contains("0 passed, 3 failed, 2 errored\n"), "\(result.stdout)")
        #expect(!result.stderr.contains("interrupted"), "\(result.stderr)")
        let junit = directory.appendingPathComponent("out/junit.xml").path
        let lint = try await offPool { try Self.tool("/usr/bin/xmllint", ["--noout", "--schema", Self.schema, junit]) }
        #expect(lint.status == 0, "xmllint: \(lint.output)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuites name="wsh test" tests="5" failures="3" errors="2""#), "\(xml)")
        for name in ["a-until", "b-until-bail-off", "c-exit-4"] {
            #expect(xml.contains(#"<testsuite name="tests/\#(name).wsh" tests="1" failures="1" errors="0""#), "\(name): \(xml)")
        }
        for name in ["d-exit-3", "e-exit-130"] {
            #expect(xml.contains(#"<testsuite name="tests/\#(name).wsh" tests="1" failures="0" errors="1""#), "\(name): \(xml)")
        }
        #expect(xml.contains(#"<failure message="&#39;.state == &quot;COMPLETED&quot;&#39; still does not hold after 2 rounds""#), "\(xml)")
        #expect(xml.contains(#"<failure message="the file exited with code 4""#), "\(xml)")
    }

    /// A failed `expect` in a reactor action whose `catch` runs a passing one is one failed check:
    /// it was counted again, as a failure of its own, when it came out of the `catch`.
    @Test func aFailedExpectAfterACatchsOwnCheckIsCountedOnce() async throws {
        let directory = try TestRunnerTests.suite(["r.wsh": """
            target q { base http://127.0.0.1:1; path /x; sample '{"a": 1}' }
            reactor r {
              state a = 0
              action go { call q; expect .a == 2 } catch { expect status == 200 }
            }
            r go

            """])
        let result = try await WSHProcess.run(["test", "--stub", "tests", "--report-junit", "out/junit.xml"], directory: directory)
        #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
        let xml = try String(contentsOf: directory.appendingPathComponent("out/junit.xml"), encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="tests/r.wsh" tests="2" failures="1" errors="0""#), "\(xml)")
        #expect(xml.contains(#"<failure message="expectation failed: .a == 2""#) && !xml.contains("failure at"), "\(xml)")
    }

    @Test func tapAndJSONHoldEveryFileCallAndCheck() async throws {
        try await withLoopbackServer { server in
            let (_, out) = try await Self.runWithReports(server)
            let tap = try String(contentsOf: out.appendingPathComponent("report.tap"), encoding: .utf8)
            #expect(tap.hasPrefix("TAP version 14\n1..2\n"), "\(tap)")
            #expect(tap.contains("    not ok 2 - expect .query == \"<not & this>\"\n      ---\n      message: "), "\(tap)")
            #expect(tap.contains("\nok 1 - tests/a-pass.wsh\n") && tap.contains("\nnot ok 2 - tests/b-fail.wsh\n"), "\(tap)")

            let data = try Data(contentsOf: out.appendingPathComponent("report.json"))
            let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect(json?["passed"] as? Int == 1 && json?["failed"] as? Int == 1)
            let files = json?["files"] as? [[String: Any]] ?? []
            #expect(files.count == 2)
            let calls = files.last?["calls"] as? [[String: Any]] ?? []
            #expect(calls.count == 1 && calls.first?["method"] as? String == "POST" && calls.first?["status"] as? Int == 200)
            #expect(calls.first?["milliseconds"] is Double)
            let checks = files.last?["checks"] as? [[String: Any]] ?? []
            #expect(checks.map { $0["passed"] as? Bool } == [true, false], "bail stops the file at the failed check")
            #expect(checks.last?["line"] as? Int == 6 && checks.last?["column"] as? Int == 8)
        }
    }

    @Test func htmlShowsTheFailingCheckInABrowser() async throws {
        try await withLoopbackServer { server in
            let (_, out) = try await Self.runWithReports(server)
            let page = out.appendingPathComponent("html/index.html")
            let html = try String(contentsOf: page, encoding: .utf8)
            #expect(!html.contains("src=") && !html.contains("<link") && !html.contains("url("), "no assets from elsewhere")
            #expect(!html.contains("<script"))
            let profile = try WSHProcess.temporaryDirectory()
            let chromium = try await offPool {
                try Self.tool("/usr/bin/chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)",
                                                    "--dump-dom", page.absoluteString])
            }
            #expect(chromium.status == 0, "\(chromium.output.suffix(2000))")
            let dom = chromium.output
            #expect(dom.contains("1 passed") && dom.contains("1 failed"), "\(dom.suffix(3000))")
            #expect(dom.contains("expect .query == \"&lt;not &amp; this&gt;\""), "the failing check: \(dom.suffix(3000))")
            #expect(dom.contains("<details class=\"file failed\" open=\"\">"), "the failing file is open: \(dom.prefix(3000))")
            // Failing files come first, and the failing answer's body is shown.
            if let failing = dom.range(of: "tests/b-fail.wsh"), let passing = dom.range(of: "tests/a-pass.wsh") {
                #expect(failing.lowerBound < passing.lowerBound)
            }
            #expect(dom.contains("<pre class=\"body\">"))
        }
    }

    /// Literal values sent under secret names (`appid=`, `X-Api-Key:`, a JSON `token`) and echoed
    /// back by the server: no error, reactor state or report shows them (the error and the JSON
    /// report showed the echoed body whole; only names masked them, in logs and URLs).
    @Test func literalSecretsEchoedBackAreMaskedInErrorsAndReports() async throws {
        try await withLoopbackServer { server in
            let literals = ["appidLiteral1234", "apiKeyLiteral5678", "tokenLiteral9012"]
            let script = """
                set bail off
                target echo { base \(server.baseURL); path /echo; method POST; query appid=\(literals[0]) keyword=London; header X-Api-Key:\(literals[1]); json token=\(literals[2]) max_tokens:=1256 }
                reactor r {
                  state error = ""
                  action go { call echo; expect . == "no such answer" } catch { emit error = $error }
                }
                call echo > /dev/null
                expect . == "no such answer"
                r go
                echo "plain: London 1256"

                """
            let directory = try TestRunnerTests.suite(["echoed.wsh": script])
            let result = try await WSHProcess.run(["test", "tests", "--report-junit", "out/junit.xml", "--report-json", "out/report.json",
                                                   "--report-html", "out/html"], directory: directory)
            let run = try await WSHProcess.run(["tests/echoed.wsh"], directory: directory)
            #expect(server.hits("/echo") == 4)
            #expect(run.stderr.contains("appid=***"), "the echo is shown, masked: \(run.stderr)")
            #expect(run.stdout.contains(#"r | error="expectation failed"#), "\(run.stdout)")
            #expect(run.stdout.contains("plain: London 1256"), "a value under no credential's name is no secret: \(run.stdout)")
            var texts = [("test stdout", result.stdout), ("test stderr", result.stderr), ("stdout", run.stdout), ("stderr", run.stderr)]
            for name in ["junit.xml", "report.json", "html/index.html"] {
                texts.append((name, try String(contentsOf: directory.appendingPathComponent("out/" + name), encoding: .utf8)))
            }
            for (name, text) in texts {
                for literal in literals { #expect(!text.contains(literal), "\(name) shows \(literal): \(text)") }
            }
        }
    }

    /// A filter on a secret the server echoed back (`| upper`, `| base64Encode`, `| split`,
    /// `| replace`) makes a secret too: a tester found `actual: "SECRETKEY42"` on screen and in
    /// every report, while the same filters on the variable printed `***`.
    @Test func aFilteredEchoOfASecretIsMaskedInEveryReport() async throws {
        try await withLoopbackServer { server in
            let secret = "k3y-SeCrEtKeY42"
            let script = """
                set bail off
                let k = env WSH_FILTER_SECRET
                target echo { base \(server.baseURL); path /echo; query appid=$k }
                call echo > /dev/null
                expect .query | upper == "X"
                expect .query | base64Encode == "X"
                expect .query | split "-" == "X"
                expect .query | replace "-" "_" == "X"
                expect .query | split "=" | nth 0 == "X"

                """
            let directory = try TestRunnerTests.suite(["filtered.wsh": script])
            let result = try await WSHProcess.run(
                ["test", "tests", "--report-junit", "out/junit.xml", "--report-tap", "out/report.tap",
                 "--report-json", "out/report.json", "--report-html", "out/html"],
                environment: ["WSH_FILTER_SECRET": secret], directory: directory)
            #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
            #expect((result.stdout + result.stderr).contains(#"actual:   "appid""#), "a part the masked echo shows stays: \(result.stdout)")
            var texts = [("stdout", result.stdout), ("stderr", result.stderr)]
            for name in ["junit.xml", "report.tap", "report.json", "html/index.html"] {
                texts.append((name, try String(contentsOf: directory.appendingPathComponent("out/" + name), encoding: .utf8)))
            }
            let made: [String] = ["SECRETKEY42", String(Data("appid=\(secret)".utf8).base64EncodedString().prefix(16)), "SeCrEtKeY42", "appid=k3y", "k3y_SeCrEt"]
            for (name, text) in texts {
                for form in made { #expect(!text.contains(form), "\(name) shows \(form): \(text)") }
            }
        }
    }

    @Test func noReportHoldsTheSecret() async throws {
        try await withLoopbackServer { server in
            let (result, out) = try await Self.runWithReports(server)
            #expect(server.hits("/echo") == 2)
            for name in ["junit.xml", "report.tap", "report.json", "html/index.html"] {
                let text = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
                let leaks = Self.check.leaks(in: text)
                #expect(leaks.isEmpty, "\(name) shows the secret as \(leaks)")
            }
            for (name, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
                #expect(Self.check.leaks(in: text).isEmpty, "\(name): \(text)")
            }
            let json = try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8)
            #expect(json.contains("***"), "the secret is there, masked")
        }
    }
}

/// `use openapi` warnings in `wsh test`: under the file's line and in every report (they were
/// printed only by `wsh FILE`, and a schema whose `type` wsh could not read passed every answer).
@Suite struct TestRunnerWarningTests {
    @Test func aDocumentsWarningsReachTheRunAndEveryReportAndItsCheckIsNoPass() async throws {
        try await TestServer.with(routes: ["/x": StaticRoute(body: #"{"k": "</script>"}"#)]) { server in
            let document = """
                openapi: 3.0.3
                info: {title: t, version: '1'}
                servers: [{url: '\(server.baseURL)'}]
                paths:
                  /x:
                    get:
                      operationId: x
                      responses:
                        '200': {description: ok, content: {application/json: {schema: {type: object, properties: {k: {type: Integer}}}}}}
                """
            let directory = try TestRunnerTests.suite(["api.yaml": document, "t.wsh": "use openapi api.yaml\ncall x\nexpect schema\n"])
            let result = try await WSHProcess.run(
                ["test", "tests", "--report-junit", "out/junit.xml", "--report-tap", "out/report.tap",
                 "--report-json", "out/report.json", "--report-html", "out/html"], directory: directory)
            #expect(result.status != 0, "\(result.stdout)\(result.stderr)")
            #expect(!result.stdout.contains("✓ t.wsh"), "\(result.stdout)")
            let warning = #"tests/api.yaml#/paths/~1x/get/responses/200/content/application~1json/schema/properties/k/type: unknown type "Integer""#
            #expect(result.stdout.contains("    warning: " + warning), "\(result.stdout)")
            for name in ["junit.xml", "report.tap", "report.json", "html/index.html"] {
                let text = try String(contentsOf: directory.appendingPathComponent("out/" + name), encoding: .utf8)
                #expect(text.contains("unknown type") && text.contains("properties/k/type"), "\(name): \(text)")
            }
        }
    }
}
