import Foundation
import Testing
import TestSupport

/// Declared reactors in a session: an `exit` in an action at the prompt, credentials typed in a
/// declaration, a redeclaration while an action runs, `help NAME`, and a skipped action in `wsh test`.
@Suite struct ReactorSessionTests {
    static func environment(history: URL) throws -> [String: String] {
        ["HOME": try WSHProcess.temporaryDirectory().path, "WSH_HISTORY": history.path]
    }

    /// An `exit` in an action run at the prompt (the action from a sourced file, or a `catch {
    /// exit 0 }` typed there) ended wsh, silently, with the session's work. It ends the action and
    /// the entry with a note; the `unless` field is set back, and only `exit` typed at the prompt
    /// leaves. A script still exits with the action's status.
    @Test func exitInAnActionAtThePromptEndsTheActionNotTheSession() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try """
        reactor a {
          state n = 0, busy = false
          action go unless busy { emit busy = true; exit 5 }
          action quiet { call nowhere } catch { exit 0 }
          action nest { a go }
        }
        target nowhere { base http://127.0.0.1:9; path /x }

        """.write(to: directory.appendingPathComponent("ex.wsh"), atomically: true, encoding: .utf8)
        let outcome = try await onTerminal(environment: try Self.environment(history: directory.appendingPathComponent("history")),
                                           directory: directory) { terminal in
            terminal.expect("wsh> ")
            terminal.type("let keep = 42\r", expecting: "wsh> ")
            terminal.type("source ex.wsh\r", expecting: "wsh> ")
            var mark = terminal.mark
            terminal.type("a go; echo same-entry\r")
            terminal.expect("note: exit 5 in action 'a go' (ex.wsh:3:45) ended it; the session goes on", after: mark)
            terminal.expect("wsh> ", after: mark)
            mark = terminal.mark
            terminal.type("a quiet\r")
            terminal.expect("note: exit 0 in action 'a quiet' (ex.wsh:4:41) ended it; the session goes on", after: mark)
            terminal.expect("wsh> ", after: mark)
            mark = terminal.mark
            terminal.type("echo \"kept $keep\"; state a\r")
            terminal.expect("kept 42\r\na | n=0 busy=false\r\nwsh> ", after: mark)
            // The note names where the `exit` is, and the action typed that ran it (the review's F7).
            mark = terminal.mark
            terminal.type("a nest\r")
            terminal.expect("note: exit 5 in action 'a go' (ex.wsh:3:45), run by 'a nest', ended it; the session goes on", after: mark)
            terminal.expect("wsh> ", after: mark)
            terminal.type("exit 2\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(!outcome.screen.contains("\nsame-entry"))
        #expect(outcome.exitStatus == 2)

        let script = try await WSHProcess.run(["-c", "source ex.wsh; a go; echo after"], directory: directory)
        #expect(script.status == 5, "\(script)")
        #expect(!script.stdout.contains("after") && !script.stderr.contains("note:"), "\(script)")
    }

    /// `state api_key = "..."` and an argument for `action go token` were written to the history
    /// file in clear, where `let token = "..."` is kept as `***`; `save` wrote the declaration whole.
    @Test func credentialsTypedInAReactorAreHiddenInTheHistoryAndSave() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let history = directory.appendingPathComponent("history")
        let declaration = #"reactor sk { state api_key = "sk-live-999888777", password = "hunter2hunter2", n = 1; "#
            + #"action go token { emit api_key = $token } }"#
        let outcome = try await onTerminal(environment: try Self.environment(history: history), directory: directory) { terminal in
            terminal.expect("wsh> ")
            terminal.type(declaration + "\r", expecting: "wsh> ")
            let mark = terminal.mark
            terminal.type("sk go sk-live-555444333\r")
            terminal.expect("wsh> ", after: mark)
            terminal.type("reactor t { state k = 0; action set secret { emit k = 1 } }; t set tok-typed-on-one-line\r", expecting: "wsh> ")
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        let kept = try String(contentsOf: history, encoding: .utf8)
        for secret in ["sk-live-999888777", "hunter2hunter2", "sk-live-555444333", "tok-typed-on-one-line"] {
            #expect(!kept.contains(secret), "\(secret) in \(kept)")
        }
        #expect(kept.contains("state api_key = ***, password = ***, n = 1"), "\(kept)")
        #expect(kept.contains("sk go ***"), "\(kept)")

        let saved = try await WSHProcess.run(["-c", declaration + "; save s.wsh"], directory: directory)
        #expect(saved.status == 0, "\(saved)")
        let file = try String(contentsOf: directory.appendingPathComponent("s.wsh"), encoding: .utf8)
        #expect(!file.contains("sk-live-999888777") && !file.contains("hunter2hunter2"), "\(file)")
        #expect(file.contains("# reactor sk: not saved"), "\(file)")
    }

    /// A reactor field typed with its comma attached to the next name, or without blanks, was
    /// kept in clear in the history file (`,api_key="k"`, `state user = "bob" ,api_key = "k"`, a
    /// field on its own line); two fields without blanks kept only the first (review-main7 R3).
    @Test func fieldsWithAttachedCommasAreHiddenInTheHistory() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let history = directory.appendingPathComponent("history")
        let outcome = try await onTerminal(environment: try Self.environment(history: history), directory: directory) { terminal in
            terminal.expect("wsh> ")
            terminal.type(#"reactor c1 {"# + "\r", expecting: "...> ")
            terminal.type(#"  state user = "bob""# + "\r", expecting: "...> ")
            terminal.type(#",api_key="sk-live-GGG8""# + "\r", expecting: "...> ")
            terminal.type(#"    api_key="sk-live-III0""# + "\r", expecting: "...> ")
            terminal.type("}\r", expecting: "wsh> ")
            terminal.type(#"state user = "bob" ,api_key = "sk-live-KKK2""# + "\r", expecting: "wsh> ")
            terminal.type(#"state token="tok-CCC3",password="pw-CCC4""# + "\r", expecting: "wsh> ")
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        let kept = try String(contentsOf: history, encoding: .utf8)
        for secret in ["sk-live-GGG8", "sk-live-III0", "sk-live-KKK2", "tok-CCC3", "pw-CCC4"] {
            #expect(!kept.contains(secret), "\(secret) in \(kept)")
        }
        #expect(kept.contains("state token=***,password=***"), "\(kept)")
        #expect(kept.contains(#"state user = "bob" ,api_key = ***"#), "\(kept)")
    }

    /// A credential-named field whose value is `""` or a variable, with another field after it
    /// (`state token = "", loading = false`, `emit token = $t, loading = false`), was taken for a
    /// credential typed as text: `save` left the whole reactor out and the history kept `***`. The
    /// comma that separates fields is not part of the value. A JSON text with a `password` member
    /// under any field name is hidden as `let` hides it; and a line that does not lex is no longer
    /// starred because some reactor was declared.
    @Test func emptyOrVariableCredentialFieldsAreSavedAndKept() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let history = directory.appendingPathComponent("history")
        let reactors = [
            #"reactor v1 { state token = $t, n = 0; action go { emit n = 1 } }"#,
            #"reactor v3 { state token = "", n = 0; action go { emit n = 1 } }"#,
            #"reactor li { state token = "", loading = false; action login { emit token = $t, loading = false } }"#,
        ]
        try (["let t = \"abc\""] + reactors + [#"reactor cfg { state conf = '{"password": "hunter2xyz"}', n = 0; action go { emit n = 1 } }"#])
            .joined(separator: "\n").write(to: directory.appendingPathComponent("v.wsh"), atomically: true, encoding: .utf8)
        let saved = try await WSHProcess.run(["--norc", "-c", "source v.wsh; save v-out.wsh"], directory: directory)
        #expect(saved.status == 0, "\(saved)")
        let file = try String(contentsOf: directory.appendingPathComponent("v-out.wsh"), encoding: .utf8)
        for reactor in reactors { #expect(file.contains("\n" + reactor + "\n"), "\(reactor) not saved in \(file)") }
        #expect(!file.contains("hunter2xyz") && file.contains(#"conf = '{"password":"***"}'"#), "\(file)")

        let outcome = try await onTerminal(environment: try Self.environment(history: history), directory: directory) { terminal in
            terminal.expect("wsh> ")
            terminal.type("let t = \"abc\"\r", expecting: "wsh> ")
            for reactor in reactors { terminal.type(reactor + "\r", expecting: "wsh> ") }
            terminal.type(#"reactor cfg { state conf = '{"password": "hunter2xyz"}', n = 0; action go { emit n = 1 } }"# + "\r", expecting: "wsh> ")
            terminal.type("echo -b foo \"unterminated\r", expecting: "wsh> ")
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        let kept = try String(contentsOf: history, encoding: .utf8)
        for reactor in reactors { #expect(kept.contains(reactor), "\(reactor) not kept in \(kept)") }
        #expect(!kept.contains("hunter2xyz"), "\(kept)")
        #expect(kept.contains("echo -b foo \"unterminated"), "\(kept)")
    }

    /// A reactor declared again while one of its actions ran: the action went on echoing the old,
    /// discarded state under the reactor's name (`a | n=1` after `a` became `{ q }`). The
    /// declaration is refused while the action runs; after it, it is accepted.
    @Test func aReactorIsNotDeclaredAgainWhileItsActionRuns() async throws {
        let result = try await WSHProcess.run(["-c", """
            reactor a { state n = 0; action mk { reactor a { state q = 1; action mk { emit q = 2 } }; emit n = 1 } catch { emit n = 9 } }
            a mk
            reactor a { state q = 1 }
            state a
            """])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "a | n=9\na | q=1\n", "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")

        let uncaught = try await WSHProcess.run(["-c", "reactor a { state n = 0; action mk { reactor a { state q = 1 }; emit n = 1 } }; a mk"])
        #expect(uncaught.status == 3, "\(uncaught)")
        #expect(uncaught.stderr.contains("<command line>:1:46: error: reactor 'a' is running 'a mk'; declare it again when that action ends"),
                "\(uncaught)")
        #expect(uncaught.stdout.isEmpty, "\(uncaught)")
    }

    /// `help NAME` was an error for a declared reactor, `help` did not list them, and `help quote`
    /// showed only the target of that name.
    @Test func helpShowsDeclaredReactors() async throws {
        let declarations = """
            target quote { base http://127.0.0.1:9; path /random }
            reactor quote { state content = "", loading = false; action refresh unless loading { emit loading = true } }
            reactor lp { state n = 0; action spin { emit n = 1 }; action poll seconds { emit n = 2 } }

            """
        let one = try await WSHProcess.run(["-c", declarations + "help lp"])
        #expect(one.status == 0, "\(one)")
        #expect(one.stdout.hasPrefix("usage: lp spin | poll SECONDS\n  a reactor declared at <command line>:3\n"), "\(one)")
        #expect(one.stdout.contains("  state: n (state lp prints them now)\n"), "\(one)")

        let both = try await WSHProcess.run(["-c", declarations + "help quote"])
        #expect(both.status == 0, "\(both)")
        #expect(both.stdout.contains("usage: quote refresh\n"), "\(both)")
        #expect(both.stdout.contains("quote refresh does nothing while loading is true"), "\(both)")
        #expect(both.stdout.contains("GET http://127.0.0.1:9/random"), "\(both)")

        let all = try await WSHProcess.run(["-c", declarations + "help"])
        #expect(all.stdout.contains("Reactors declared (help NAME for one):\n  quote  actions: refresh\n  lp     actions: spin, poll\n"), "\(all)")
    }

    /// In `wsh test`, an action its `unless` field skipped left no trace, and the checks after it
    /// passed on the answer before it. The skip is a warning under the file and in the reports.
    @Test func aSkippedActionIsAWarningInWshTest() async throws {
        try await withLoopbackServer(routes: ["/random": StaticRoute(body: #"{"ok": true}"#)]) { server in
            let directory = try WSHProcess.temporaryDirectory()
            let tests = directory.appendingPathComponent("tt")
            try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
            try """
            target q   { base \(server.baseURL); path /random }
            target bad { base \(server.baseURL); path /missing }
            reactor r {
              state busy = false
              action first  unless busy { emit busy = true; call q }
              action second unless busy { call bad }
            }
            r first
            r second
            expect status == 200

            """.write(to: tests.appendingPathComponent("skip.wsh"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["test", "tt", "--report-json", "report.json"], directory: directory)
            let warning = "tt/skip.wsh:9:1: 'r second' was skipped while busy is true: none of its statements ran"
            #expect(result.stdout.contains("    warning: " + warning), "\(result)")
            let report = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
            #expect(report.contains("was skipped while busy is true"), "\(report)")
        }
    }

    /// `emit nosuch = 1` was found only when the action ran, after the statements before it.
    @Test func anEmitOfAFieldTheReactorLacksIsAParseError() async throws {
        let result = try await WSHProcess.run(["-c", "echo ran; reactor r { state n = 0; action bad { if 1 == 1 { emit nosuch = 1 } } }"])
        #expect(result.status == 2, "\(result)")
        #expect(!result.stdout.contains("ran"), "\(result)")
        #expect(result.stderr.contains("<command line>:1:66: error: the reactor has no state field 'nosuch'"), "\(result)")

        let twice = try await WSHProcess.run(["-c", "reactor r { state a = 0; action set { emit a = 1, a = 2 } }"])
        #expect(twice.status == 2, "\(twice)")
        #expect(twice.stderr.contains("error: 'emit' sets 'a' twice"), "\(twice)")
    }

    /// `counter increase 5` said "unknown action 'increase' ... did you mean 'increase'?", and
    /// `state lp nosuch garbage` ignored the words after the name.
    @Test func wrongWordsAfterAKnownActionOrStateSaySo() async throws {
        let counter = try await WSHProcess.run(["--stub", "-c", "counter increase 5"])
        #expect(counter.status != 0)
        #expect(counter.stderr.contains("<command line>:1:18: error: 'counter increase' takes no arguments"), "\(counter)")
        #expect(counter.stderr.contains("usage: counter increase | decrease") && !counter.stderr.contains("did you mean"), "\(counter)")

        let state = try await WSHProcess.run(["-c", "reactor lp { state n = 0 }; state lp nosuch garbage"])
        #expect(state.status != 0 && state.stdout.isEmpty, "\(state)")
        #expect(state.stderr.contains("error: 'state' takes one reactor name") && state.stderr.contains("usage: state [REACTOR]"), "\(state)")
    }
}
