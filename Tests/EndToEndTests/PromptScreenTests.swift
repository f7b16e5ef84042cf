import Foundation
import TestSupport
import Testing

/// What the screen shows at the prompt around a call and a background server (issue 35.15).
@Suite struct PromptScreenTests {
    /// `set output headers` prints the status line with the headers on stdout; the status line
    /// wsh writes on stderr at a terminal is not written a second time.
    /// Pasted text is marked by the terminal (bracketed paste): a Tab in it is a tab, kept in the
    /// string, where a typed Tab completes. Each pasted line still runs as typed lines do.
    @Test func aTabInPastedTextIsKeptNotCompleted() async throws {
        let outcome = try await onTerminal(environment: try promptEnvironment()) { terminal in
            terminal.expect("wsh> ")
            let pasting = terminal.mark
            terminal.type("\u{1B}[200~print \"a\tb\" | length\rprint \"c\t\td\" | length\u{1B}[201~\r")
            terminal.expect("\r\n3\r\n", after: pasting)
            terminal.expect("\r\n4\r\n", after: pasting)
            let typing = terminal.mark
            terminal.type("pri\t", expecting: "nt ")
            terminal.type("\"ab\" | length\r")
            terminal.expect("\r\n2\r\n", after: typing)
            terminal.type("exit\r")
            return terminal.rawScreen.contains("\u{1B}[?2004hwsh> ") && terminal.rawScreen.contains("\r\n\u{1B}[?2004l")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(outcome.value, "the prompt asks the terminal to mark pasted text: \(outcome.screen.debugDescription)")
    }

    /// A `~/.editrc` that switches to vi keys (`bind -v`) does not drop the paste marks: pasted
    /// text is still taken as it is, not read as vi commands.
    @Test func pastingWorksUnderViKeysFromEditrc() async throws {
        let environment = try promptEnvironment()
        let home = try #require(environment["HOME"])
        try "bind -v\n".write(toFile: home + "/.editrc", atomically: true, encoding: .utf8)
        let outcome = try await onTerminal(environment: environment) { terminal in
            terminal.expect("wsh> ")
            let pasting = terminal.mark
            terminal.type("\u{1B}[200~print \"a\tb\" | length\u{1B}[201~\r")
            terminal.expect("\r\n3\r\n", after: pasting)
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
    }

    /// A paste whose end mark never came (the kernel drops typed-ahead input at a Ctrl-C) does not
    /// leave Tab inserting tabs: once nothing of it is left to read, Tab completes again.
    @Test func aPasteWhoseEndWasLostLeavesTabCompleting() async throws {
        let outcome = try await onTerminal(environment: try promptEnvironment()) { terminal in
            terminal.expect("wsh> ")
            let pasting = terminal.mark
            terminal.type("\u{1B}[200~print 1\r")
            terminal.expect("\r\n1\r\nwsh> ", after: pasting)
            let typing = terminal.mark
            terminal.type("pri\t", expecting: "nt ")
            terminal.type("2\r")
            terminal.expect("\r\n2\r\n", after: typing)
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
    }

    /// HTTPie's `-b` prints only the body: no status line on the terminal either; without it the
    /// status line shows.
    @Test func bodyFlagShowsNoStatusLine() async throws {
        try await withLoopbackServer { server in
            let outcome = try await onTerminal(environment: try promptEnvironment()) { terminal in
                terminal.expect("wsh> ")
                let calling = terminal.mark
                terminal.type("get \(server.baseURL)/status/200 -b\r")
                terminal.expect("wsh> ", after: calling)
                let withFlag = terminal.screen[calling...].contains("HTTP 200 OK")
                let plain = terminal.mark
                terminal.type("get \(server.baseURL)/status/200\r")
                terminal.expect("HTTP 200 OK", after: plain)
                terminal.expect("wsh> ", after: plain)
                terminal.type("exit\r")
                return withFlag
            }
            #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
            #expect(outcome.value == false, "\(outcome.screen.debugDescription)")
            #expect(outcome.exitStatus == 0)
        }
    }

    @Test func outputHeadersShowsTheStatusLineOnce() async throws {
        try await withLoopbackServer { server in
            let outcome = try await onTerminal(environment: try promptEnvironment()) { terminal in
                terminal.expect("wsh> ")
                terminal.type("set output headers\r", expecting: "wsh> ")
                let calling = terminal.mark
                terminal.type("get \(server.baseURL)/status/200\r")
                terminal.expect("Content-Type: application/json", after: calling)
                terminal.expect("wsh> ", after: calling)
                let shown = terminal.screen[calling...].components(separatedBy: "HTTP 200 OK").count - 1
                terminal.type("exit\r")
                return shown
            }
            #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
            #expect(outcome.value == 1, "\(outcome.screen.debugDescription)")
            #expect(outcome.exitStatus == 0)
        }
    }

    /// `serve start` at the prompt keeps each request's line for `serve log` rather than writing
    /// it into the line being typed.
    @Test func serveStartsRequestLinesWaitForServeLog() async throws {
        let directory = try ServeTests.apiDirectory()
        let port = try LoopbackPort.free()
        let outcome = try await onTerminal(environment: try promptEnvironment(), directory: directory) { terminal in
            terminal.expect("wsh> ")
            terminal.type("source api.wsh\r", expecting: "wsh> ")
            let starting = terminal.mark
            terminal.type("serve start --port \(port)\r")
            terminal.expect("serving 3 routes at http://127.0.0.1:\(port); requests: serve log", after: starting)
            terminal.expect("wsh> ", after: starting)
            let typing = terminal.mark
            terminal.type("echo half-", expecting: "half-")
            let answer = try ServeTests.curl(["http://127.0.0.1:\(port)/api/users/7"])
            terminal.type("typed\r", expecting: "half-typed\r\n")
            terminal.expect("wsh> ", after: typing)
            let asked = terminal.mark
            terminal.type("serve\r", expecting: "1 request not shown yet: serve log")
            terminal.type("serve log\r", expecting: "GET /api/users/7 -> 200 user ")
            terminal.expect("wsh> ", after: asked)
            terminal.type("serve stop\r", expecting: "stopped serving")
            terminal.type("exit\r")
            return (answer, String(terminal.screen[typing..<asked]))
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(outcome.value.0.hasPrefix("HTTP/1.1 200 OK"), "\(outcome.value.0)")
        #expect(!outcome.value.1.contains("/api/users/7"), "the request line crossed the prompt: \(outcome.value.1.debugDescription)")
        #expect(outcome.exitStatus == 0)
    }
}
