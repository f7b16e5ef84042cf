import Foundation
import Testing
import TestSupport

/// `wsh test` as CI runs it: the built binary over a directory of files against the loopback
/// server, its line per file, summary and exit code; `--var`, `--stub`, `--jobs` and Ctrl-C.
@Suite struct TestRunnerTests {
    /// Writes `files` (name: text) under a fresh directory's `tests/` and returns the directory.
    /// The files of the JSON report at `url` (`--report-json`), each with its `calls` and `errors`.
    static func reportedFiles(_ url: URL) throws -> [[String: Any]] {
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        return report?["files"] as? [[String: Any]] ?? []
    }

    static func suite(_ files: [String: String]) throws -> URL {
        let directory = try WSHProcess.temporaryDirectory()
        for (name, text) in files {
            let url = directory.appendingPathComponent("tests/" + name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return directory
    }

    static let passing = """
        target ok { base $base; path /status/200 }
        call ok
        expect status == 200
        expect .message == "OK"
        """
    static let failing = """
        target missing { base $base; path /status/404; validate none }
        call missing
        expect status == 200
        expect .message == "Not Found"
        """
    static let broken = """
        target ok { base $base; path /status/200 }
        call ok
        expect status ==
        """

    @Test func linesSummaryAndExitCodes() async throws {
        try await withLoopbackServer { server in
            let directory = try Self.suite(["a-pass.wsh": Self.passing, "b-fail.wsh": Self.failing, "c-broken.wsh": Self.broken,
                                            "nested/d-pass.wsh": Self.passing, "notes.txt": "not a test"])
            let base = "base=\(server.baseURL)"
            let all = try await WSHProcess.run(["test", "tests", "--var", base], directory: directory)
            #expect(all.status == 3, "\(all.stdout)\(all.stderr)")
            let lines = all.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.hasPrefix("✓ tests/a-pass.wsh  2 checks  ") && $0.hasSuffix(" ms") }, "\(all.stdout)")
            #expect(lines.contains { $0.hasPrefix("✓ tests/nested/d-pass.wsh  2 checks  ") }, "\(all.stdout)")
            #expect(lines.contains("✗ tests/b-fail.wsh:3:8 expectation failed: status == 200"), "\(all.stdout)")
            #expect(lines.contains { $0.hasPrefix("✗ tests/c-broken.wsh:3:") }, "a syntax error is an errored file: \(all.stdout)")
            #expect(lines.last == "2 passed, 1 failed, 1 errored", "\(all.stdout)")

            let failed = try await WSHProcess.run(["test", "tests/a-pass.wsh", "tests/b-fail.wsh", "--var", base], directory: directory)
            #expect(failed.status == 4, "\(failed.stdout)\(failed.stderr)")
            #expect(failed.stdout.hasSuffix("1 passed, 1 failed\n"), "\(failed.stdout)")

            let passed = try await WSHProcess.run(["test", "tests/a-pass.wsh", "--var", base, "--jobs", "1"], directory: directory)
            #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
            #expect(passed.stdout.hasSuffix("1 passed, 0 failed\n"), "\(passed.stdout)")
        }
    }

    /// A test file whose name starts with `-` (`-h.wsh`, `--stub.wsh`, or under `-x/`) never ran:
    /// its worker took the name for an option, and the line said only that wsh stopped. Each
    /// runs as any other file, and fails on its own check.
    @Test func aTestFileNamedLikeAnOptionRuns() async throws {
        let directory = try Self.suite(["-h.wsh": "expect 1 == 2\n", "--stub.wsh": "expect 1 == 3\n", "-x/a.wsh": "expect 1 == 4\n"])
        let tests = directory.appendingPathComponent("tests")
        let result = try await WSHProcess.run(["test", "."], directory: tests)
        #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for (file, number) in [("-h.wsh", 2), ("--stub.wsh", 3), ("-x/a.wsh", 4)] {
            #expect(lines.contains { $0.hasPrefix("✗ \(file):1:8 expectation failed: 1 == \(number)") }, "\(result.stdout)")
        }
        #expect(lines.last == "0 passed, 3 failed", "\(result.stdout)")
        let named = try await WSHProcess.run(["test", "--", "-h.wsh"], directory: tests)
        #expect(named.status == 4 && named.stdout.contains("✗ -h.wsh:1:8 expectation failed"), "\(named.stdout)\(named.stderr)")
    }

    /// A failed check that an `exit` seemed to hide is a ✗ with its expression: in an `until` round
    /// that ends the script (it was ✓ with 0 checks), and in an action whose catch exits 0 (✗
    /// without the expression or notes, and the script itself exited 0).
    @Test func aCheckAnExitSeemedToHideIsAFailure() async throws {
        try await withLoopbackServer { server in
            let target = "target g { base \(server.baseURL); path /status/500; validate none }\n"
            let directory = try Self.suite([
                "until.wsh": target + "until status == 200 every 10ms max 3 {\n  call g\n  expect status == 200\n  exit\n}\n",
                "catch.wsh": target + "reactor r {\n  state ok = false\n  action go { call g; expect status == 200 } catch { exit 0 }\n}\nr go\n",
            ])
            let result = try await WSHProcess.run(["test", "tests"], directory: directory)
            #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains("✗ tests/until.wsh:4:10 expectation failed: status == 200"), "\(result.stdout)")
            #expect(lines.contains("✗ tests/catch.wsh:4:30 expectation failed: status == 200"), "\(result.stdout)")
            for name in ["until.wsh", "catch.wsh"] {
                let run = try await WSHProcess.run(["tests/" + name], directory: directory)
                #expect(run.status == 4, "\(name): \(run.stderr)")
                #expect(run.stderr.contains("note: actual:   500 (number)"), "\(name): \(run.stderr)")
            }
        }
    }

    /// A file with `set bail off` runs on past a failed check: its line lists every failed check,
    /// as its reports do (a newcomer saw one on the console and two in the JUnit report).
    @Test func everyFailedCheckOfAFileIsListed() async throws {
        try await withLoopbackServer { server in
            let directory = try Self.suite(["d.wsh": "set bail off\nget \(server.baseURL)/status/200\nexpect status == 201\nexpect status == 202\n"])
            let result = try await WSHProcess.run(["test", "tests", "--report-tap", "d.tap"], directory: directory)
            #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains("✗ tests/d.wsh:3:8 expectation failed: status == 201"), "\(result.stdout)")
            #expect(lines.contains("✗ tests/d.wsh:4:8 expectation failed: status == 202"), "\(result.stdout)")
            // Each failed check's notes are one YAML list: a repeated key would keep only its last value.
            let tap = try String(contentsOf: directory.appendingPathComponent("d.tap"), encoding: .utf8)
            #expect(tap.contains("      notes:\n        - \"expected: 201 (number)\"\n        - \"actual:   200 (number)\"\n"), "\(tap)")
            #expect(!tap.contains("note: "), "\(tap)")
        }
    }

    @Test func eachFileHasASessionOfItsOwn() async throws {
        try await withLoopbackServer { server in
            // The first sorted file declares a variable and a target; the second must see neither.
            let directory = try Self.suite([
                "a.wsh": "let leftover = 1\ntarget mine { base $base; path /status/200 }\ncall mine\nexpect status == 200\n",
                "b.wsh": "call mine\n",
            ])
            let result = try await WSHProcess.run(["test", "tests", "--var", "base=\(server.baseURL)", "--jobs", "1"], directory: directory)
            #expect(result.status == 3, "\(result.stdout)")
            #expect(result.stdout.contains("✗ tests/b.wsh:1:6 unknown target 'mine'"), "\(result.stdout)")
        }
    }

    @Test func stubAnswersFromSamplesWithoutANetwork() async throws {
        let directory = try Self.suite([
            "user.json": #"{"id": 7, "name": "Ada"}"#,
            "stubbed.wsh": """
                target user { base http://127.0.0.1:9/api; path /users/7; sample @user.json }
                call user
                expect status == 200
                expect .name == "Ada"
                """,
        ])
        let stubbed = try await WSHProcess.run(["test", "--stub", "tests"], directory: directory)
        #expect(stubbed.status == 0, "\(stubbed.stdout)\(stubbed.stderr)")
        #expect(stubbed.stdout.contains("✓ tests/stubbed.wsh  2 checks"), "\(stubbed.stdout)")
        let live = try await WSHProcess.run(["test", "tests"], directory: directory)
        #expect(live.status == 3, "without --stub the call goes to port 9, which refuses: \(live.stdout)")
    }

    @Test func usageErrors() async throws {
        let directory = try Self.suite(["a.wsh": "echo hi\n"])
        let missing = try await WSHProcess.run(["test", "nowhere"], directory: directory)
        #expect(missing.status == 1 && missing.stderr.contains("no such file or directory: nowhere"), "\(missing.stderr)")
        let empty = try await WSHProcess.run(["test", "tests", "--jobs", "0"], directory: directory)
        #expect(empty.status == 1 && empty.stderr.contains("--jobs"), "\(empty.stderr)")
        let badVar = try await WSHProcess.run(["test", "tests", "--var", "no-equals"], directory: directory)
        #expect(badVar.status == 1 && badVar.stderr.contains("NAME=VALUE"), "\(badVar.stderr)")
    }

    /// Files run at once under `--jobs 2` and one after another under `--jobs 1`: told by whether
    /// the two files' runs overlap in time, as the JSON report gives them, not by how long they took.
    @Test func jobsRunFilesAtOnce() async throws {
        try await withLoopbackServer { server in
            let slow = "target slow { base $base; path /slow; query ms=400 }\ncall slow\nexpect status == 200\n"
            let directory = try Self.suite(["a.wsh": slow, "b.wsh": slow])
            func spans(_ jobs: String) async throws -> [(Double, Double)] {
                let report = directory.appendingPathComponent("report-\(jobs).json")
                let result = try await WSHProcess.run(["test", "tests", "--jobs", jobs, "--var", "base=\(server.baseURL)",
                                                       "--report-json", report.path], directory: directory)
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
                let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
                let files = json?["files"] as? [[String: Any]] ?? []
                return files.compactMap { file in
                    guard let start = file["startedAt"] as? Double, let length = file["milliseconds"] as? Double else { return nil }
                    return (start, start + length)
                }
            }
            let parallel = try await spans("2")
            #expect(parallel.count == 2)
            if parallel.count == 2 {
                #expect(parallel[0].0 < parallel[1].1 && parallel[1].0 < parallel[0].1, "with --jobs 2 the files overlap: \(parallel)")
            }
            let serial = try await spans("1")
            #expect(serial.count == 2)
            if serial.count == 2 {
                #expect(serial[0].1 <= serial[1].0 || serial[1].1 <= serial[0].0, "with --jobs 1 they do not: \(serial)")
            }
        }
    }

    /// `wsh test /dev/stdin` with a script piped in (D24) waited for ever: the worker opened
    /// `/dev/stdin` in its own process, whose stdin is a pipe the runner never writes to. It, a
    /// pipe or device, and `-` are usage errors that say so, before anything runs.
    @Test func aScriptGivenOnStandardInputIsAUsageError() async throws {
        let directory = try Self.suite(["t1.wsh": "expect 1 == 1\n"])
        let running = try RunningWSH(["test", "/dev/stdin", "--report-json", "r.json"], directory: directory)
        #expect(try await offPool { running.waitForExit() } == 1, "\(running.stdout)\(running.stderr)")
        #expect(running.stderr.contains("/dev/stdin is not a test file's path (a pipe, a device or the runner's input)"), "\(running.stderr)")
        let piped = try await WSHProcess.run(["test", "/dev/stdin"], stdin: "expect 1 == 1\n", directory: directory)
        #expect(piped.status == 1 && piped.stderr.contains("save the script to a file"), "\(piped.stderr)")
        let dash = try await WSHProcess.run(["test", "-"], stdin: "expect 1 == 1\n", directory: directory)
        #expect(dash.status == 1 && dash.stderr.contains("wsh test reads no script from stdin (-)"), "\(dash.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("r.json").path), "nothing ran")
    }

    /// Ctrl-C, and SIGTERM as a CI system cancels a job with: SIGTERM ended the runner at once,
    /// with no report, and left its worker running its call. The reports name the call in flight
    /// and its statement's place, and the signal: they had neither, and said Ctrl-C for SIGTERM.
    @Test(arguments: [SIGINT, SIGTERM]) func ctrlCStopsTheRunCleanly(signal: Int32) async throws {
        try await withLoopbackServer { server in
            let directory = try Self.suite([
                "a.wsh": "target ok { base $base; path /status/200 }\ncall ok\nexpect status == 200\n",
                "b.wsh": "target never { base $base; path /never; timeout 60s }\ncall never\n",
                "c.wsh": "target ok { base $base; path /status/200 }\ncall ok\n",
            ])
            let running = try RunningWSH(["test", "tests", "--jobs", "1", "--var", "base=\(server.baseURL)", "--report-junit", "r.xml",
                                          "--report-json", "r.json", "--report-har", "r.har", "--report-tap", "r.tap"],
                                         directory: directory)
            // b.wsh starts as soon as a.wsh's line is out; its call waits for an answer that never comes.
            let started = try await offPool { running.waitForOutput("✓ tests/a.wsh", timeout: 60) }
            #expect(started, "\(running.stdout)\(running.stderr)")
            let hitNever = try await offPool { () -> Bool in
                let deadline = Date().addingTimeInterval(60)
                while server.hits("/never") == 0, Date() < deadline { usleep(2_000) }
                return server.hits("/never") > 0
            }
            #expect(hitNever)
            running.interrupt(with: signal)
            let status = try await offPool { running.waitForExit(timeout: 60) }
            #expect(status == 130, "\(running.stdout)\(running.stderr)")
            let report = try String(contentsOf: directory.appendingPathComponent("r.xml"), encoding: .utf8)
            #expect(report.contains("tests/a.wsh") && report.contains("tests/b.wsh"), "\(report)")
            #expect(running.stdout.contains("✗ tests/b.wsh  interrupted"), "\(running.stdout)")
            #expect(running.stdout.contains("1 passed, 0 failed, 1 interrupted, 1 not run"), "\(running.stdout)")
            #expect(server.hits("/status/200") == 1, "c.wsh did not start")
            // c.wsh, not started, is a skipped test in JUnit and named in the JSON report, as the console's "1 not run".
            #expect(report.contains(#"<testsuite name="tests/c.wsh" tests="1" failures="0" errors="0" skipped="1""#)
                    && report.contains(#"<skipped message="not run: the run was interrupted before this file started" type="interrupted"/>"#), "\(report)")
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("r.json"))) as? [String: Any]
            #expect(json?["notRunFiles"] as? [String] == ["tests/c.wsh"] && json?["notRun"] as? Int == 1, "\(json ?? [:])")
            let valid = try TestRunnerReportTests.tool("/usr/bin/xmllint", ["--noout", "--schema", TestRunnerReportTests.schema,
                                                                            directory.appendingPathComponent("r.xml").path])
            #expect(valid.status == 0, "\(valid.output)")

            let name = signal == SIGTERM ? "SIGTERM" : "Ctrl-C", inFlight = "GET \(server.baseURL)/never"
            #expect(running.stdout.contains("    note: interrupted by \(name) at tests/b.wsh:2:1\n    note: the call in flight: \(inFlight)\n"),
                    "\(running.stdout)")
            #expect(report.contains(#"<error message="interrupted by \#(name)" type="interrupted">tests/b.wsh:2:1: interrupted by \#(name)"#)
                    && report.contains("note: the call in flight: \(inFlight)"), "\(report)")
            let tap = try String(contentsOf: directory.appendingPathComponent("r.tap"), encoding: .utf8)
            #expect(tap.contains(#"message: "interrupted by \#(name)""#) && tap.contains(#"at: "tests/b.wsh:2:1""#)
                    && tap.contains(#"- "the call in flight: \#(inFlight)""#), "\(tap)")
            let b = try Self.reportedFiles(directory.appendingPathComponent("r.json")).first { $0["path"] as? String == "tests/b.wsh" }
            let call = (b?["calls"] as? [[String: Any]])?.last
            #expect(call?["url"] as? String == "\(server.baseURL)/never" && call?["failure"] as? String == "interrupted (\(name))", "\(b ?? [:])")
            let error = (b?["errors"] as? [[String: Any]])?.last
            #expect(error?["kind"] as? String == "interrupted" && error?["file"] as? String == "tests/b.wsh" && error?["line"] as? Int == 2,
                    "\(b ?? [:])")
            let har = try String(contentsOf: directory.appendingPathComponent("r.har"), encoding: .utf8)
            #expect(har.contains("\(server.baseURL)/never") && har.contains("interrupted (\(name))"), "\(har)")
        }
    }

    /// A runner killed outright (kill -9, the OOM killer, a CI agent that kills only its pid, a
    /// closed terminal) left its workers running, for ever when their server never answered.
    @Test func aWorkerEndsWhenItsRunnerIsKilled() async throws {
        try await withLoopbackServer { server in
            let name = "hang-\(UUID().uuidString).wsh"
            let directory = try Self.suite([name: "target never { base $base; path /never; timeout 600s }\ncall never\n"])
            let running = try RunningWSH(["test", "tests", "--var", "base=\(server.baseURL)"], directory: directory)
            let hitNever = try await offPool { () -> Bool in
                let deadline = Date().addingTimeInterval(60)
                while server.hits("/never") == 0, Date() < deadline { usleep(2_000) }
                return server.hits("/never") > 0
            }
            #expect(hitNever)
            let workers = Self.processes { $0.contains("--worker") && $0.contains(name) }
            #expect(workers.count == 1, "\(workers)")
            running.interrupt(with: SIGKILL)
            let ended = try await offPool { () -> Bool in
                let deadline = Date().addingTimeInterval(60)
                while workers.contains(where: { kill($0, 0) == 0 && !Self.isZombie($0) }), Date() < deadline { usleep(5_000) }
                return !workers.contains { kill($0, 0) == 0 && !Self.isZombie($0) }
            }
            #expect(ended, "a worker outlived its runner")
            for worker in workers where !ended { kill(worker, SIGKILL) }
        }
    }

    /// The pids whose command line (its arguments joined by blanks) `matches`.
    static func processes(_ matches: (String) -> Bool) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let line = String(decoding: data.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            return matches(line) ? pid : nil
        }
    }

    /// Whether `pid` has ended and waits only for its parent to reap it.
    static func isZombie(_ pid: pid_t) -> Bool {
        guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat").map({ String(decoding: $0, as: UTF8.self) }),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}
