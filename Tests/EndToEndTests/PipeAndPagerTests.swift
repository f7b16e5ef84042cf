import Foundation
import TestSupport
import Testing

/// `STATEMENT | COMMAND` and the pager, with the built binary and real shell commands.
@Suite struct PipeAndPagerTests {
    @Test func aStatementsOutputGoesToTheShellCommand() async throws {
        let result = try await WSHProcess.run(["-c", "echo hello world | tr a-z A-Z; echo after"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "HELLO WORLD\nafter\n")
    }

    @Test func aCallsBodyIsPipedRawAndTheCommandEndsAtAnUnquotedSemicolon() async throws {
        let server = try await TestServer.start(routes: ["/users": StaticRoute(contentType: "application/json", body: Array(#"[{"name":"Ada"},{"name":"Grace"}]"#.utf8))])
        let result = try await WSHProcess.run(["-c", """
            target users { base \(server.baseURL); path /users }
            call users | tr , '\\n' | grep -c name; expect status == 200
            targets | cut -c1-5
            """])
        try await server.shutdown()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "2\nusers\n", "\(result.stdout)")
    }

    @Test func aFailingCommandIsARuntimeErrorAtTheBar() async throws {
        let result = try await WSHProcess.run(["-c", "echo x | exit 7\necho not reached"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("<command line>:1:8: error: 'exit 7' exited with status 7"), "\(result.stderr)")
        #expect(!result.stdout.contains("not reached"))
    }

    /// `| .name` as jq's filters are written: sh finds no such command, and the note says how to query.
    /// A statement that fails where it does not stop the run (`set bail off`, the prompt) gives
    /// the command nothing: it ran on empty input, printing `0` and a second error.
    @Test func aFailedStatementRunsNoCommand() async throws {
        let result = try await WSHProcess.run(["-c", "set bail off\ncall nosuch | wc -c\necho after"])
        #expect(result.stdout == "after\n", "\(result.stdout)")
        #expect(result.stderr.contains("unknown target 'nosuch'") && !result.stderr.contains("exited with status"), "\(result.stderr)")
    }

    @Test func aQueryAfterTheBarGetsANoteOnHowToQuery() async throws {
        let result = try await WSHProcess.run(["-c", "echo '{\"a\":1}' | .a"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("'.a' exited with status 127"), "\(result.stderr)")
        #expect(result.stderr.contains("note: after | comes a shell command; to query the answer, write: print .a (or: | jq '.a')"), "\(result.stderr)")
    }

    @Test func inPrintABarIsAQueryFilterNotAPipe() async throws {
        let piped = try await WSHProcess.run(["-c", "echo a | wc -c"])
        #expect(piped.stdout == "2\n", "\(piped.stdout)")
        // After quoted text too, `|` starts a filter: `cat` is none, and nothing is piped to it.
        let printed = try await WSHProcess.run(["-c", "print \"x\" | cat"])
        #expect(printed.status == 2 && printed.stderr.contains("unknown filter 'cat'"), "\(printed.stderr)")
        #expect(!printed.stdout.contains("x\n"), "print does not pipe: \(printed.stdout)")
    }

    /// `set output pretty` asks for pretty JSON: into a pipe it comes without colour, as `jq` needs,
    /// while the same call to the terminal is coloured.
    @Test func prettyOutputIntoAPipeHasNoColour() async throws {
        let script = "use open-meteo; set output pretty; call geocode name=Suwon | tr -dc '\\033' | wc -c; call geocode name=Suwon"
        // An empty NO_COLOR is no request: the test runner sets NO_COLOR=1 for its own output.
        let environment = try promptEnvironment(["NO_COLOR": ""])
        let outcome = try await onTerminal(arguments: ["--norc", "--stub", "-c", script], environment: environment) { terminal in
            terminal.expect("\u{1B}[34;1m\"results\"")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(outcome.screen.contains("\r\n0\r\n"), "\(outcome.screen.debugDescription)")
    }

    @Test func longOutputAtThePromptGoesThroughThePagerAndShortOutputDoesNot() async throws {
        let environment = try promptEnvironment(["PAGER": "sed s/^/paged:/"])
        let outcome = try await onTerminal(arguments: ["--norc", "--stub"], environment: environment) { terminal in
            terminal.expect("wsh> ")
            terminal.type("use open-meteo\r", expecting: "wsh> ")
            // The hourly sample printed pretty is longer than the 30-row terminal.
            let before = terminal.mark
            terminal.type("call hourly\r")
            terminal.expect("paged:  \"hourly_units\": {", after: before)
            terminal.expect("paged:}", after: before)
            terminal.expect("wsh> ", after: before)
            let mark = terminal.mark
            // Piped, the body goes raw to the command: its 525 bytes as the server sent them.
            terminal.type("call geocode name=Suwon | wc -c\r", expecting: "\r\n525\r\n")
            var step = terminal.mark
            terminal.type("targets\r", expecting: "geocode")
            terminal.expect("wsh> ", after: step)
            terminal.type("set pager off\r", expecting: "wsh> ")
            step = terminal.mark
            terminal.type("call hourly\r", expecting: "\"hourly_units\"")
            terminal.expect("wsh> ", after: step)
            terminal.type("exit\r")
            return terminal.screen[mark...].contains("paged:")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(outcome.value == false, "short output and pager off are not paged: \(outcome.screen.debugDescription)")
        #expect(outcome.exitStatus == 0)
    }

    /// `set pager on` is the automatic pager, as every other switch takes `on`: it was run as the
    /// command `on`, which sh did not find, and the text was lost. A pager that cannot be run
    /// leaves the text printed, with a warning.
    @Test func pagerOnIsTheAutomaticPagerAndAPagerNotFoundLosesNoText() async throws {
        let environment = try promptEnvironment(["PAGER": "sed s/^/paged:/"])
        let outcome = try await onTerminal(arguments: ["--norc", "--stub"], environment: environment) { terminal in
            terminal.expect("wsh> ")
            terminal.type("use open-meteo\r", expecting: "wsh> ")
            terminal.type("set pager off\r", expecting: "wsh> ")
            var before = terminal.mark
            terminal.type("set pager on\r", expecting: "wsh> ")
            terminal.type("call hourly\r")
            terminal.expect("paged:  \"hourly_units\": {", after: before)
            terminal.expect("wsh> ", after: before)
            before = terminal.mark
            terminal.type("set pager wsh-no-such-pager\r", expecting: "wsh> ")
            terminal.type("call hourly\r")
            terminal.expect("  \"hourly_units\": {", after: before)
            terminal.expect("the pager 'wsh-no-such-pager' could not be run, so the text is printed without it", after: before)
            terminal.expect("wsh> ", after: before)
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(outcome.exitStatus == 0)
    }

    /// A pager that does what less does with Ctrl-C: it handles SIGINT (here by saying so) and
    /// goes on reading keys from the terminal; it leaves the terminal changed (Ctrl-X interrupts),
    /// as one killed mid-way would. (less itself drops a key typed just as it handles SIGINT, and
    /// shows nothing for it at its prompt, so a test with it would have to guess when to type.)
    static let interruptiblePager = """
        cat > /dev/null
        trap 'echo pager-interrupted' INT
        echo pager-ready
        until read key < /dev/tty; do :; done
        stty intr ^X < /dev/tty
        echo "pager-read:$key"
        """

    /// `STATEMENT | COMMAND` at a terminal: Ctrl-C in a pager the user pipes into (`help | less`)
    /// is the pager's too. wsh stopped the sh around it and gave its prompt back while the pager,
    /// orphaned, went on reading the keyboard: keys were split between the two.
    @Test func ctrlCInAPipedPagerIsThePagersAndThePromptWaitsForIt() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let pager = directory.appendingPathComponent("pager.sh")
        try Self.interruptiblePager.write(to: pager, atomically: true, encoding: .utf8)
        let outcome = try await onTerminal(environment: try promptEnvironment(), controlling: true) { terminal in
            terminal.expect("wsh> ")
            let paging = terminal.mark
            terminal.type("echo hi | sh \(pager.path)\r")
            terminal.expect("pager-ready", after: paging)
            let interrupted = terminal.mark
            terminal.type("\u{03}")
            terminal.expect("pager-interrupted", after: interrupted)
            terminal.type("q\r")
            terminal.expect("pager-read:q", after: interrupted)
            terminal.expect("wsh> ", after: interrupted)
            let afterInterrupt = String(terminal.screen[interrupted...])
            terminal.type("echo whole-line\r", expecting: "\r\nwhole-line\r\n")
            terminal.type("exit\r")
            return afterInterrupt
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        let screen = outcome.value
        #expect(!screen.contains("interrupted\r\nwsh> ") && (screen.range(of: "wsh> ")?.lowerBound ?? screen.endIndex)
                    > (screen.range(of: "pager-read:q")?.lowerBound ?? screen.startIndex), "\(screen.debugDescription)")
        #expect(outcome.exitStatus == 0)
    }

    /// Issue 35.4: Ctrl-C in the pager is the pager's: wsh waits for it to quit before its prompt
    /// comes back, so keys are never split between the two, and the terminal's mode is as it was
    /// before. The pty is wsh's controlling terminal, so a typed ^C is SIGINT to the foreground
    /// process group (wsh, sh and the pager), as at a real terminal.
    @Test func ctrlCInThePagerIsThePagersAndThePromptWaitsForItToQuit() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let pager = directory.appendingPathComponent("pager.sh")
        try Self.interruptiblePager.write(to: pager, atomically: true, encoding: .utf8)
        try await withLoopbackServer { server in
            let environment = try promptEnvironment(["PAGER": "sh \(pager.path)"])
            let outcome = try await onTerminal(environment: environment, controlling: true) { terminal in
                terminal.expect("wsh> ")
                let paging = terminal.mark
                // `help` is longer than the 30-row terminal.
                terminal.type("help\r")
                terminal.expect("pager-ready", after: paging)
                let interrupted = terminal.mark
                terminal.type("\u{03}")
                terminal.expect("pager-interrupted", after: interrupted)
                terminal.type("q\r")
                terminal.expect("pager-read:q", after: interrupted)
                terminal.expect("wsh> ", after: interrupted)
                let afterInterrupt = terminal.screen[interrupted...]
                // The prompt comes only once the pager has read its key and quit.
                let promptWhilePaging = (afterInterrupt.range(of: "wsh> ")?.lowerBound ?? afterInterrupt.endIndex)
                    < (afterInterrupt.range(of: "pager-read:q")?.lowerBound ?? afterInterrupt.endIndex)
                terminal.type("echo whole-line\r", expecting: "\r\nwhole-line\r\n")
                // While a statement runs the terminal is in the mode it had before the pager:
                // Ctrl-C stops a call.
                let calling = terminal.mark
                terminal.type("get \(server.baseURL)/held\r")
                terminal.expect("data: one", after: calling)
                let stopping = terminal.mark
                terminal.type("\u{03}")
                terminal.expect("wsh: interrupted", after: stopping)
                terminal.expect("wsh> ", after: stopping)
                terminal.type("exit\r")
                return promptWhilePaging
            }
            #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
            #expect(outcome.value == false, "the prompt came back while the pager ran: \(outcome.screen.debugDescription)")
            #expect(outcome.exitStatus == 0)
        }
    }
}

/// The echo at a terminal, the weather under --stub, and the first-start line.
@Suite struct ReadableEchoTests {
    @Test func atATerminalTheEchoShowsChangesAndSampleDataSaysSo() async throws {
        let outcome = try await onTerminal(arguments: ["--norc", "--stub"], environment: try promptEnvironment()) { terminal in
            terminal.expect("wsh> ")
            terminal.type("weather current Seoul\r", expecting: "weather | loading=false")
            terminal.type("set echo\r", expecting: "changes")
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        // The reading's line names the sample's place and says it is sample data, within the 100 columns.
        #expect(outcome.screen.contains(#"weather | view="current" place="Suwon (sample; asked for Seoul)" source="open-meteo (sample data)""#),
                "\(outcome.screen.debugDescription)")
        #expect(!outcome.screen.contains("error=\"\""), "the long line is cut to the screen: \(outcome.screen.debugDescription)")
    }

    /// The echo was cut to the screen before its secrets were masked: `s="supersec…` showed the
    /// start of a token from `env`.
    @Test func aLineCutToTheScreenShowsNoPartOfASecret() async throws {
        let padding = String(repeating: "a", count: 80)
        let outcome = try await onTerminal(environment: try promptEnvironment(["WSH_E2E_SECRET": "supersecret-echo-123"])) { terminal in
            terminal.expect("wsh> ")
            terminal.type("let tok = env WSH_E2E_SECRET\r", expecting: "wsh> ")
            terminal.type("reactor w { state a = \"\", s = \"\"; action go x { emit a = \"\(padding)\", s = $x } }\r", expecting: "wsh> ")
            let mark = terminal.mark
            terminal.type("w go $tok\r")
            terminal.expect("wsh> ", after: mark)
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(outcome.screen.contains(#"w | a="\#(padding)" s="***""#), "\(outcome.screen.debugDescription)")
        #expect(!outcome.screen.contains("supe"), "\(outcome.screen.debugDescription)")
    }

    /// `state counter` before the counter's first action made the reactor inside that statement,
    /// whose output is held for the pager and then dropped: every later echo went there, so
    /// `counter increase` printed nothing for the rest of the session.
    @Test func lookingAtAStateFirstLeavesItsEchoOn() async throws {
        let outcome = try await onTerminal(arguments: ["--norc", "--stub"], environment: try promptEnvironment()) { terminal in
            terminal.expect("wsh> ")
            terminal.type("state counter\r", expecting: "counter | value=0")
            let acting = terminal.mark
            terminal.type("counter increase\r")
            terminal.expect("value=1", after: acting)
            terminal.expect("wsh> ", after: acting)
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
    }

    @Test func inAPipeTheEchoKeepsWholeLines() async throws {
        let result = try await WSHProcess.run(["--stub", "-c", "weather current"])
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.hasSuffix(#"error="""#) }, "\(result.stdout)")
    }

    @Test func aFirstStartSaysWhereToBeginAndNotOnceThereIsAnInitFile() async throws {
        let home = try WSHProcess.temporaryDirectory()
        // $HOME decides where init.wsh and the history are, with no XDG variable or WSH_HISTORY set.
        let environment = try promptEnvironment(["HOME": home.path, "XDG_CONFIG_HOME": "", "XDG_STATE_HOME": "", "WSH_HISTORY": ""])
        let first = try await onTerminal(arguments: [], environment: environment) { terminal in
            terminal.expect("type help for the commands, weather current to try one")
            terminal.expect("wsh> ")
            terminal.type("echo remembered\r", expecting: "remembered\r\n")
            terminal.type("exit\r")
        }
        #expect(first.missed.isEmpty, "\(first.screen.debugDescription)")
        let history = try String(contentsOf: home.appendingPathComponent(".local/state/wsh/history"), encoding: .utf8)
        #expect(history.contains("echo remembered"))
        let config = home.appendingPathComponent(".config/wsh")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "echo from-init\n".write(to: config.appendingPathComponent("init.wsh"), atomically: true, encoding: .utf8)
        let later = try await onTerminal(arguments: [], environment: environment) { terminal in
            terminal.expect("from-init")
            terminal.expect("wsh> ")
            terminal.type("exit\r")
        }
        #expect(later.missed.isEmpty, "\(later.screen.debugDescription)")
        #expect(!later.screen.contains("type help for the commands"))
        let piped = try await WSHProcess.run([], stdin: "echo hi\n", environment: ["HOME": home.path])
        #expect(piped.stderr.isEmpty && piped.stdout == "hi\n")
    }
}
