import Foundation
import Testing
import TestSupport

/// Reactor state in time: each echo is written when its reduce happens, and Ctrl-C in the middle
/// of an action leaves no state `loading=true`.
@Suite struct InterruptAndEchoTests {
    @Test func eachEchoIsWrittenWhenItsReduceHappens() async throws {
        let running = try RunningWSH(["-c", "set counter-delay 60s; counter increase"])
        let first = try await offPool { running.waitForOutput("counter | value=0 loading=true\n") }
        #expect(first)
        // The first line came while the action was still waiting out its delay, and alone.
        #expect(running.isRunning)
        #expect(running.stdout == "counter | value=0 loading=true\n")
        running.interrupt()
        #expect(try await offPool { running.waitForExit() } == 130)
    }

    /// At a terminal a call piped to a command inside an action showed the status line
    /// (`HTTP 200 OK  26 ms  377 B`) on stderr, though an action's output is its echo: it shows
    /// none, piped or not, and a call at the prompt still does (review-reactors2 R5).
    @Test func aCallPipedInAnActionShowsNoStatusLine() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try #"{"author": "Ann"}"#.write(to: directory.appendingPathComponent("q.json"), atomically: true, encoding: .utf8)
        let outcome = try await onTerminal(arguments: ["--norc", "--stub"], environment: try promptEnvironment(), directory: directory) { terminal in
            terminal.expect("wsh> ")
            terminal.type("target q { base http://127.0.0.1:9; path /q; sample @q.json }\r", expecting: "wsh> ")
            terminal.type("reactor pp { state a = \"\"; action x { call q | wc -c; emit a = .author } }\r", expecting: "wsh> ")
            let mark = terminal.mark
            terminal.type("pp x\r", expecting: "pp | a=\"Ann\"")
            terminal.expect("wsh> ", after: mark)
            let inAction = String(terminal.screen[mark...])
            let top = terminal.mark
            terminal.type("call q | wc -c\r", expecting: "wsh> ")
            let atPrompt = String(terminal.screen[top...])
            terminal.type("exit\r")
            return (inAction, atPrompt)
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(!outcome.value.0.contains("HTTP 200"), "\(outcome.value.0.debugDescription)")
        #expect(outcome.value.1.contains("HTTP 200 OK"), "\(outcome.value.1.debugDescription)")
    }

    @Test func everyEchoOfAnActionReachesAPipe() async throws {
        let result = try await WSHProcess.run(["-c", "set counter-delay 10ms; counter increase"])
        #expect(result.stdout == "counter | value=0 loading=true\ncounter | value=1 loading=true\ncounter | value=1 loading=false\n")
    }

    @Test func ctrlCDuringCounterEndsLoading() async throws {
        let running = try RunningWSH(["-c", "set counter-delay 60s; counter increase"])
        #expect(try await offPool { running.waitForOutput("loading=true\n") })
        running.interrupt()
        let status = try await offPool { running.waitForExit() }
        #expect(status == 130)
        #expect(running.stdout.hasSuffix("counter | value=0 loading=false\n"), "\(running.stdout)")
        #expect(running.stderr.contains("interrupted"))
    }

    @Test func ctrlCDuringWeatherEndsLoadingWithTheErrorInterrupted() async throws {
        try await withLoopbackServer { server in
            let query = "query latitude=1 longitude=1 current=t daily=t timezone=auto forecast_days=1"
            let script = "use open-meteo\ntarget current {\n base \(server.baseURL)\n path /never\n \(query)\n}\nweather current\n"
            let directory = try WSHProcess.temporaryDirectory()
            let file = directory.appendingPathComponent("w.wsh")
            try script.write(to: file, atomically: true, encoding: .utf8)
            let running = try RunningWSH([file.path])
            #expect(try await offPool { running.waitForOutput("loading=true") })
            running.interrupt()
            let status = try await offPool { running.waitForExit() }
            #expect(status == 130)
            let last = running.stdout.split(separator: "\n").last.map(String.init) ?? ""
            #expect(last.contains("loading=false"), "\(running.stdout)")
            #expect(last.contains(#"error="interrupted""#), "\(running.stdout)")
        }
    }

    /// A prompt with a target `slow` that never answers and `reactor` declared, where `command` has
    /// started: `started` (the action's first echo) is on the screen. `false` when it did not get there.
    private static func promptWithSlowAction(port: Int, command: String, started: String, reactor: String) throws -> (PseudoTerminal, Bool) {
        let terminal = try PseudoTerminal(environment: ["HOME": try WSHProcess.temporaryDirectory().path])
        guard terminal.waitFor("wsh> ") else { return (terminal, false) }
        terminal.type("target slow { base http://127.0.0.1:\(port); path /never }\r")
        terminal.type(reactor + "\r")
        let mark = terminal.mark
        terminal.type(command + "\r")
        return (terminal, terminal.waitFor(started, after: mark))
    }

    /// A JSONPath query that would walk 100 million nodes (each of 10,001 runs `$..x` over the
    /// whole document) stops at Ctrl-C, instead of running on to its step limit.
    @Test func ctrlCStopsALongJSONPathQuery() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let numbers = "[" + (0..<10_000).map(String.init).joined(separator: ",") + "]"
        try numbers.write(to: directory.appendingPathComponent("numbers.json"), atomically: true, encoding: .utf8)
        let outcome = try await onTerminal(arguments: ["--norc", "--stub"], environment: try promptEnvironment(), directory: directory) { terminal in
            terminal.expect("wsh> ")
            terminal.type("target numbers { base http://127.0.0.1:9; path /n; sample @numbers.json }\r", expecting: "wsh> ")
            terminal.type("set output quiet; call numbers\r", expecting: "wsh> ")
            let mark = terminal.mark
            terminal.type("echo started; print . | jsonpath \"$..[?$..x]\" | length\r")
            terminal.expect("started\r\n", after: mark)
            terminal.interrupt()
            terminal.expect("wsh> ", after: mark)
            terminal.type("echo after\r", expecting: "after\r\nwsh> ")
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(!outcome.screen.contains("visits more than"), "\(outcome.screen)")
        #expect(outcome.exitStatus == 0)
    }

    /// Ctrl-C while a large answer is being printed at a terminal stops the printing: the prompt
    /// comes back with most of the body never written (it used to scroll to its last byte first),
    /// and the colour is reset. The test reads nothing until the terminal holds 2 KB unread (the
    /// body has begun and wsh is about to wait for the reader), then sends SIGINT: what it reads
    /// after is what wsh wrote before and after the Ctrl-C, counted in rows, not timed.
    @Test func ctrlCStopsALargeAnswerBeingPrinted() async throws {
        let rows = 100_000
        let body = (0..<rows).map { "row \($0) of a large answer\n" }.joined()
        try await withLoopbackServer(routes: ["/big": StaticRoute(contentType: "text/plain", body: body)]) { server in
            let url = server.baseURL + "/big"
            let outcome = try await onTerminal(environment: try promptEnvironment()) { terminal in
                terminal.expect("wsh> ")
                terminal.type("set pager off\r", expecting: "wsh> ")
                let mark = terminal.mark
                terminal.type("get \(url)\r")
                if !terminal.waitForUnread(2048) { return (0, "the body was not printed") }
                terminal.interrupt()
                terminal.expect("wsh: interrupted", after: mark)
                terminal.expect("wsh> ", after: mark)
                let shown = terminal.screen[mark...].components(separatedBy: " of a large answer").count - 1
                terminal.type("echo after\r", expecting: "after\r\nwsh> ")
                terminal.type("exit\r")
                return (shown, terminal.rawScreen.components(separatedBy: "wsh: interrupted").first ?? "")
            }
            #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.suffix(2000).debugDescription)")
            #expect(outcome.value.0 > 0)
            #expect(outcome.value.0 < rows / 2, "\(outcome.value.0) of \(rows) rows were printed after Ctrl-C")
            #expect(outcome.value.1.hasSuffix("\u{1B}[0m\r\n"), "the colour is reset: \(outcome.value.1.suffix(200).debugDescription)")
            #expect(outcome.exitStatus == 0)
        }
    }

    @Test func ctrlCDuringADeclaredActionRunsItsCatchAndTheNextRefreshRuns() async throws {
        try await withLoopbackServer { server in
            let port = server.port
            let screen = try await offPool {
                let (terminal, started) = try Self.promptWithSlowAction(
                    port: port, command: "q refresh", started: "loading=true",
                    reactor: "reactor q { state loading = false, error = \"\"; action refresh unless loading { emit loading = true; call slow; emit loading = false } catch { emit error = $error, loading = false } }")
                guard started else { return terminal.screen }
                var mark = terminal.mark
                terminal.interrupt()
                guard terminal.waitFor("wsh> ", after: mark) else { return terminal.screen }
                mark = terminal.mark
                terminal.type("state q\r")
                guard terminal.waitFor("wsh> ", after: mark) else { return terminal.screen }
                mark = terminal.mark
                terminal.type("q refresh\r")
                _ = terminal.waitFor("loading=true", after: mark)
                terminal.interrupt()
                _ = terminal.waitFor("wsh> ", after: mark)
                terminal.type("exit\r")
                _ = terminal.waitForExit()
                return terminal.screen
            }
            #expect(screen.contains(#"q | loading=false error="interrupted""#), "\(screen)")
            // The clean-up's echo starts a line of its own, not the one a terminal's echoed `^C` is
            // on (here SIGINT comes with no `^C`, so that line is empty), and `wsh: interrupted`
            // follows it with no blank line between.
            #expect(screen.contains("q | loading=true\r\n\r\nq | loading=false error=\"interrupted\"\r\nwsh: interrupted"), "\(screen)")
            #expect(!screen.contains("skipped while loading is true"), "\(screen)")
            // The second refresh ran: its loading=true came after the state line.
            let afterState = screen.components(separatedBy: "state q").last ?? ""
            #expect(afterState.contains("loading=true"), "\(screen)")
        }
    }

    @Test func anInterruptedActionWithoutCatchTurnsItsUnlessFieldOff() async throws {
        try await withLoopbackServer { server in
            let script = "target slow {\n base \(server.baseURL)\n path /never\n}\n"
                + "reactor q {\n state busy = false\n action go unless busy { emit busy = true; call slow }\n}\nq go\n"
            let directory = try WSHProcess.temporaryDirectory()
            let file = directory.appendingPathComponent("q.wsh")
            try script.write(to: file, atomically: true, encoding: .utf8)
            let running = try RunningWSH([file.path])
            #expect(try await offPool { running.waitForOutput("busy=true") })
            running.interrupt()
            #expect(try await offPool { running.waitForExit() } == 130)
            #expect(running.stdout.hasSuffix("q | busy=false\n"), "\(running.stdout)")
        }
    }

    /// A second Ctrl-C stops a `catch` that hangs too: the prompt comes back, and the `unless`
    /// field is set back as for an action with no `catch` (it was left `busy=true` for ever, every
    /// later `q go` skipped).
    @Test func aSecondCtrlCStopsACatchThatHangsAndTurnsItsUnlessFieldOff() async throws {
        try await withLoopbackServer { server in
            let port = server.port
            let screen = try await offPool {
                let (terminal, started) = try Self.promptWithSlowAction(
                    port: port, command: "q go", started: "busy=true",
                    reactor: "reactor q { state busy = false, error = \"\"; action go unless busy { emit busy = true; call slow } catch { emit error = $error; call slow; emit busy = false } }")
                guard started else { return terminal.screen }
                /// Whether `/never` has had `count` requests, waiting up to 60 s for them.
                func hits(_ count: Int) -> Bool {
                    let deadline = Date().addingTimeInterval(60)
                    while server.hits("/never") < count, Date() < deadline { usleep(10_000) }
                    return server.hits("/never") == count
                }
                // The action's call hangs at the server; the first Ctrl-C stops it and runs the catch.
                guard hits(1) else { return terminal.screen + "\n(the action's call did not reach the server)" }
                terminal.interrupt()
                // Once the catch's own call has reached the server and hangs, a second Ctrl-C must end it.
                guard hits(2) else { return terminal.screen + "\n(the catch's call did not reach the server)" }
                var mark = terminal.mark
                terminal.interrupt()
                guard terminal.waitFor("wsh> ", after: mark) else { return terminal.screen }
                mark = terminal.mark
                terminal.type("state q; echo back\r")
                _ = terminal.waitFor("back\r\nwsh> ", after: mark)
                terminal.type("exit\r")
                _ = terminal.waitForExit()
                return terminal.screen
            }
            #expect(screen.contains("back\r\nwsh> "), "\(screen)")
            let state = screen.components(separatedBy: "state q").last ?? ""
            #expect(state.contains(#"q | busy=false error="interrupted""#), "\(screen)")
        }
    }
}
