import Foundation
import TestSupport
import Testing

/// The interactive prompt on a real pseudo-terminal: completion, history, blocks, Ctrl-C and init.wsh.
@Suite(.serialized) struct PromptTests {
    func environment(history: URL) throws -> [String: String] {
        ["HOME": try WSHProcess.temporaryDirectory().path, "WSH_HISTORY": history.path]
    }

    /// Typed non-ASCII text is kept, edited by character and recalled from history, also with no
    /// locale in the environment (wsh then reads as C.UTF-8).
    @Test(arguments: [[:], ["LANG": "C.UTF-8"], ["LC_ALL": "en_US.UTF-8"]])
    func koreanAndEmojiAreTypedEditedAndRecalled(locale: [String: String]) async throws {
        let history = try WSHProcess.temporaryDirectory().appendingPathComponent("history")
        let outcome = try await onTerminal(environment: try environment(history: history).merging(locale) { $1 }) { terminal in
            terminal.expect("wsh> ")
            terminal.type("let city = \"서울\"\r", expecting: "wsh> ")
            // Each line is typed once the prompt is back: typed before, it would meet the terminal
            // in its cooked mode between two reads, where DEL erases in the kernel's line buffer.
            terminal.type("echo \"$city 😀 café\"\r", expecting: "\r\n서울 😀 café\r\nwsh> ")
            // Left over X, then Backspace deletes the one character before it, 시, not a byte of it.
            terminal.type("echo 서울시X\u{1B}[D\u{7F}\r", expecting: "\r\n서울X\r\nwsh> ")
            // Up twice recalls the echo of the emoji line.
            terminal.type("\u{1B}[A\u{1B}[A\r", expecting: "\r\n서울 😀 café\r\n")
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(outcome.exitStatus == 0)
    }

    @Test func tabCompletesCommandsAndCtrlCGivesAFreshPrompt() async throws {
        let history = try WSHProcess.temporaryDirectory().appendingPathComponent("history")
        let outcome = try await onTerminal(environment: try environment(history: history)) { terminal in
            terminal.expect("wsh> ")
            var mark = terminal.mark
            // "ech" + Tab must become "echo ": the output line then starts with the word.
            terminal.type("ech\t")
            terminal.type("completed-ok\r")
            terminal.expect("\r\ncompleted-ok\r\n", after: mark)
            terminal.type("echo half typed", expecting: "half typed")
            mark = terminal.mark
            terminal.type("\u{03}")
            terminal.expect("^C", after: mark)
            terminal.expect("wsh> ", after: mark)
            terminal.type("echo after-interrupt\r", expecting: "after-interrupt\r\nwsh> ")
            terminal.type("\u{04}")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(outcome.exitStatus == 0)
    }

    /// Tab on a path with a blank inserts one word, in a string (`"dir with space/`), which a second
    /// Tab completes to the file and closes: the line runs the script. It was inserted bare, two
    /// words, and `source` refused the line; inside a string opened by hand nothing completed.
    @Test func tabCompletesAPathWithABlankAsOneQuotedWord() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("dir with space"), withIntermediateDirectories: true)
        try "echo sourced-ok\n".write(to: directory.appendingPathComponent("dir with space/s.wsh"), atomically: true, encoding: .utf8)
        let history = try WSHProcess.temporaryDirectory().appendingPathComponent("history")
        let outcome = try await onTerminal(environment: try environment(history: history), directory: directory) { terminal in
            terminal.expect("wsh> ")
            var mark = terminal.mark
            terminal.type("source dir\t", expecting: #""dir with space/"#)
            terminal.type("\t", expecting: #"s.wsh""#)
            terminal.type("\r")
            terminal.expect("\r\nsourced-ok\r\nwsh> ", after: mark)
            mark = terminal.mark
            terminal.type(#"source "dir w"# + "\t\t\r")
            terminal.expect("\r\nsourced-ok\r\nwsh> ", after: mark)
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(!outcome.screen.contains("error"), "\(outcome.screen.debugDescription)")
        #expect(outcome.exitStatus == 0)
    }

    /// `wsh | tee log`: with stdout a pipe the prompt and the typed line are drawn on the terminal
    /// (stderr, as bash draws its prompt), Ctrl-C clears the line, and the pipe gets only the output.
    @Test func withStdoutAPipeThePromptIsDrawnOnTheTerminal() async throws {
        let environment = try promptEnvironment()
        let (missed, screen, output) = try await offPool {
            let terminal = try PseudoTerminal(environment: environment, stdoutIsPipe: true)
            terminal.expect("wsh> ")
            terminal.type("echo aaa", expecting: "echo aaa")
            terminal.type("\u{03}", expecting: "wsh> ")
            terminal.type("echo bbb", expecting: "echo bbb")
            terminal.type("\r", expecting: "wsh> ")
            terminal.type("exit\r")
            _ = terminal.waitForExit()
            return (terminal.missed, terminal.screen, terminal.pipedOutput())
        }
        #expect(missed.isEmpty, "did not see \(missed) in \(screen.debugDescription)")
        #expect(output == "bbb\n", "\(output.debugDescription)")
    }

    /// Tab on more than 100 candidates asks first, as readline does: `n` lists nothing, `y` lists
    /// the files by name in columns (every one was a full path on a line of its own, at once).
    @Test func tabAsksBeforeListingManyFilesAndListsTheirNames() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("many"), withIntermediateDirectories: true)
        for index in 0..<150 {
            try Data().write(to: directory.appendingPathComponent("many/" + String(format: "f%03d", index)))
        }
        let history = try WSHProcess.temporaryDirectory().appendingPathComponent("history")
        let outcome = try await onTerminal(environment: try environment(history: history), directory: directory) { terminal in
            terminal.expect("wsh> ")
            terminal.type("source many/f", expecting: "many/f")
            var mark = terminal.mark
            terminal.type("\t", expecting: "Display all 150 possibilities? (y or n) ")
            terminal.type("n", expecting: "wsh> source many/f")
            let declined = String(terminal.screen[mark...])
            mark = terminal.mark
            terminal.type("\t", expecting: "Display all 150 possibilities? (y or n) ")
            terminal.type("y", expecting: "f149")
            terminal.expect("wsh> source many/f", after: mark)
            let listed = String(terminal.screen[mark...])
            // Ctrl-C at the question clears the line, as it does everywhere else: what is typed
            // next is a line of its own.
            mark = terminal.mark
            terminal.type("\t", expecting: "Display all 150 possibilities? (y or n) ")
            terminal.type("\u{03}", expecting: "^C\r\nwsh> ")
            terminal.type("echo fresh-line\r")
            terminal.expect("\r\nfresh-line\r\nwsh> ", after: mark)
            terminal.type("exit\r")
            return (declined, listed)
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(!outcome.value.0.contains("f000"), "\(outcome.value.0.debugDescription)")
        #expect(outcome.value.1.contains("f000  f001  f002"), "\(outcome.value.1.debugDescription)")
        #expect(!outcome.value.1.contains("many/f0"), "\(outcome.value.1.debugDescription)")
        #expect(outcome.exitStatus == 0)
    }

    /// Issue 35.5: Ctrl-D typed while a call runs, with the terminal in its cooked mode then, leaves
    /// the next prompt as any other: Ctrl-L clears the screen and Tab completes, neither goes into
    /// the line.
    @Test func ctrlDWhileACallRunsLeavesTheNextPromptClean() async throws {
        try await withLoopbackServer { server in
            let history = try WSHProcess.temporaryDirectory().appendingPathComponent("history")
            let outcome = try await onTerminal(environment: try environment(history: history)) { terminal in
                terminal.expect("wsh> ")
                let calling = terminal.mark
                terminal.type("get \(server.baseURL)/held\r")
                // The first event, printed as it arrives: the call runs, and the prompt has given the
                // terminal back in its cooked mode.
                terminal.expect("data: one", after: calling)
                // The kernel echoes x and erases it only after it has taken the Ctrl-D before them.
                let typed = terminal.mark
                terminal.type("\u{04}x\u{7F}")
                terminal.expect("\u{08} \u{08}", after: typed)
                try StreamedBodyTests.release(server)
                terminal.expect("data: two", after: typed)
                terminal.expect("wsh> ", after: typed)
                let next = terminal.mark
                terminal.type("\u{0C}ech\t")
                terminal.type("clean-prompt\r")
                terminal.expect("\r\nclean-prompt\r\n", after: next)
                terminal.type("exit\r")
            }
            #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
            #expect(outcome.exitStatus == 0)
        }
    }

    @Test func braceOpensTheContinuationPrompt() async throws {
        let history = try WSHProcess.temporaryDirectory().appendingPathComponent("history")
        let outcome = try await onTerminal(environment: try environment(history: history)) { terminal in
            terminal.expect("wsh> ")
            let mark = terminal.mark
            terminal.type("reactor r {\r")
            terminal.expect("...> ", after: mark)
            terminal.type("\u{03}")
            terminal.expect("^C\r\nwsh> ", after: mark)
            terminal.type("exit 4\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(outcome.exitStatus == 4)
    }

    @Test func historyPersistsAcrossRestartsWithoutSecrets() async throws {
        let history = try WSHProcess.temporaryDirectory().appendingPathComponent("state/history")
        var env = try environment(history: history)
        env["WSH_TEST_TOKEN"] = "tok-123456789"
        let first = try await onTerminal(environment: env) { terminal in
            terminal.expect("wsh> ")
            terminal.type("let token = env WSH_TEST_TOKEN\r")
            terminal.expect("TOKEN\r\nwsh> ")
            terminal.type("echo remembered-line tok-123456789\r", expecting: "remembered-line ***\r\nwsh> ")
            terminal.type("echo remembered-line tok-123456789\r", expecting: "remembered-line ***\r\nwsh> ")
            terminal.type("\u{04}")
        }
        #expect(first.missed.isEmpty, "did not see \(first.missed) in \(first.screen.debugDescription)")
        #expect(first.exitStatus == 0)
        let stored = try String(contentsOf: history, encoding: .utf8)
        #expect(stored == "let token = env WSH_TEST_TOKEN\necho remembered-line ***\n")

        let second = try await onTerminal(environment: env) { terminal in
            terminal.expect("wsh> ")
            terminal.type("\u{1B}[A", expecting: "echo remembered-line ***")
            terminal.type("\u{15}exit\r")
        }
        #expect(second.missed.isEmpty, "did not see \(second.missed) in \(second.screen.debugDescription)")
        #expect(second.exitStatus == 0)
    }

    /// A recalled declaration keeps the history's `***` as typed, as a recalled request sends it:
    /// a note says so. It re-declared the target silently, and every call then sent `X-API-Key: ***`.
    @Test func aRecalledDeclarationHoldingStarsSaysSo() async throws {
        let history = try WSHProcess.temporaryDirectory().appendingPathComponent("history")
        let outcome = try await onTerminal(environment: try environment(history: history)) { terminal in
            terminal.expect("wsh> ")
            for (line, note) in [("target hb { base http://127.0.0.1:1; header X-API-Key:zzz999888 }", "note: 'X-API-Key' holds *** as typed"),
                                 ("let api_key = \"k-12345678\"", "note: 'api_key' holds *** as typed"),
                                 ("plugin auth bearer abc123xyz host x", "note: 'plugin auth' holds *** as typed")] {
                terminal.type(line + "\r", expecting: "\r\nwsh> ")
                let recalled = terminal.mark
                terminal.type("\u{1B}[A\r")
                terminal.expect(note, after: recalled)
                terminal.expect("wsh> ", after: recalled)
            }
            terminal.type("\u{04}")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(outcome.exitStatus == 0)
    }

    /// Literal credentials of `plugin auth`, of items named like secrets, of a URL and of a secret `let`.
    @Test func aCredentialTypedLiterallyIsStarredInTheHistoryAndMaskedFromThenOn() async throws {
        let history = try WSHProcess.temporaryDirectory().appendingPathComponent("history")
        let outcome = try await onTerminal(environment: try environment(history: history)) { terminal in
            terminal.expect("wsh> ")
            terminal.type("plugin auth bearer abc123xyz host x\r", expecting: "\r\nwsh> ")
            terminal.type("plugin auth basic alice:pw-4567 host x\r", expecting: "\r\nwsh> ")
            terminal.type("plugin auth \\\r", expecting: "...> ")
            terminal.type("bearer continued-98765 host x\r", expecting: "\r\nwsh> ")
            terminal.type("echo abc123xyz done\r", expecting: "*** done\r\nwsh> ")
            terminal.type("let token = \"tok-55555\"\r", expecting: "\r\nwsh> ")
            terminal.type("get http://u:pw-7777@127.0.0.1:1/x appid==key-4567 X-API-Key:k-3333\r", expecting: "\r\nwsh> ")
            // Recalled, the line sends *** as typed, and a note says so.
            let recalled = terminal.mark
            terminal.type("\u{1B}[A\r", expecting: "note: the URL, 'appid', 'X-API-Key' sends *** as typed")
            // The prompt after the error's caret line: Ctrl-D typed while the statement still runs would be lost.
            terminal.expect("~\r\nwsh> ", after: recalled)
            terminal.type("\u{04}")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(outcome.exitStatus == 0)
        let stored = try String(contentsOf: history, encoding: .utf8)
        // The statement continued with `\` is one entry, its line break written as 0x01.
        #expect(stored == """
            plugin auth bearer *** host x
            plugin auth basic alice:*** host x
            plugin auth \\\u{01}bearer *** host x
            echo *** done
            let token = ***
            get http://u:***@127.0.0.1:1/x appid==*** X-API-Key:***

            """)
    }

    /// A config directory whose wsh/init.wsh holds `text`, and an environment that points at it.
    func initFile(_ text: String) throws -> [String: String] {
        let config = try WSHProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: config.appendingPathComponent("wsh"), withIntermediateDirectories: true)
        try text.write(to: config.appendingPathComponent("wsh/init.wsh"), atomically: true, encoding: .utf8)
        var env = try environment(history: config.appendingPathComponent("history"))
        env["XDG_CONFIG_HOME"] = config.path
        return env
    }

    @Test func initFileRunsAtAnInteractiveStartAndNorcSkipsIt() async throws {
        let env = try initFile("let from_init = ran\n")
        let started = try await onTerminal(arguments: [], environment: env) { terminal in
            terminal.expect("wsh> ")
            terminal.type("echo \"init $from_init\"\r", expecting: "init ran\r\nwsh> ")
            terminal.type("exit\r")
        }
        #expect(started.missed.isEmpty, "did not see \(started.missed) in \(started.screen.debugDescription)")
        #expect(started.exitStatus == 0)

        let skipped = try await onTerminal(arguments: ["--norc"], environment: env) { terminal in
            terminal.expect("wsh> ")
            let mark = terminal.mark
            terminal.type("echo \"init $from_init\"\r")
            terminal.expect("error: undefined variable 'from_init'", after: mark)
            terminal.expect("wsh> ", after: mark)
            terminal.type("exit\r")
        }
        #expect(skipped.missed.isEmpty, "did not see \(skipped.missed) in \(skipped.screen.debugDescription)")
        #expect(!skipped.screen.contains("init ran"))
    }

    @Test func exitInInitFileEndsWshBeforeThePrompt() async throws {
        let outcome = try await onTerminal(arguments: [], environment: try initFile("exit 7")) { _ in }
        #expect(outcome.exitStatus == 7)
        #expect(!outcome.screen.contains("wsh> "))
    }

    /// `source` at the prompt of a file that says `exit 3` (a test file sourced to debug it) ends
    /// that file and the entry, with a note, and the session stays with what it held; only an
    /// `exit` typed at the prompt leaves. It ended the session, its unsaved work with it. A script
    /// sourcing the same file still ends there.
    @Test func exitInAFileSourcedAtThePromptEndsTheFileNotTheSession() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try "let fromfile = 1\nexit 3\necho not-reached\n".write(to: directory.appendingPathComponent("f.wsh"), atomically: true, encoding: .utf8)
        try "source f.wsh\necho g-not-reached\n".write(to: directory.appendingPathComponent("g.wsh"), atomically: true, encoding: .utf8)
        let outcome = try await onTerminal(environment: try environment(history: directory.appendingPathComponent("history")),
                                           directory: directory) { terminal in
            terminal.expect("wsh> ")
            terminal.type("let important = 42\r", expecting: "wsh> ")
            var mark = terminal.mark
            terminal.type("source f.wsh; echo same-entry\r")
            terminal.expect("note: f.wsh ended with exit 3; the session goes on", after: mark)
            terminal.expect("wsh> ", after: mark)
            mark = terminal.mark
            terminal.type("echo \"kept $important $fromfile\"\r")
            terminal.expect("kept 42 1\r\nwsh> ", after: mark)
            // The note named g.wsh as if it had said the exit that f.wsh, which it sourced, said (review 12's L1).
            mark = terminal.mark
            terminal.type("source g.wsh\r")
            terminal.expect("note: exit 3 in f.wsh ended g.wsh; the session goes on", after: mark)
            terminal.expect("wsh> ", after: mark)
            terminal.type("exit 5\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(!outcome.screen.contains("not-reached"))
        #expect(!outcome.screen.contains("\nsame-entry"))
        #expect(outcome.exitStatus == 5)

        let script = try await WSHProcess.run(["-c", "source f.wsh; echo after"], directory: directory)
        #expect(script.status == 3)
        #expect(script.stdout.isEmpty && !script.stderr.contains("note:"), "\(script)")
    }
}

/// What the logger holds for its file is written before the prompt waits for the next line.
@Suite(.serialized) struct PromptLogFileTests {
    @Test func theLogFileHasTheCallWhenThePromptComesBack() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            let environment = ["HOME": directory.path, "WSH_HISTORY": directory.appendingPathComponent("history").path]
            let baseURL = server.baseURL
            let outcome = try await onTerminal(environment: environment, directory: directory) { terminal in
                terminal.expect("wsh> ")
                terminal.type("target ok { base \(baseURL); path /status/204 }\r")
                terminal.type("plugin logger on summary file calls.log\r")
                let mark = terminal.mark
                terminal.type("call ok\r")
                // The prompt right after the call's status line, not an earlier one still unread at `mark`.
                terminal.expect("HTTP 204 No Content", after: mark)
                terminal.expect(" 0 B\r\nwsh> ", after: mark)
                // Read while wsh waits at the prompt, before anything makes it flush on exit.
                let log = (try? String(contentsOf: directory.appendingPathComponent("calls.log"), encoding: .utf8)) ?? ""
                terminal.type("exit\r")
                return log
            }
            #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
            #expect(outcome.value.contains("GET \(baseURL)/status/204 -> 204 No Content"), "\(outcome.value)")
            #expect(outcome.exitStatus == 0)
        }
    }
}
