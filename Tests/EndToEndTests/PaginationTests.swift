import Foundation
import Testing
import TestSupport

/// `call NAME --all`: pages followed by `Link: rel="next"` or by a `next` query, their items
/// merged in order, printed, kept for queries and `expect`; `--max-pages`; a loop is an error.
@Suite struct PaginationTests {
    @Test func linkHeaderPagesAreMergedInOrder() async throws {
        try await withLoopbackServer { server in
            let script = """
                target users { base \(server.baseURL); path /pages/link; query pages=3 per=2 }
                call users --all
                expect body contains "},{"
                expect .[5].id == 6
                print .[0].id
                """
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status == 0, "\(result.stderr)")
            // Not at a terminal the body is written as it is, with no line break after it.
            #expect(result.stdout == #"[{"id":1},{"id":2},{"id":3},{"id":4},{"id":5},{"id":6}]"# + "1\n", "\(result.stdout)")
            #expect(server.hits("/pages/link") == 3)
        }
    }

    @Test func aNextQueryAndAnItemsQueryFollowTheBody() async throws {
        try await withLoopbackServer { server in
            let script = """
                target events { base \(server.baseURL); path /pages/body; query pages=4 per=1; next .links.next; items .data }
                set output quiet
                call events --all
                print .
                expect .[3].id == 4
                """
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == #"[{"id":1},{"id":2},{"id":3},{"id":4}]"# + "\n", "\(result.stdout)")
            #expect(server.hits("/pages/body") == 4)
        }
    }

    /// A next page at another origin, which the server names as a redirect's Location, gets no
    /// credential header of the target's or the call's, as a redirect there does not; the other
    /// headers go; `set follow trusted` sends them all, as it does on redirects.
    @Test func aNextPageAtAnotherOriginGetsNoCredentials() async throws {
        try await TestServer.with { other in
            let first = StaticRoute(headers: [("Content-Type", "application/json"), ("Link", "<\(other.baseURL)/echo/p2>; rel=\"next\"")],
                                    body: Array(#"{"headers":[["first","page"]]}"#.utf8))
            try await TestServer.with(routes: ["/p1": first]) { server in
                for trusted in [false, true] {
                    let script = """
                        \(trusted ? "set follow trusted" : "")
                        target pg { base \(server.baseURL); path /p1; header X-Api-Key:PgKey555 "Authorization:Bearer PgTok555" X-Trace:t1; items .headers }
                        set output quiet
                        call pg --all X-Auth-Token:PgCall555
                        print .
                        """
                    let result = try await WSHProcess.run(["-c", script])
                    #expect(result.status == 0, "\(result.stderr)")
                    let sent = result.stdout.lowercased()
                    #expect(sent.contains(#"["x-trace","t1"]"#), "\(result.stdout)")
                    for name in ["x-api-key", "authorization", "x-auth-token"] {
                        #expect(sent.contains("[\"\(name)\"") == trusted, "trusted \(trusted): \(name) in \(result.stdout)")
                    }
                }
            }
        }
    }

    @Test func maxPagesStopsWithANote() async throws {
        try await withLoopbackServer { server in
            let script = """
                target users { base \(server.baseURL); path /pages/link; query pages=5 per=1 }
                call users --all --max-pages 2
                """
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == #"[{"id":1},{"id":2}]"#)
            #expect(result.stderr.contains("note: stopped after 2 pages of 'users'"), "\(result.stderr)")
            #expect(server.hits("/pages/link") == 2)
        }
    }

    @Test func aLoopIsAnError() async throws {
        try await withLoopbackServer { server in
            let script = "target ring { base \(server.baseURL); path /pages/loop; query page=1 }\ncall ring --all"
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status == 3)
            #expect(result.stderr.contains("<command line>:2:6: error: the pages of 'ring' loop: page 2 leads back to \(server.baseURL)/pages/loop?page=1"),
                    "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(server.hits("/pages/loop") == 2)
        }
    }

    @Test func withoutAListTheErrorSaysWhereToLook() async throws {
        try await withLoopbackServer { server in
            let script = "target events { base \(server.baseURL); path /pages/body }\ncall events --all"
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status == 3)
            #expect(result.stderr.contains("page 1 of 'events' has no list of items: its body is not a JSON array"), "\(result.stderr)")
            #expect(result.stderr.contains("note: say where the items are with a target field such as: items .data"))
        }
    }

    @Test func badFieldsAndOptionsAreErrors() async throws {
        let field = try await WSHProcess.run(["-c", "target t { base http://h; next sometimes }"])
        #expect(field.status == 2)
        #expect(field.stderr.contains("error: expected next link, or next QUERY such as next .links.next"), "\(field.stderr)")
        let option = try await WSHProcess.run(["-c", "target t { base http://127.0.0.1:9 }\ncall t --max-pages 0 --all"])
        #expect(option.status == 3)
        #expect(option.stderr.contains("error: --max-pages takes a number of pages, 1 or more"), "\(option.stderr)")
    }

    @Test func everyPageGoesThroughThePlugins() async throws {
        try await withLoopbackServer { server in
            let script = """
                plugin logger on summary
                target users { base \(server.baseURL); path /pages/link; query pages=3 per=1 }
                call users --all > /dev/null
                """
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("GET ") }
            #expect(lines.count == 3, "\(result.stderr)")
            #expect(lines.last?.contains("/pages/link?page=3&pages=3&per=1 -> 200") == true, "\(result.stderr)")
        }
    }

    @Test func everyPageIsInTheCallHistory() async throws {
        let state = try WSHProcess.temporaryDirectory()
        try await withLoopbackServer { server in
            let environment = ["XDG_STATE_HOME": state.path]
            let script = "target users { base \(server.baseURL); path /pages/link; query pages=3 per=1 }\ncall users --all > /dev/null"
            let paged = try await WSHProcess.run(["-c", script], environment: environment)
            #expect(paged.status == 0, "\(paged.stderr)")
            let listed = try await WSHProcess.run(["-c", "history 10"], environment: environment)
            let rows = listed.stdout.split(separator: "\n").filter { $0.contains("/pages/link?") }
            #expect(rows.count == 3, "\(listed.stdout)")
            for page in 1...3 { #expect(rows.contains { $0.contains("page=\(page)") || (page == 1 && !$0.contains("page=")) }, "\(listed.stdout)") }
        }
    }

    @Test func ctrlCStopsThePages() async throws {
        let first = StaticRoute(status: 200, headers: [("Content-Type", "application/json"), ("Link", "</never>; rel=\"next\"")],
                                body: Array("[1]".utf8))
        try await withLoopbackServer(routes: ["/first": first]) { server in
            let running = try RunningWSH(["-c", "target t { base \(server.baseURL); path /first }\ncall t --all"])
            // Page 2 never answers: wait until wsh has asked for it, then interrupt.
            let asked = try await offPool { () -> Bool in
                let deadline = Date().addingTimeInterval(60)
                while server.hits("/never") == 0, Date() < deadline { usleep(5_000) }
                return server.hits("/never") == 1
            }
            #expect(asked)
            running.interrupt()
            let status = try await offPool { running.waitForExit() }
            #expect(status == 130, "\(running.stderr)")
            #expect(running.stdout.isEmpty)
        }
    }
}
