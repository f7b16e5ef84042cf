import Foundation
import TestSupport
import Testing

/// The plugins at a terminal: the spinner on stderr while stdout is a pipe, and at the prompt,
/// init.wsh, Tab completion of plugin settings, and a secret kept out of the screen and the history.
@Suite struct PluginTerminalTests {
    static let secret = PluginCommandTests.secret

    @Test func spinnerDrawsOnATerminalWhileStdoutGoesToAPipe() async throws {
        try await withLoopbackServer { server in
            // `/held?whole` sends nothing, not even the head, until the test releases it.
            let script = """
            target current { base \(server.baseURL); path /held; query type=json whole=1 }
            plugin loading on
            call current
            """
            let (sawFrame, sawStatus, status, screen, output) = try await offPool {
                let terminal = try PseudoTerminal(arguments: ["-c", script], environment: [:], stdoutIsPipe: true)
                // The answer is released once the elapsed time has counted up past 0.3 s.
                let sawFrame = terminal.waitUntil { $0.contains(/current (0\.[3-9]|[1-9]\.\d)s/) }
                let release = Process()
                release.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
                release.arguments = ["--silent", "--output", "/dev/null", server.baseURL + "/held/release"]
                try release.runSerially()
                release.waitUntilExitPolling()
                let sawStatus = terminal.waitFor("HTTP 200 OK")
                let status = terminal.waitForExit()
                return (sawFrame, sawStatus, status, terminal.screen, terminal.pipedOutput())
            }
            #expect(sawFrame, "the elapsed time counts up: \(screen.debugDescription)")
            #expect(sawStatus)
            #expect(status == 0)
            #expect(output == "data: one\n\ndata: two\n\n", "\(output.debugDescription)")
            #expect(screen.contains("⠋ current 0."), "\(screen.debugDescription)")
            #expect(screen.contains("\r\u{1B}[K"))
            let afterErase = try #require(screen.range(of: "\r\u{1B}[K", options: .backwards))
            #expect(screen[afterErase.upperBound...].hasPrefix("HTTP 200 OK"), "\(screen.debugDescription)")
            #expect(!output.contains("⠋"))
        }
    }

    /// Issue 35.13: at the prompt, with stderr a terminal, a call that has gone 300 ms unanswered
    /// shows the spinner, its elapsed time and the bytes so far, with no `plugin loading on`;
    /// `plugin loading off` turns it off. `/held` keeps the call open until the spinner was seen.
    @Test func atThePromptASlowCallShowsTheSpinnerUntilLoadingIsOff() async throws {
        try await withLoopbackServer { server in
            let outcome = try await onTerminal(environment: try promptEnvironment()) { terminal in
                terminal.expect("wsh> ")
                let calling = terminal.mark
                terminal.type("get \(server.baseURL)/held?type=json\r")
                // The first part of the body, `data: one` and two line feeds, has come.
                terminal.expect("⠋ (get) 0.", after: calling)
                terminal.expect("s 11 B", after: calling)
                try StreamedBodyTests.release(server)
                terminal.expect("HTTP 200 OK", after: calling)
                terminal.expect("wsh> ", after: calling)
                terminal.type("plugin loading off\r", expecting: "wsh> ")
                let quiet = terminal.mark
                terminal.type("get \(server.baseURL)/slow?ms=700\r")
                terminal.expect("slept_ms", after: quiet)
                terminal.expect("wsh> ", after: quiet)
                let spunWhileOff = terminal.screen[quiet...].contains("(get) 0.")
                terminal.type("exit\r")
                return spunWhileOff
            }
            #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
            #expect(outcome.value == false, "the spinner drew while off: \(outcome.screen.debugDescription)")
            #expect(outcome.exitStatus == 0)
        }
    }

    /// A script at a terminal stays quiet: the spinner is the prompt's default only.
    @Test func aScriptAtATerminalShowsNoSpinnerByDefault() async throws {
        try await withLoopbackServer { server in
            let outcome = try await onTerminal(arguments: ["--norc", "-c", "get \(server.baseURL)/slow?ms=700"],
                                               environment: try promptEnvironment()) { terminal in
                terminal.expect("slept_ms")
            }
            #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
            #expect(!outcome.screen.contains("(get) 0."), "\(outcome.screen.debugDescription)")
            #expect(outcome.exitStatus == 0)
        }
    }

    @Test func initFileTabCompletionAndHistoryAtThePrompt() async throws {
        let routes = ["/weather": StaticRoute(body: #"{"name":"Suwon"}"#)]
        try await withLoopbackServer(routes: routes) { server in
            let home = try WSHProcess.temporaryDirectory()
            let config = home.appendingPathComponent("config/wsh")
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            try "plugin retry on count 2 backoff 10ms\n".write(to: config.appendingPathComponent("init.wsh"), atomically: true, encoding: .utf8)
            let history = home.appendingPathComponent("history")
            let (failures, screen) = try await offPool { () throws -> ([String], String) in
                var failures: [String] = []
                func check(_ ok: Bool, _ what: String) { if !ok { failures.append(what) } }
                let terminal = try PseudoTerminal(arguments: [], environment: [
                    "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                    "WSH_HISTORY": history.path, "WSH_E2E_KEY": Self.secret,
                ])
                check(terminal.waitFor("wsh> "), "wsh> ")
                var mark = terminal.mark
                terminal.type("plugins\r")
                check(terminal.waitFor("retry    on   count 2 backoff 10ms max 5s jitter 20%", after: mark), "retry    on   count 2 backoff 10ms max 5s jitter 20%")
                check(terminal.waitFor("wsh> ", after: mark), "wsh> ")
                mark = terminal.mark
                terminal.type("plugin logg\t")
                terminal.type("on verb\t")
                terminal.type("\r")
                check(terminal.waitFor("wsh> ", after: mark), "wsh> ")
                mark = terminal.mark
                terminal.type("plugins\r")
                check(terminal.waitFor("logger   on   verbose body 4096", after: mark), "logger   on   verbose body 4096")
                check(terminal.waitFor("wsh> ", after: mark), "wsh> ")
                mark = terminal.mark
                terminal.type("let key = env WSH_E2E_KEY\r")
                check(terminal.waitFor("wsh> ", after: mark), "wsh> ")
                mark = terminal.mark
                terminal.type("target w { base \(server.baseURL); path /weather; query q=$key }\r")
                check(terminal.waitFor("wsh> ", after: mark), "wsh> ")
                mark = terminal.mark
                terminal.type("call w\r")
                check(terminal.waitFor("> GET \(server.baseURL)/weather?q=***", after: mark), "> GET \(server.baseURL)/weather?q=***")
                check(terminal.waitFor("\"Suwon\"", after: mark), "\"Suwon\"")
                check(terminal.waitFor("wsh> ", after: mark), "wsh> ")
                mark = terminal.mark
                terminal.type("show w --curl\r")
                check(terminal.waitFor("/weather?q=$WSH_E2E_KEY\"", after: mark), "/weather?q=$WSH_E2E_KEY\"")
                check(terminal.waitFor("wsh> ", after: mark), "wsh> ")
                terminal.type("\u{04}")
                check(terminal.waitForExit() == 0, "exit")
                return (failures, terminal.screen)
            }
            #expect(failures.isEmpty, "did not see: \(failures)")
            #expect(!screen.contains(Self.secret))
            let stored = try String(contentsOf: history, encoding: .utf8)
            #expect(stored.contains("plugin logger on verbose \n"))
            #expect(stored.contains("call w\n"))
            #expect(!stored.contains(Self.secret))
        }
    }
}
