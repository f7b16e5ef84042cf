import Foundation
import TestSupport
import Testing

/// An answer that comes a piece at a time is printed as it arrives: into a pipe always (as curl
/// does), at a terminal when its type is a stream's (server-sent events) or with `--stream`. The
/// server's `/held` route sends `data: one`, then waits for `/held/release` before the rest, so
/// each test sees what wsh printed while the answer was still open.
@Suite struct StreamedBodyTests {
    /// Opens the server's gate, from a thread that may block (the terminal's steps run on one).
    static func release(_ server: TestServer) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--output", "/dev/null", server.baseURL + "/held/release"]
        try process.runSerially()
        process.waitUntilExitPolling()
    }

    @Test func intoAPipeTheBytesGoAsTheyArriveAndAreKeptForQueries() async throws {
        try await withLoopbackServer { server in
            let running = try RunningWSH(["-c", "get \(server.baseURL)/held?type=json\nprint body | length"])
            #expect(try await offPool { running.waitForOutput("data: one\n\n") })
            #expect(!running.stdout.contains("two"), "the rest was not sent yet: \(running.stdout)")
            try Self.release(server)
            #expect(try await offPool { running.waitForExit() } == 0, "\(running.stderr)")
            // The bytes as sent (no newline added), then the copy kept for `print body`: 22 bytes.
            #expect(running.stdout == "data: one\n\ndata: two\n\n22\n", "\(running.stdout.debugDescription)")
        }
    }

    @Test func aBodyOverMaxBodyIsPrintedWholeButNotKept() async throws {
        try await withLoopbackServer { server in
            try Self.release(server)
            let result = try await WSHProcess.run(["-c", "set max-body 12B\nget \(server.baseURL)/held\nprint .a"])
            #expect(result.stdout == "data: one\n\ndata: two\n\n")
            #expect(result.status == 3)
            #expect(result.stderr.contains("the body (22 B) was printed as it arrived and, larger than set max-body, not kept for queries"),
                    "\(result.stderr)")
        }
    }

    @Test func atATerminalEventsAreShownAsTheyComeAndJSONWaitsUnlessAskedToStream() async throws {
        try await withLoopbackServer { server in
            let environment = try promptEnvironment(["PAGER": "sed s/^/paged:/"])
            let outcome = try await onTerminal(environment: environment) { terminal in
                terminal.expect("wsh> ")
                // The spinner is erased when the first event comes, not drawn over it.
                terminal.type("plugin loading on\r", expecting: "wsh> ")
                var mark = terminal.mark
                // Server-sent events: the first event is on the screen while the answer is still open.
                terminal.type("get \(server.baseURL)/held\r")
                terminal.expect("data: one", after: mark)
                try Self.release(server)
                terminal.expect("HTTP 200 OK", after: mark)
                terminal.expect("wsh> ", after: mark)
                let events = String(terminal.screen[mark...])
                mark = terminal.mark
                // JSON is pretty printed whole, after the status line; with -S it streams like events.
                terminal.type("get \(server.baseURL)/held?type=json\r", expecting: "wsh> ")
                let json = String(terminal.screen[mark...])
                mark = terminal.mark
                terminal.type("get \(server.baseURL)/held?type=json -S\r", expecting: "wsh> ")
                let streamedJSON = String(terminal.screen[mark...])
                mark = terminal.mark
                terminal.type("get \(server.baseURL)/held?type=octets --stream\r", expecting: "wsh> ")
                let octets = String(terminal.screen[mark...])
                terminal.type("exit\r")
                return (events, json, streamedJSON, octets)
            }
            #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
            let (events, json, streamedJSON, octets) = outcome.value
            func order(_ text: String) -> Bool? {
                guard let body = text.range(of: "data: one"), let status = text.range(of: "HTTP 200 OK") else { return nil }
                return body.lowerBound < status.lowerBound
            }
            #expect(order(events) == true, "streamed, before the status line: \(events.debugDescription)")
            #expect(!events.contains("paged:"), "a streamed body goes past the pager: \(events.debugDescription)")
            #expect(order(json) == false, "whole, after the status line: \(json.debugDescription)")
            #expect(order(streamedJSON) == true, "\(streamedJSON.debugDescription)")
            #expect(octets.contains("[binary body: 22 B application/octet-stream, not shown at a terminal"), "\(octets.debugDescription)")
            #expect(outcome.exitStatus == 0)
        }
    }

    /// `> /dev/null` silences a call and keeps its answer for queries, as curl's `-o /dev/null`
    /// is used (issue 35, item 16), within set max-body; past it the body is not kept, and said so.
    @Test func aBodySentToDevNullIsKeptForQueriesWithinTheLimit() async throws {
        try await withLoopbackServer { server in
            let result = try await WSHProcess.run(["-c", "get \(server.baseURL)/echo > /dev/null\nexpect status == 200\nprint .method"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "GET\n")
            // With no limit nothing is kept: a download to /dev/null stays out of memory.
            let unlimited = try await WSHProcess.run(["-c", "set max-body off\nget \(server.baseURL)/echo > /dev/null\nprint .method"])
            #expect(unlimited.status == 3)
            #expect(unlimited.stderr.contains("was written to '/dev/null' and could not be read back"), "\(unlimited.stderr)")
            // An empty answer to a target that is not a file is not read back (it waited forever on a pipe).
            let empty = try await WSHProcess.run(["-c", "get \(server.baseURL)/status/204 > /dev/stdout\necho done"])
            #expect(empty.status == 0, "\(empty.stderr)")
            #expect(empty.stdout == "done\n")
            let large = try await WSHProcess.run(["-c", "set max-body 1KB\nget \(server.baseURL)/large?bytes=4096 > /dev/null\nprint body | length"])
            #expect(large.status == 3)
            #expect(large.stdout == "")
            #expect(large.stderr.contains("<command line>:3:7: error: the body (4.0 KB) was written to its file and, larger than set max-body, not kept"),
                    "\(large.stderr)")
        }
    }

    @Test func aStatusTheTargetRefusesIsNotStreamedButShownAsTheError() async throws {
        try await withLoopbackServer { server in
            try Self.release(server)
            let script = "target t {\n base \(server.baseURL)\n path /held\n validate 404\n}\ncall t"
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status == 3)
            #expect(result.stdout == "", "\(result.stdout.debugDescription)")
            #expect(result.stderr.contains("200"), "\(result.stderr)")
        }
    }
}
