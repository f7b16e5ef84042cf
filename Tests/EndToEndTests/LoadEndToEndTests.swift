import Foundation
import Testing
import TestSupport

/// `wsh load` as a user runs it, against the planted-defect server (Python's http.server, which
/// logs every request): a scenario's calls in both models, thresholds, the reports, Ctrl-C.
/// One at a time: each runs as fast as the machine lets it, and two at once on a 2-core machine
/// starved each other to a few calls in 2 s.
@Suite(.serialized) struct LoadEndToEndTests {
    static func scenario(_ server: PlantedServer, in directory: URL, name: String = "scenario.wsh", body: String) throws {
        try "target user { base \(server.baseURL); path /users/{id} }\ntarget greet { base \(server.baseURL); path /greet; query name=Ada; validate none }\n\(body)"
            .write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    static func report(_ directory: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("load.json"))) as? [String: Any] ?? [:]
    }

    /// The closed model: every call the report counts reached the server, captures and checks
    /// ran each iteration, and the timeline adds up to the total.
    @Test func usersRunTheScenarioOverAndOver() async throws {
        try await PlantedServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try Self.scenario(server, in: directory, body: "call user id=3\nexpect .name == \"user3\"\nlet name = .name\ncall greet name=$name\nexpect status == 200\n")
            let result = try await WSHProcess.run(["load", "scenario.wsh", "--users", "3", "--duration", "2s", "--threshold", "errors<1%",
                                                   "--threshold", "p99<2s", "--report-json", "load.json"], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("wsh load: scenario.wsh: 3 users, for 2s"), "\(result.stderr)")
            #expect(result.stdout.contains("✔ errors<1%") && result.stdout.contains("✔ p99<2s"), "\(result.stdout)")
            let report = try Self.report(directory)
            let calls = try #require(report["calls"] as? Int)
            let requests = try server.requests()
            #expect(calls > 20, "\(result.stdout)")
            // Calls stopped at the end may have reached the server without an answer counted.
            #expect(requests.count >= calls && requests.count <= calls + 3, "\(requests.count) requests, \(calls) calls")
            #expect(requests.filter { $0.line == "GET /greet?name=user3" }.count >= calls / 2 - 3, "the capture went into the next call")
            let timeline = try #require(report["timeline"] as? [[String: Any]])
            #expect(timeline.compactMap { $0["calls"] as? Int }.reduce(0, +) == calls)
            #expect(report["errors"] as? Int == 0)
        }
    }

    /// A run given no threshold whose checks all failed exited 0: a CI job passed on wrong
    /// answers. Failed checks fail the run (exit 4), as any failure sets Locust's exit code.
    @Test func failedChecksFailARunGivenNoThreshold() async throws {
        try await PlantedServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try Self.scenario(server, in: directory, body: "call greet name=x\nexpect status == 500\n")
            let result = try await WSHProcess.run(["load", "scenario.wsh", "--users", "1", "--duration", "1s"], directory: directory)
            #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("✘ checks>=100%  (0.0%)"), "\(result.stdout)")
        }
    }

    /// An `expect .field == 1` on an HTML answer cannot hold: it is a failed check, once, as
    /// `wsh test` fails it. It was also counted as an error of a call no one made, so the run
    /// showed twice the calls the server got and half of them errors.
    @Test func aCheckOnAnAnswerThatIsNotJSONIsAFailedCheck() async throws {
        let page = StaticRoute(contentType: "text/html", body: "<html><body>hi</body></html>\n")
        try await TestServer.with(routes: ["/page": page]) { server in
            let directory = try WSHProcess.temporaryDirectory()
            try "target page { base \(server.baseURL); path /page }\ncall page\nexpect .field == 1\n"
                .write(to: directory.appendingPathComponent("html.wsh"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["load", "html.wsh", "--users", "1", "--duration", "1s", "--threshold", "errors<1%",
                                                   "--threshold", "checks>=100%", "--report-json", "load.json"], directory: directory)
            #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("failed: html.wsh:3: .field == 1 ×"), "\(result.stdout)")
            #expect(result.stdout.contains("✘ checks>=100%  (0.0%)") && result.stdout.contains("✔ errors<1%"), "\(result.stdout)")
            let report = try Self.report(directory)
            let calls = try #require(report["calls"] as? Int)
            let failed = try #require(report["failedExpectations"] as? [String: Int])
            #expect(calls > 0 && calls <= server.hits("/page"), "\(calls) calls counted, \(server.hits("/page")) made")
            #expect(report["errors"] as? Int == 0 && abs((failed["html.wsh:3: .field == 1"] ?? 0) - calls) <= 1, "\(report)")
        }
    }

    /// The open model sends its arrivals on time whatever the answers; a failing check and a 5xx
    /// are counted by line and by kind, and a failed threshold is exit 4.
    @Test func arrivalsComeOnTimeAndThresholdsDecideTheExit() async throws {
        try await PlantedServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try Self.scenario(server, in: directory, body: "call greet name=é\nexpect status == 200\n")
            let result = try await WSHProcess.run(["load", "scenario.wsh", "--rate", "40/s", "--duration", "2s", "--threshold", "errors<1%",
                                                   "--report-json", "load.json", "--report-html", "html"], directory: directory)
            #expect(result.status == 4, "\(result.stderr)")
            // 40/s for 2 s is 80 arrivals; one still on its way at the end may not reach the server.
            let requests = try server.requests().count
            #expect((78...80).contains(requests), "\(requests) requests")
            #expect(result.stdout.contains("errors: status 500 ×"), "\(result.stdout)")
            #expect(result.stdout.contains("failed: scenario.wsh:4: status == 200 ×"), "\(result.stdout)")
            #expect(result.stdout.contains("✘ errors<1%  (100.0%)"), "\(result.stdout)")
            // Failed checks fail the run by themselves, as any failure sets Locust's exit code.
            #expect(result.stdout.contains("✘ checks>=100%"), "\(result.stdout)")
            let report = try Self.report(directory)
            // An iteration still out at the end is stopped there, not counted: on a loaded machine, more of them.
            let calls = report["calls"] as? Int ?? 0
            #expect((78...80).contains(calls + (report["stopped"] as? Int ?? 0)), "\(report)")
            #expect(requests >= calls, "\(requests) requests, \(calls) calls")
            #expect(report["dropped"] as? Int == 0)

            // The page, drawn by a browser: the plots and the failed threshold are there.
            let page = directory.appendingPathComponent("html/index.html")
            let profile = try WSHProcess.temporaryDirectory()
            let png = directory.appendingPathComponent("report.png")
            let shot = try await offPool {
                try TestRunnerReportTests.tool("/usr/bin/chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)",
                                                                     "--window-size=900,1400", "--screenshot=\(png.path)", page.absoluteString])
            }
            #expect(shot.status == 0, "\(shot.output.suffix(2000))")
            let image = try Data(contentsOf: png)
            #expect(image.starts(with: [0x89, 0x50, 0x4E, 0x47]) && image.count > 20_000, "a PNG with something drawn: \(image.count) bytes")
            let dom = try await offPool {
                try TestRunnerReportTests.tool("/usr/bin/chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)",
                                                                     "--dump-dom", page.absoluteString])
            }
            #expect(dom.output.contains("<polyline") && dom.output.contains("errors&lt;1%") && dom.output.contains("failed: scenario.wsh:4"),
                    "\(dom.output.prefix(3000))")
        }
    }

    /// What would pass unseen is counted: a step that fails without a call (an unset variable), a
    /// request to a host that is not loopback (refused before it is sent).
    @Test func brokenStepsAndOtherHostsCountAsErrors() async throws {
        try await PlantedServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try Self.scenario(server, in: directory, name: "broken.wsh", body: "echo $nosuch\nget http://192.0.2.1:9/x\n")
            let broken = try await WSHProcess.run(["load", "broken.wsh", "--users", "1", "--duration", "1s", "--threshold", "errors<1%"], directory: directory)
            #expect(broken.status == 4, "\(broken.stdout)")
            #expect(broken.stdout.contains("nosuch"), "\(broken.stdout)")
            try Self.scenario(server, in: directory, name: "away.wsh", body: "get http://192.0.2.1:9/x\n")
            let away = try await WSHProcess.run(["load", "away.wsh", "--users", "1", "--duration", "1s"], directory: directory)
            #expect(away.stdout.contains("will not load 192.0.2.1: it is not a loopback address; give --allow-host 192.0.2.1 if it is yours to test ×"),
                    "\(away.stdout)")
            // A host refused call by call is the error a declared one is: exit 3, not 0 (tester's L6).
            #expect(away.status == 3 && away.stderr.contains("wsh: error: will not load 192.0.2.1"), "\(away.stderr)")
        }
    }

    /// The run ends at its duration, as Locust's does: calls still out then (httpbin's /delay/10
    /// in a 2 s run, the call with no timeout of its own) are cancelled, not waited for and not
    /// counted as errors, and the summary says how many iterations were stopped so. A run with no
    /// answered call passes no latency mark.
    @Test func theRunEndsAtItsDurationWithCallsStillOut() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            try "target slow { base \(httpbin.baseURL); path /delay/10 }\ncall slow\n"
                .write(to: directory.appendingPathComponent("slow.wsh"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["load", "slow.wsh", "--users", "2", "--duration", "2s", "--threshold", "p95<5s",
                                                   "--report-json", "load.json"], directory: directory)
            #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("wsh load: 0 calls in 2.0s, 0.0 calls/s, 0 errors (0.00%), 2 iterations stopped at the end"),
                    "\(result.stdout)")
            #expect(result.stdout.contains("✘ p95<5s"), "\(result.stdout)")
            let report = try Self.report(directory)
            #expect(report["stopped"] as? Int == 2 && report["errors"] as? Int == 0 && report["seconds"] as? Double == 2, "\(report)")
        }
    }

    /// An absurd rate (a million arrivals a second) is kept to the connections: the iterations
    /// started run between arrivals, those due while every connection is busy are dropped and
    /// counted, and the run ends at its duration (the arrival loop took every arrival of the run,
    /// each a new user, while none of them ran).
    @Test func anAbsurdRateDropsTheArrivalsThatCannotStart() async throws {
        try await TestServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try "target ok { base \(server.baseURL); path /status/200 }\ncall ok\n"
                .write(to: directory.appendingPathComponent("ok.wsh"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["load", "ok.wsh", "--rate", "1000000/s", "--connections", "10", "--duration", "2s",
                                                   "--report-json", "load.json"], directory: directory)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            let report = try Self.report(directory)
            let calls = report["calls"] as? Int ?? 0
            // Some were started; how many were answered within the run depends on how starved the machine is.
            #expect(calls + (report["stopped"] as? Int ?? 0) > 0 && report["errors"] as? Int == 0, "\(report)")
            #expect((report["dropped"] as? Int ?? 0) + calls + (report["stopped"] as? Int ?? 0) >= 1_900_000, "\(report)")
            #expect(result.stdout.contains("arrivals dropped"), "\(result.stdout)")
            // Nothing is counted past the end, nor sent after it: the iterations running then were
            // counted in a third second, with none stopped, and more started (tester's L2).
            let timeline = try #require(report["timeline"] as? [[String: Any]])
            #expect(timeline.count <= 2 && timeline.compactMap { $0["calls"] as? Int }.reduce(0, +) == calls, "\(timeline)")
            let requests = server.hits("/status/200")
            #expect(calls <= requests && requests <= calls + (report["stopped"] as? Int ?? 0), "\(requests) requests: \(report)")
        }
    }

    /// A few hundred users at once: what the server answered within the run is counted, in the
    /// second it came, and every request the server got is a counted call or the call in flight of
    /// an iteration stopped at the end. The users' start-up and a busy event loop threw away answers
    /// that came within the run (1000 users for 4 s: 0 calls counted, 961 answered) and counted
    /// others in seconds past its end (tester's L1).
    @Test func manyUsersCountWhatTheServerAnswered() async throws {
        try await TestServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try "target ok { base \(server.baseURL); path /status/200 }\ncall ok\n"
                .write(to: directory.appendingPathComponent("ok.wsh"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["load", "ok.wsh", "--users", "300", "--duration", "3s", "--report-json", "load.json"],
                                                  directory: directory)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            let report = try Self.report(directory)
            let calls = report["calls"] as? Int ?? 0
            let stopped = report["stopped"] as? Int ?? 0
            let requests = server.hits("/status/200")
            // Some were sent; how many were answered within the run depends on how starved the machine is.
            #expect(requests > 0 && report["errors"] as? Int == 0, "\(report)")
            #expect(calls <= requests && requests <= calls + stopped, "\(requests) requests: \(report)")
            let timeline = try #require(report["timeline"] as? [[String: Any]])
            #expect(timeline.count <= 3 && timeline.compactMap { $0["calls"] as? Int }.reduce(0, +) == calls, "\(timeline)")
        }
    }

    /// A report that cannot be written (a file where --report-html wants a folder) stops the run
    /// before anything is sent, the setup's calls included, saying which option: it came after the
    /// setup had called the server, in the words of the file written (tester's L3).
    @Test func aReportThatCannotBeWrittenStopsTheRunBeforeAnythingIsSent() async throws {
        try await TestServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try "target ok { base \(server.baseURL); path /status/200 }\ncall ok\n"
                .write(to: directory.appendingPathComponent("setup.wsh"), atomically: true, encoding: .utf8)
            try "call ok\n".write(to: directory.appendingPathComponent("ok.wsh"), atomically: true, encoding: .utf8)
            try "".write(to: directory.appendingPathComponent("afile"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["load", "setup.wsh", "ok.wsh", "--users", "1", "--duration", "1s", "--report-json", "good.json",
                                                   "--report-html", "afile"], directory: directory)
            #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("wsh: error: --report-html 'afile': cannot write 'afile/index.html': not a directory"), "\(result.stderr)")
            #expect(result.stderr.contains("the run was not started") && !result.stderr.contains("1 user, for 1s"), "\(result.stderr)")
            #expect(server.hits("/status/200") == 0, "the setup called the server")
            // A report's folders are made only when it is written: a run refused for another reason
            // leaves none behind (review-load R4), and a path under a file is said as such.
            let refused = try await WSHProcess.run(["load", "nosuch.wsh", "--users", "1", "--duration", "1s",
                                                    "--report-html", "newrep/a/b", "--report-json", "newj/x/r.json"], directory: directory)
            #expect(refused.status != 0, "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("newrep").path)
                    && !FileManager.default.fileExists(atPath: directory.appendingPathComponent("newj").path), "folders left behind")
            let under = try await WSHProcess.run(["load", "setup.wsh", "ok.wsh", "--users", "1", "--duration", "1s", "--report-html", "afile/sub"],
                                                 directory: directory)
            #expect(under.status == 3 && under.stderr.contains("--report-html 'afile/sub'") && under.stderr.contains("not a directory"), "\(under.stderr)")
        }
    }

    /// `let token = env X` then `plugin auth bearer $token`, as plugins-and-secrets.md shows it, runs
    /// under load and exports to Locust as it runs in `wsh test`: the setup sees the `let`s before it,
    /// in the file's order ("undefined variable 'token'" refused both) (tester's L4).
    @Test func aLetBeforeTheSetupIsSeenByIt() async throws {
        try await TestServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try "let token = env SEKRIT\nplugin auth bearer $token host 127.0.0.1\ntarget e { base \(server.baseURL); path /echo }\ncall e\nexpect body contains $token\n"
                .write(to: directory.appendingPathComponent("sec.wsh"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["load", "sec.wsh", "--users", "1", "--duration", "1s", "--threshold", "checks>=100%"],
                                                  environment: ["SEKRIT": "hunter2XYZ"], directory: directory)
            #expect(result.status == 0 && result.stdout.contains("✔ checks>=100%"), "\(result.stdout)\(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains("hunter2XYZ"), "the secret was shown")
            let export = try await WSHProcess.run(["-c", "export locust sec.wsh"], environment: ["SEKRIT": "hunter2XYZ"], directory: directory)
            #expect(export.status == 0 && export.stdout.contains("os.environ[\"SEKRIT\"]") && !export.stdout.contains("hunter2XYZ"),
                    "\(export.stdout)\(export.stderr)")
            // The plugin is not written, and a note says so rather than Locust's calls all getting a 401 (tester's L11).
            #expect(export.stderr.contains("note: a locustfile has no plugins (plugin auth)"), "\(export.stderr)")
        }
    }

    /// `export locust` checks the plugin lines it leaves out, as `wsh load` and `wsh test` refuse a
    /// wrong one, and gives the Authorization advice only for `plugin auth` (review-load R3).
    @Test func exportLocustChecksThePluginLinesItLeavesOut() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let target = "target ok { base http://127.0.0.1:9; path /ok }\ncall ok\n"
        for (name, plugin, message) in [("unknown.wsh", "plugin nosuchplugin on", "unknown.wsh:1:8: error: unknown plugin 'nosuchplugin'"),
                                         ("setting.wsh", "plugin retry 2", "setting.wsh:1:14: error: unknown setting '2' for plugin 'retry'")] {
            try (plugin + "\n" + target).write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
            let export = try await WSHProcess.run(["-c", "export locust \(name)"], directory: directory)
            #expect(export.status == 2 && export.stderr.contains(message) && export.stdout.isEmpty, "\(name): \(export.stdout)\(export.stderr)")
        }
        try ("plugin logger on\n" + target).write(to: directory.appendingPathComponent("logger.wsh"), atomically: true, encoding: .utf8)
        let export = try await WSHProcess.run(["-c", "export locust logger.wsh"], directory: directory)
        #expect(export.status == 0 && export.stderr == "note: a locustfile has no plugins (plugin logger): they are left out\n", "\(export.stderr)")
    }

    /// SIGTERM, as a CI job's cancel, `timeout` and Kubernetes send it, stops the run as Ctrl-C does:
    /// the summary of what ran and the report, then wsh ends by the signal. It killed wsh with
    /// neither (tester's L5).
    @Test func sigtermStopsTheRunWithItsSummaryAndReport() async throws {
        try await TestServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try "target ok { base \(server.baseURL); path /status/200 }\ncall ok\n"
                .write(to: directory.appendingPathComponent("ok.wsh"), atomically: true, encoding: .utf8)
            let running = try RunningWSH(["load", "ok.wsh", "--users", "2", "--duration", "10m", "--report-json", "load.json"], directory: directory)
            #expect(running.waitForOutput("1s: ", inStderr: true))
            running.interrupt(with: SIGTERM)
            #expect(try await offPool { running.waitForExit() } == SIGTERM)
            #expect(running.stdout.contains(", interrupted") && running.stderr.contains("wsh: interrupted (SIGTERM)"), "\(running.stdout)\(running.stderr)")
            #expect(try Self.report(directory)["interrupted"] as? Bool == true)
        }
    }

    /// At a terminal narrower than a line of the live view (a long failed `expect`), each line is
    /// cut to its width: a line that wrapped took two rows, and the redraw, moving up by lines,
    /// left a stale one each second (tester's L7). The pseudo-terminal is 100 columns wide.
    @Test func theLiveViewIsCutToTheTerminal() async throws {
        try await TestServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            let long = String(repeating: "long expected text ", count: 8)
            try "target ok { base \(server.baseURL); path /status/200 }\ncall ok\nexpect .message == \"\(long)\"\n"
                .write(to: directory.appendingPathComponent("wide.wsh"), atomically: true, encoding: .utf8)
            // Stopped once a frame has shown the failed check, however slow the machine: no race with the duration.
            let terminal = try PseudoTerminal(arguments: ["load", "wide.wsh", "--users", "1", "--duration", "10m"], environment: [:], directory: directory)
            #expect(terminal.waitFor("failed: wide.wsh:3:"))
            terminal.interrupt()
            #expect(terminal.waitFor(" calls in "))
            // The live view is the rows before the summary's (`wsh load: 509 calls in 2.0s`); escape sequences take no column.
            let rows = terminal.screen.replacingOccurrences(of: "\u{1B}\\[[0-9;]*[A-Za-z]", with: "", options: .regularExpression)
                .components(separatedBy: .newlines).prefix { !$0.contains(" calls in ") }
            #expect(rows.contains { $0.hasPrefix("failed: wide.wsh:3:") } && rows.allSatisfy { $0.count <= 100 },
                    "\(rows.map { "\($0.count): \($0)" }.joined(separator: "\n"))")
        }
    }

    /// Retries are off under load, with a note: each attempt is a call, so the 503s a `plugin retry`
    /// or a target's `retry N` would have retried away are counted as errors, and every request
    /// the server saw is a call of the report.
    @Test func retriesAreOffSoEveryAttemptCounts() async throws {
        try await TestServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            let scenarios = [
                "plugin": "plugin retry on count 3 backoff 1ms jitter 0%\ntarget k { base \(server.baseURL); path /flaky/plugin; query fail=3 }\ncall k\n",
                "target": "target k { base \(server.baseURL); path /flaky/target; query fail=3; retry 3 }\ncall k\n",
            ]
            for (name, text) in scenarios {
                try text.write(to: directory.appendingPathComponent("\(name).wsh"), atomically: true, encoding: .utf8)
                let result = try await WSHProcess.run(["load", "\(name).wsh", "--users", "1", "--duration", "1s", "--threshold", "errors<=0%",
                                                       "--report-json", "load.json"], directory: directory)
                #expect(result.status == 4, "\(name): \(result.stdout)")
                #expect(result.stderr.contains("note: retries are off under load"), "\(name): \(result.stderr)")
                #expect(result.stdout.contains("errors: status 503 ×3"), "\(name): \(result.stdout)")
                let calls = try #require(try Self.report(directory)["calls"] as? Int)
                let hits = server.hits("/flaky/\(name)")
                #expect(hits >= calls && hits <= calls + 1, "\(name): \(hits) requests, \(calls) calls")
            }
        }
    }

    /// The open model's dropped arrivals fail a run with thresholds: one connection to answers that
    /// take 500 ms cannot take 40 arrivals a second, and `dropped<1%` (added when no `dropped` mark
    /// is given) says so, though every call made was answered in time and without error.
    @Test func droppedArrivalsFailTheThresholds() async throws {
        try await TestServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try "target slow { base \(server.baseURL); path /slow; query ms=500 }\ncall slow\n"
                .write(to: directory.appendingPathComponent("slow.wsh"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["load", "slow.wsh", "--rate", "40/s", "--connections", "1", "--duration", "1s",
                                                   "--threshold", "errors<1%", "--threshold", "p95<1m"], directory: directory)
            #expect(result.status == 4, "\(result.stdout)")
            #expect(result.stdout.contains("✔ errors<1%") && result.stdout.contains("✘ dropped<1%"), "\(result.stdout)")
            let allowed = try await WSHProcess.run(["load", "slow.wsh", "--rate", "40/s", "--connections", "1", "--duration", "1s",
                                                    "--threshold", "dropped<=100%"], directory: directory)
            #expect(allowed.status == 0 && allowed.stdout.contains("✔ dropped<=100%") && !allowed.stdout.contains("dropped<1%"), "\(allowed.stdout)")
            let closed = try await WSHProcess.run(["load", "slow.wsh", "--threshold", "dropped<1%"], directory: directory)
            #expect(closed.status == 1 && closed.stderr.contains("give it with --rate"), "\(closed.stderr)")
        }
    }

    /// A setup that fails stops the run before it starts, its error said once with its place (not
    /// an unknown target counted thousands of times a second, exit 0); so does a call of a target
    /// nothing declares, and a file that is no scenario (a .http file), rather than being read as wsh.
    @Test func aBrokenSetupStopsTheRunBeforeItStarts() async throws {
        try await TestServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try "set base \(server.baseURL)\nset timeout banana\ntarget ok { path /echo }\ncall ok\n"
                .write(to: directory.appendingPathComponent("bad.wsh"), atomically: true, encoding: .utf8)
            let bad = try await WSHProcess.run(["load", "bad.wsh", "--users", "1", "--duration", "1s"], directory: directory)
            #expect(bad.status == 3, "\(bad.stdout)\(bad.stderr)")
            #expect(bad.stderr.contains("bad.wsh:2:") && bad.stderr.contains("banana") && bad.stderr.contains("^"), "\(bad.stderr)")
            #expect(bad.stderr.contains("the setup failed, so the run was not started") && !bad.stdout.contains("wsh load:"), "\(bad.stdout)")
            #expect(server.hits("/echo") == 0)

            try "use openapi nosuch.yaml\ncall ok\n".write(to: directory.appendingPathComponent("missing.wsh"), atomically: true, encoding: .utf8)
            let missing = try await WSHProcess.run(["load", "missing.wsh", "--users", "1", "--duration", "1s"], directory: directory)
            #expect(missing.status == 3 && missing.stderr.contains("missing.wsh:1:") && missing.stderr.contains("nosuch.yaml"), "\(missing.stderr)")

            try "target ok { base \(server.baseURL); path /echo }\ncall ok\ncall nosuch\n".write(to: directory.appendingPathComponent("typo.wsh"), atomically: true, encoding: .utf8)
            let typo = try await WSHProcess.run(["load", "typo.wsh", "--users", "1", "--duration", "1s"], directory: directory)
            #expect(typo.status == 3 && typo.stderr.contains("typo.wsh:3:6: error: unknown target 'nosuch'") && typo.stderr.contains("^"), "\(typo.stderr)")

            try "GET \(server.baseURL)/echo\n".write(to: directory.appendingPathComponent("req.http"), atomically: true, encoding: .utf8)
            let http = try await WSHProcess.run(["load", "req.http", "--users", "1", "--duration", "1s"], directory: directory)
            #expect(http.status == 1 && http.stderr.contains("use http req.http"), "\(http.stderr)")
            #expect(server.hits("/echo") == 0)

            // A target the scenario declares itself is no unknown one; TARGET names one of the setup's.
            try "target ok { base \(server.baseURL); path /echo }\n".write(to: directory.appendingPathComponent("one.wsh"), atomically: true, encoding: .utf8)
            let named = try await WSHProcess.run(["load", "one.wsh", "okk", "--users", "1", "--duration", "1s"], directory: directory)
            #expect(named.status == 3 && named.stderr == "wsh: error: unknown target 'okk'\nnote: did you mean 'ok'?\n", "\(named.stderr)")
            try "get \(server.baseURL)/status/200\ntarget again from last\ncall again\n".write(to: directory.appendingPathComponent("last.wsh"), atomically: true, encoding: .utf8)
            let last = try await WSHProcess.run(["load", "last.wsh", "--users", "1", "--duration", "1s"], directory: directory)
            #expect(last.status == 0 && last.stdout.contains("0 errors"), "\(last.stdout)\(last.stderr)")

            // Under set stub every call is a sample: thresholds passed while the server saw nothing (mock tester's F9).
            try "set stub on\ntarget ok { base \(server.baseURL); path /echo; sample '{\"fast\":true}' }\ncall ok\n"
                .write(to: directory.appendingPathComponent("stub.wsh"), atomically: true, encoding: .utf8)
            let stubbed = try await WSHProcess.run(["load", "stub.wsh", "--users", "1", "--duration", "1s"], directory: directory)
            #expect(stubbed.status == 3 && stubbed.stderr.contains("set stub answers every call from samples"), "\(stubbed.stdout)\(stubbed.stderr)")
            #expect(server.hits("/echo") == 0)
        }
    }

    /// Ctrl-C stops the run with the summary of what ran (exit 130); hosts other than this
    /// machine are refused before anything is sent.
    @Test func interruptingPrintsWhatRanAndOtherHostsAreRefused() async throws {
        try await PlantedServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try Self.scenario(server, in: directory, body: "call user id=4\n")
            let running = try RunningWSH(["load", "scenario.wsh", "--users", "2", "--duration", "10m"], directory: directory)
            #expect(running.waitForOutput("1s: ", inStderr: true))
            running.interrupt()
            #expect(running.waitForExit() == 130)
            #expect(running.stdout.contains(", interrupted"), "\(running.stdout)")

            try "target away { base https://api.example.com; path /x }\ncall away\n".write(to: directory.appendingPathComponent("away.wsh"), atomically: true, encoding: .utf8)
            let away = try await WSHProcess.run(["load", "away.wsh", "--duration", "1s"], directory: directory)
            #expect(away.status == 3 && away.stderr.contains("will not load api.example.com (target 'away')"), "\(away.stderr)")
        }
    }

    /// `--processes 2`: two workers of wsh's own binary share the users, and what they measured
    /// adds up in the parent's summary, report and thresholds as if one process had run it all.
    /// Ctrl-C stops the workers too: none is left running when wsh exits.
    @Test func processesShareTheUsersAndTheirCountsAddUp() async throws {
        try await PlantedServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try Self.scenario(server, in: directory, body: "call user id=3\nexpect .name == \"user3\"\nexpect .id == 4\n")
            // A file before the scenario is each user's setup, run once by each: not by wsh itself too.
            try Self.scenario(server, in: directory, name: "setup.wsh", body: "call greet name=setup\n")
            let result = try await WSHProcess.run(["load", "setup.wsh", "scenario.wsh", "--users", "3", "--processes", "2", "--duration", "2s",
                                                   "--threshold", "errors<1%", "--threshold", "checks>=40%", "--report-json", "load.json"],
                                                  directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("wsh load: scenario.wsh: 3 users in 2 processes, for 2s"), "\(result.stderr)")
            #expect(result.stdout.contains("✔ errors<1%") && result.stdout.contains("✔ checks>=40%"), "\(result.stdout)")
            // A `checks` threshold given says what share may fail: none is added.
            #expect(!result.stdout.contains("checks>=100%"), "\(result.stdout)")
            let report = try Self.report(directory)
            let calls = try #require(report["calls"] as? Int)
            let requests = try server.requests()
            #expect(calls > 20, "\(result.stdout)")
            // Calls stopped at the end may have reached the server without an answer counted.
            #expect(requests.count >= calls && requests.count <= calls + 3, "\(requests.count) requests, \(calls) calls")
            #expect(requests.filter { $0.line == "GET /greet?name=setup" }.count == 3, "one setup a user")
            let timeline = try #require(report["timeline"] as? [[String: Any]])
            #expect(timeline.compactMap { $0["calls"] as? Int }.reduce(0, +) == calls)
            // Each iteration's first check holds and its second fails, in whichever process ran it.
            #expect(result.stdout.contains("failed: scenario.wsh:5: .id == 4 ×\(calls - 3)"), "\(result.stdout)")

            let running = try RunningWSH(["load", "scenario.wsh", "--users", "2", "--processes", "2", "--duration", "10m"], directory: directory)
            #expect(running.waitForOutput("calls, 0 errors, p50", inStderr: true))
            #expect(Self.processes(workingIn: directory).count == 3, "wsh and its two workers")
            running.interrupt()
            #expect(running.waitForExit() == 130)
            #expect(running.stdout.contains(", interrupted"), "\(running.stdout)")
            #expect(!running.stdout.contains("wsh load: 0 calls"), "\(running.stdout)")
            #expect(Self.processes(workingIn: directory).isEmpty, "workers left running")
        }
    }

    /// The processes run one plan: the second of two users starts halfway through a ramp, not
    /// with the first (each process ramping its own users started one per process at once), and
    /// the arrivals of `--rate` are the rate's, not rounded up in each process; more processes
    /// than the open model's connections are not started. Against answers that take 100 ms, so
    /// that calls a second follow the users.
    @Test func processesShareOnePlan() async throws {
        try await TestServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try "target slow { base \(server.baseURL); path /slow; query ms=100 }\ncall slow\n"
                .write(to: directory.appendingPathComponent("slow.wsh"), atomically: true, encoding: .utf8)
            let ramped = try await WSHProcess.run(["load", "slow.wsh", "--users", "2", "--processes", "2", "--ramp", "2s", "--duration", "2s",
                                                   "--report-json", "load.json"], directory: directory)
            #expect(ramped.status == 0, "\(ramped.stderr)")
            // The first user calls from 0 s, the second from 1 s: each call takes at least 100 ms, and
            // none starts after 2 s, so at most 21 and 11 calls; the two starting at once made about
            // 40. A loaded machine makes fewer calls, never more, so no timing can fail this (counting
            // the calls of each second did, when the workers started late under a parallel build).
            let calls = try #require(try Self.report(directory)["calls"] as? Int)
            #expect(calls > 0 && calls <= 32, "\(calls) calls: \(ramped.stdout)")

            let rated = try await WSHProcess.run(["load", "slow.wsh", "--rate", "10/s", "--processes", "4", "--duration", "1s",
                                                  "--report-json", "load.json"], directory: directory)
            #expect(rated.status == 0, "\(rated.stderr)")
            // The last arrivals may still be out at the end: stopped there, not counted.
            let rates = try Self.report(directory)
            #expect((rates["calls"] as? Int ?? 0) + (rates["stopped"] as? Int ?? 0) == 10, "\(rated.stdout)")

            let bounded = try await WSHProcess.run(["load", "slow.wsh", "--rate", "10/s", "--connections", "1", "--processes", "4", "--duration", "1s"],
                                                   directory: directory)
            #expect(bounded.stderr.contains("10.0 arrivals/s (at most 1 at once), for 1s"), "one process for one connection: \(bounded.stderr)")
        }
    }

    /// Each user holds a socket: the soft limit on open files is raised to the hard one at the
    /// start, as Locust does, so 200 users under a soft limit of 128 all connect; past the hard
    /// limit the run is refused before it starts, saying the limit and `ulimit -n`, and no report
    /// is written (a run that started would have failed its connections and written an empty one).
    @Test func usersPastTheOpenFileLimitRaiseItOrAreRefused() async throws {
        try await TestServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            try "target ok { base \(server.baseURL); path /status/200 }\ncall ok\n"
                .write(to: directory.appendingPathComponent("ok.wsh"), atomically: true, encoding: .utf8)
            let arguments = ["load", "ok.wsh", "--users", "200", "--duration", "3s", "--report-json", "load.json"]
            let raised = try await Self.run(arguments, openFiles: "128:4096", in: directory)
            #expect(raised.status == 0, "\(raised.stdout)\(raised.stderr)")
            let report = try Self.report(directory)
            // Under a limit of 128, most of the 200 connections would fail (too many open files). Each
            // user answered or was stopped at the end (a loaded machine has more of those).
            #expect(report["errors"] as? Int == 0 && (report["calls"] as? Int ?? 0) + (report["stopped"] as? Int ?? 0) >= 200, "\(report)")

            try FileManager.default.removeItem(at: directory.appendingPathComponent("load.json"))
            let hits = server.hits("/status/200")
            let refused = try await Self.run(arguments, openFiles: "128:128", in: directory)
            #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
            #expect(refused.stderr.contains("200 users need about 264 open files, and this process may open at most 128")
                    && refused.stderr.contains("ulimit -n 264"), "\(refused.stderr)")
            #expect(refused.stdout.isEmpty && server.hits("/status/200") == hits, "\(refused.stdout)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("load.json").path))
        }
    }

    /// wsh with `arguments` under a limit on open files, `SOFT:HARD` as prlimit takes it.
    static func run(_ arguments: [String], openFiles: String, in directory: URL) async throws -> WSHProcess.Result {
        try await offPool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
            process.arguments = ["--nofile=\(openFiles)", "--", WSHProcess.binary] + arguments
            process.currentDirectoryURL = directory
            // No init.wsh or configuration of the user running the tests.
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = directory.path
            environment["XDG_CONFIG_HOME"] = nil
            process.environment = environment
            return try WSHProcess.runToEnd(process, stdin: "")
        }
    }

    /// The pids of wsh processes working in `directory`.
    static func processes(workingIn directory: URL) -> [String] {
        let path = directory.resolvingSymlinksInPath().path
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { entry in
            guard entry.allSatisfy(\.isNumber), let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/cwd"),
                  let command = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return false }
            return cwd == path && String(decoding: command, as: UTF8.self).contains("load")
        }
    }
}
