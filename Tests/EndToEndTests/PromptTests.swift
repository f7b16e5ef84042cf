import Foundation
import Testing

/// The interactive prompt on a real pseudo-terminal: completion, history, blocks and Ctrl-C.
@Suite(.serialized) struct PromptTests {
    func environment(history: URL) throws -> [String: String] {
        ["HOME": try WSHProcess.temporaryDirectory().path, "WSH_HISTORY": history.path]
    }

    @Test func tabCompletesCommandsAndCtrlCGivesAFreshPrompt() throws {
        let history = try WSHProcess.temporaryDirectory().appendingPathComponent("history")
        let terminal = try PseudoTerminal(environment: try environment(history: history))
        #expect(terminal.waitFor("wsh> "))
        var mark = terminal.mark
        // "ech" + Tab must become "echo ": the output line then starts with the word.
        terminal.type("ech\t")
        terminal.type("completed-ok\r")
        #expect(terminal.waitFor("\r\ncompleted-ok\r\n", after: mark))
        mark = terminal.mark
        terminal.type("echo half typed")
        #expect(terminal.waitFor("half typed", after: mark))
        mark = terminal.mark
        terminal.type("\u{03}")
        #expect(terminal.waitFor("^C", after: mark))
        #expect(terminal.waitFor("wsh> ", after: mark))
        mark = terminal.mark
        terminal.type("echo after-interrupt\r")
        #expect(terminal.waitFor("after-interrupt\r\nwsh> ", after: mark))
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0)
    }

    @Test func braceOpensTheContinuationPrompt() throws {
        let history = try WSHProcess.temporaryDirectory().appendingPathComponent("history")
        let terminal = try PseudoTerminal(environment: try environment(history: history))
        #expect(terminal.waitFor("wsh> "))
        let mark = terminal.mark
        terminal.type("reactor r {\r")
        #expect(terminal.waitFor("...> ", after: mark))
        terminal.type("\u{03}")
        #expect(terminal.waitFor("^C\r\nwsh> ", after: mark))
        terminal.type("exit 4\r")
        #expect(terminal.waitForExit() == 4)
    }

    @Test func historyPersistsAcrossRestartsWithoutSecrets() throws {
        let history = try WSHProcess.temporaryDirectory().appendingPathComponent("state/history")
        var env = try environment(history: history)
        env["WSH_TEST_TOKEN"] = "tok-123456789"
        let first = try PseudoTerminal(environment: env)
        #expect(first.waitFor("wsh> "))
        first.type("let token = env WSH_TEST_TOKEN\r")
        #expect(first.waitFor("TOKEN\r\nwsh> "))
        var mark = first.mark
        first.type("echo remembered-line tok-123456789\r")
        #expect(first.waitFor("remembered-line ***\r\nwsh> ", after: mark))
        mark = first.mark
        first.type("echo remembered-line tok-123456789\r")
        #expect(first.waitFor("remembered-line ***\r\nwsh> ", after: mark))
        first.type("\u{04}")
        #expect(first.waitForExit() == 0)
        let stored = try String(contentsOf: history, encoding: .utf8)
        #expect(stored == "let token = env WSH_TEST_TOKEN\necho remembered-line ***\n")

        let second = try PseudoTerminal(environment: env)
        #expect(second.waitFor("wsh> "))
        mark = second.mark
        second.type("\u{1B}[A")
        #expect(second.waitFor("echo remembered-line ***", after: mark))
        second.type("\u{15}exit\r")
        #expect(second.waitForExit() == 0)
    }

    @Test func aCredentialTypedLiterallyIsStarredInTheHistoryAndMaskedFromThenOn() throws {
        let history = try WSHProcess.temporaryDirectory().appendingPathComponent("history")
        let terminal = try PseudoTerminal(environment: try environment(history: history))
        #expect(terminal.waitFor("wsh> "))
        var mark = terminal.mark
        terminal.type("plugin auth bearer abc123xyz host x\r")
        #expect(terminal.waitFor("\r\nwsh> ", after: mark))
        mark = terminal.mark
        terminal.type("plugin auth basic alice:pw-4567 host x\r")
        #expect(terminal.waitFor("\r\nwsh> ", after: mark))
        mark = terminal.mark
        terminal.type("plugin auth \\\r")
        #expect(terminal.waitFor("...> ", after: mark))
        mark = terminal.mark
        terminal.type("bearer continued-98765 host x\r")
        #expect(terminal.waitFor("\r\nwsh> ", after: mark))
        mark = terminal.mark
        terminal.type("echo abc123xyz done\r")
        #expect(terminal.waitFor("*** done\r\nwsh> ", after: mark))
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0)
        let stored = try String(contentsOf: history, encoding: .utf8)
        #expect(stored == """
            plugin auth bearer *** host x
            plugin auth basic alice:*** host x
            plugin auth \\
            bearer *** host x
            echo *** done

            """)
    }

    @Test func exitInInitFileEndsWshBeforeThePrompt() throws {
        let config = try WSHProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: config.appendingPathComponent("wsh"), withIntermediateDirectories: true)
        try "exit 7".write(to: config.appendingPathComponent("wsh/init.wsh"), atomically: true, encoding: .utf8)
        var env = try environment(history: config.appendingPathComponent("history"))
        env["XDG_CONFIG_HOME"] = config.path
        let terminal = try PseudoTerminal(arguments: [], environment: env)
        #expect(terminal.waitForExit() == 7)
    }
}

/// What the logger holds for its file is written before the prompt waits for the next line.
@Suite(.serialized) struct PromptLogFileTests {
    @Test func theLogFileHasTheCallWhenThePromptComesBack() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            let environment = ["HOME": directory.path, "WSH_HISTORY": directory.appendingPathComponent("history").path]
            let terminal = try PseudoTerminal(environment: environment, directory: directory)
            #expect(terminal.waitFor("wsh> "))
            terminal.type("target ok { base \(server.baseURL); path /status/204 }\r")
            terminal.type("plugin logger on summary file calls.log\r")
            let mark = terminal.mark
            terminal.type("call ok\r")
            // The prompt right after the call's status line, not an earlier one still unread at `mark`.
            #expect(terminal.waitFor("HTTP 204 No Content", after: mark))
            #expect(terminal.waitFor(" 0 B\r\nwsh> ", after: mark))
            let log = (try? String(contentsOf: directory.appendingPathComponent("calls.log"), encoding: .utf8)) ?? ""
            #expect(log.contains("GET \(server.baseURL)/status/204 -> 204 No Content"), "\(log)")
            terminal.type("exit\r")
            #expect(terminal.waitForExit() == 0)
        }
    }
}
