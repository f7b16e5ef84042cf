import Foundation
import Testing

/// `edit NAME` with the built binary: `EDITOR` is a shell script the test writes, which changes
/// the temporary file as a user in vi would.
@Suite(.serialized) struct EditTests {
    /// A directory holding `editor.sh` with `body` (the file to edit is `$1`), made executable.
    /// Types `target t { path /a }` over three lines at the prompt.
    static func declareTarget(on terminal: PseudoTerminal) {
        terminal.type("target t {\r", expecting: "...> ")
        terminal.type("  path /a\r", expecting: "...> ")
        terminal.type("}\r", expecting: "wsh> ")
    }

    static func editor(_ body: String) throws -> URL {
        let directory = try WSHProcess.temporaryDirectory()
        let script = directory.appendingPathComponent("editor.sh")
        try ("#!/bin/sh\n" + body + "\n").write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return directory
    }

    /// At the prompt: the editor runs on the terminal as the user left it (libedit's raw mode is
    /// off), gets the file as one argument even under a TMPDIR with a blank in it, and its change
    /// is declared: `show` prints it and a call uses it. The temporary directory is removed.
    @Test func anEditorThatChangesTheFileRedeclaresTheTarget() async throws {
        let directory = try Self.editor("""
            echo "$#:$1" > "$(dirname "$0")/arguments"
            stty -a > "$(dirname "$0")/stty" 2>&1
            sed -i 's#/status/200#/status/204#' "$1"
            """)
        let temporary = directory.appendingPathComponent("tmp dir")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        try await withLoopbackServer { server in
            let baseURL = server.baseURL
            // An editor command with words of its own, as `code -w` is: run by sh.
            let environment = try promptEnvironment(["EDITOR": "sh \(directory.path)/editor.sh", "VISUAL": "", "TMPDIR": temporary.path])
            let outcome = try await onTerminal(environment: environment) { terminal in
                terminal.expect("wsh> ")
                terminal.type("target t {\r", expecting: "...> ")
                terminal.type("  base \(baseURL)\r", expecting: "...> ")
                terminal.type("  path /status/200\r", expecting: "...> ")
                terminal.type("}\r", expecting: "wsh> ")
                terminal.type("edit t\r", expecting: "wsh> ")
                let mark = terminal.mark
                terminal.type("show t\r")
                terminal.expect("  path /status/204\r\n}\r\nwsh> ", after: mark)
                terminal.type("call t\r", expecting: "HTTP 204 No Content")
                terminal.expect("wsh> ")
                terminal.type("exit\r")
            }
            #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
            #expect(outcome.exitStatus == 0)
        }
        let arguments = try String(contentsOf: directory.appendingPathComponent("arguments"), encoding: .utf8)
        #expect(arguments.hasPrefix("1:\(temporary.path)/wsh-edit-"), "\(arguments)")
        #expect(arguments.hasSuffix("/t.wsh\n"), "\(arguments)")
        let modes = try String(contentsOf: directory.appendingPathComponent("stty"), encoding: .utf8)
        #expect(modes.contains("icanon") && !modes.contains("-icanon"), "\(modes)")
        #expect(modes.contains(" echo ") && !modes.contains("-echo "), "\(modes)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }

    /// An edit that breaks the declaration reports the temporary file's line and column with a
    /// caret and asks; `y` reopens the file as it was left, `n` leaves the target as it was.
    @Test func anErrorInTheEditedFileIsReportedAtItsLineAndEditAgainIsAsked() async throws {
        let directory = try Self.editor("""
            count="$(dirname "$0")/count"
            n=$(( $(cat "$count" 2>/dev/null || echo 0) + 1 )); echo $n > "$count"
            case $n in
              1|3) sed -i 's/^  path/  pathh/' "$1" ;;
              2) sed -i -e 's/^  pathh/  path/' -e 's#/a$#/b#' "$1" ;;
            esac
            """)
        let environment = try promptEnvironment(["EDITOR": "\(directory.path)/editor.sh", "VISUAL": ""])
        let outcome = try await onTerminal(environment: environment) { terminal in
            terminal.expect("wsh> ")
            Self.declareTarget(on: terminal)
            var mark = terminal.mark
            terminal.type("edit t\r")
            terminal.expect("/t.wsh:2:3: error: unknown target field 'pathh'\r\n     pathh /a\r\n     ^~~~~\r\n", after: mark)
            terminal.expect("edit again? [Y/n] ", after: mark)
            terminal.type("y\r", expecting: "wsh> ")
            terminal.type("show t\r", expecting: "  path /b\r\n}\r\nwsh> ")
            mark = terminal.mark
            terminal.type("edit t\r")
            terminal.expect("edit again? [Y/n] ", after: mark)
            terminal.type("n\r", expecting: "wsh: error: edit abandoned: target 't' is unchanged\r\n")
            terminal.type("show t\r", expecting: "  path /b\r\n}\r\nwsh> ")
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(outcome.exitStatus == 0)
        #expect(try String(contentsOf: directory.appendingPathComponent("count"), encoding: .utf8) == "3\n")
    }

    /// At `edit again? [Y/n]` only Enter, `y` or `yes` reopens the file and `n` or `no` ends: a
    /// command typed there (`show t`) is no answer, and the question is asked again without
    /// running the editor.
    @Test func anAnswerThatIsNeitherYesNorNoAsksAgain() async throws {
        let directory = try Self.editor("""
            count="$(dirname "$0")/count"
            n=$(( $(cat "$count" 2>/dev/null || echo 0) + 1 )); echo $n > "$count"
            sed -i 's/^  path/  pathh/' "$1"
            """)
        let environment = try promptEnvironment(["EDITOR": "\(directory.path)/editor.sh", "VISUAL": ""])
        let outcome = try await onTerminal(environment: environment) { terminal in
            terminal.expect("wsh> ")
            Self.declareTarget(on: terminal)
            var mark = terminal.mark
            terminal.type("edit t\r")
            terminal.expect("edit again? [Y/n] ", after: mark)
            mark = terminal.mark
            terminal.type("show t\r", expecting: "edit again? [Y/n] ")
            let asked = String(terminal.screen[mark...])
            terminal.type("no\r", expecting: "wsh: error: edit abandoned: target 't' is unchanged\r\n")
            terminal.type("show t\r", expecting: "  path /a\r\n}\r\nwsh> ")
            terminal.type("exit\r")
            return asked
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(!outcome.value.contains("error"), "the editor ran again: \(outcome.value.debugDescription)")
        #expect(outcome.exitStatus == 0)
        #expect(try String(contentsOf: directory.appendingPathComponent("count"), encoding: .utf8) == "1\n")
    }

    /// Ctrl-D at `edit again? [Y/n]` ends the edit; what is said then starts on a line of its own.
    @Test func ctrlDAtTheQuestionEndsTheEditOnANewLine() async throws {
        let directory = try Self.editor("sed -i 's/^  path/  pathh/' \"$1\"")
        let environment = try promptEnvironment(["EDITOR": "\(directory.path)/editor.sh", "VISUAL": ""])
        let outcome = try await onTerminal(environment: environment) { terminal in
            terminal.expect("wsh> ")
            Self.declareTarget(on: terminal)
            let mark = terminal.mark
            terminal.type("edit t\r")
            terminal.expect("edit again? [Y/n] ", after: mark)
            terminal.type("\u{04}", expecting: "edit abandoned")
            terminal.expect("wsh> ", after: mark)
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(outcome.screen.contains("edit again? [Y/n] \r\nwsh: error: edit abandoned"), "\(outcome.screen.debugDescription)")
        #expect(outcome.exitStatus == 0)
    }

    /// Ctrl-C while the editor runs is the editor's key (Emacs's C-g sends SIGINT to the whole
    /// group): wsh ignores it rather than stopping the editor, and the edit goes on. The editor
    /// makes its change only when the test, after the interrupt, writes `go` beside it, and notes
    /// the SIGTERM that stopping it would send.
    @Test func ctrlCWhileTheEditorRunsIsLeftToTheEditor() async throws {
        let directory = try Self.editor("""
            here="$(dirname "$0")"
            trap 'echo terminated > "$here/terminated"; exit 143' TERM
            touch "$here/started"
            i=0; while [ $i -lt 1200 ] && [ ! -e "$here/go" ] && [ ! -e "$here/terminated" ]; do sleep 0.05; i=$((i+1)); done
            sed -i 's#/a#/b#' "$1"
            """)
        let started = directory.appendingPathComponent("started").path
        let go = directory.appendingPathComponent("go").path
        let environment = try promptEnvironment(["EDITOR": "\(directory.path)/editor.sh", "VISUAL": ""])
        let outcome = try await onTerminal(environment: environment) { terminal in
            terminal.expect("wsh> ")
            terminal.type("target t { path /a }\r", expecting: "wsh> ")
            let mark = terminal.mark
            terminal.type("edit t\r")
            let deadline = Date().addingTimeInterval(60)
            while !FileManager.default.fileExists(atPath: started), Date() < deadline { usleep(20_000) }
            let editorStarted = FileManager.default.fileExists(atPath: started)
            terminal.interrupt()
            FileManager.default.createFile(atPath: go, contents: nil)
            terminal.expect("wsh> ", after: mark)
            terminal.type("show t\r", expecting: "target t { path /b }\r\nwsh> ")
            terminal.type("exit\r")
            return (editorStarted, String(terminal.screen[mark...]))
        }
        #expect(outcome.value.0, "the editor started")
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(!outcome.value.1.contains("interrupted"), "\(outcome.value.1.debugDescription)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("terminated").path))
        #expect(outcome.exitStatus == 0)
    }

    /// With stdin not a terminal nothing is asked: the error, at the temporary file's line, stands
    /// (a script stops there, with 2 for a parse error) and the target is as it was.
    @Test func withoutATerminalTheErrorIsReportedAndNothingIsAsked() async throws {
        let directory = try Self.editor("sed -i 's/path/pathh/' \"$1\"")
        let result = try await WSHProcess.run(["-c", "target t { path /a }\nedit t\necho not reached"],
                                              environment: ["EDITOR": "\(directory.path)/editor.sh", "VISUAL": ""])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/t.wsh:1:12: error: unknown target field 'pathh'\n   target t { pathh /a }\n              ^~~~~\n"),
                "\(result.stderr)")
        #expect(result.stderr.contains("/wsh-edit-"), "\(result.stderr)")
        #expect(!result.stderr.contains("edit again"))
        #expect(!result.stdout.contains("not reached"))
    }

    @Test func theFileMustDeclareTheSameNameAndNothingElse() async throws {
        let renaming = try Self.editor("sed -i 's/^target t/target u/' \"$1\"")
        let renamed = try await WSHProcess.run(["-c", "target t { path /a }\nedit t"], environment: ["EDITOR": "\(renaming.path)/editor.sh"])
        #expect(renamed.status == 3)
        #expect(renamed.stderr.contains("/t.wsh:1:8: error: the file declares target 'u', not 't'"), "\(renamed.stderr)")

        let adding = try Self.editor("echo 'echo extra' >> \"$1\"")
        let added = try await WSHProcess.run(["-c", "target t { path /a }\nedit t\n"], environment: ["EDITOR": "\(adding.path)/editor.sh"])
        #expect(added.status == 3)
        #expect(added.stderr.contains("/t.wsh:2:1: error: the file may hold only the declaration of target 't'"), "\(added.stderr)")
        #expect(!added.stdout.contains("extra"))
    }

    @Test func unknownNamesBuiltInReactorsAndAnEditorThatFails() async throws {
        let result = try await WSHProcess.run(["-c", "target users { path /u }\nedit user"], environment: ["EDITOR": "true"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("error: no target or reactor named 'user'"), "\(result.stderr)")
        #expect(result.stderr.contains("note: did you mean 'users'?"), "\(result.stderr)")

        let builtIn = try await WSHProcess.run(["-c", "edit weather"], environment: ["EDITOR": "true"])
        #expect(builtIn.stderr.contains("error: 'weather' is built into wsh: it has no declaration to edit"), "\(builtIn.stderr)")

        let unchanged = try await WSHProcess.run(["-c", "target t { path /a }\nedit t"], environment: ["EDITOR": "true", "VISUAL": ""])
        #expect(unchanged.status == 0)
        #expect(unchanged.stderr == "target 't' is unchanged: the file was not changed\n")

        // VISUAL comes before EDITOR; an editor that exits non-zero changes nothing.
        let failed = try await WSHProcess.run(["-c", "target t { path /a }\nedit t"], environment: ["EDITOR": "true", "VISUAL": "exit 5;"])
        #expect(failed.status == 3)
        #expect(failed.stderr.contains("error: the editor 'exit 5;' exited with status 5; target 't' is unchanged"), "\(failed.stderr)")
    }

    @Test func aDeclaredReactorIsEditedAndStartsAgainFromItsState() async throws {
        let directory = try Self.editor("sed -i 's/emit n = 1/emit n = 2/' \"$1\"")
        let result = try await WSHProcess.run(["-c", """
            reactor r { state n = 0; action go { emit n = 1 } }
            r go
            edit r
            state r
            r go
            """], environment: ["EDITOR": "\(directory.path)/editor.sh"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "r | n=1\nr | n=0\nr | n=2\n", "\(result.stdout)")
    }

    /// A bundled pack's target is edited as its text; it is then the user's: its sample still
    /// answers, and `save` writes its declaration (the sample named inside wsh), which `source` restores.
    @Test func aBundledTargetBecomesTheUsersAndIsSavedAsText() async throws {
        let directory = try Self.editor("sed -i 's/timeout  10s/timeout  20s/' \"$1\"")
        let saved = directory.appendingPathComponent("session.wsh")
        let result = try await WSHProcess.run(["--stub", "-c", """
            use open-meteo
            edit current
            call current > /dev/null
            expect .current.temperature_2m exists
            save \(saved.path)
            """], environment: ["EDITOR": "\(directory.path)/editor.sh"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: saved, encoding: .utf8)
        #expect(text.contains("use open-meteo\ntarget current {\n"), "\(text)")
        #expect(text.contains("  sample   @<bundled>/packs/samples/open-meteo-current.json\n"), "\(text)")
        #expect(text.contains("  timeout  20s\n"), "\(text)")

        let restored = try await WSHProcess.run(["--stub", "-c", "source \(saved.path)\nshow current\ncall current > /dev/null\nexpect status == 200"])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("  timeout  20s\n}"), "\(restored.stdout)")
    }
}
