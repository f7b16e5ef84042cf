import Foundation
import Testing
import TestSupport

/// The call history in the built binary: several processes writing one database at once, and
/// secrets kept out of it in every form.
@Suite struct CallHistoryEndToEndTests {
    /// At a terminal (100 columns here) a long URL is cut so that each row fits; into a pipe it is whole.
    @Test func theListingFitsTheTerminal() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try #"{"a":1}"#.write(to: directory.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        let path = "/" + String(repeating: "segment/", count: 15) + "end"
        let environment = try promptEnvironment(["XDG_STATE_HOME": try WSHProcess.temporaryDirectory().path])
        let outcome = try await onTerminal(arguments: ["--norc", "--stub"], environment: environment, directory: directory) { terminal in
            terminal.expect("wsh> ")
            terminal.type("target long { base http://127.0.0.1:9; path \(path); sample @a.json }\r", expecting: "wsh> ")
            terminal.type("set output quiet; call long\r", expecting: "wsh> ")
            let mark = terminal.mark
            terminal.type("history 1\r", expecting: "200 stub")
            terminal.expect("wsh> ", after: mark)
            terminal.type("exit\r")
            return String(terminal.screen[mark...])
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        let row = outcome.value.components(separatedBy: "\r\n").first { $0.contains("200 stub") } ?? ""
        #expect(row.contains("http://127.0.0.1:9/segment/") && row.contains("…") && row.count <= 100, "\(row.debugDescription)")
        let piped = try await WSHProcess.run(["-c", "history 1"], environment: environment)
        #expect(piped.stdout.contains("http://127.0.0.1:9\(path)"), "\(piped.stdout)")
    }

    /// A call sent and then stopped by Ctrl-C is in the history as `failed`, and `history show` says why.
    @Test func aCallStoppedByCtrlCIsRecordedAsFailed() async throws {
        let environment = ["XDG_STATE_HOME": try WSHProcess.temporaryDirectory().path]
        try await withLoopbackServer { server in
            // The logger's curl line is written as the request goes out.
            let running = try RunningWSH(["-c", "plugin logger on curl\nget \(server.baseURL)/never"], environment: environment)
            #expect(try await offPool { running.waitForOutput("curl ", inStderr: true) })
            running.interrupt()
            #expect(try await offPool { running.waitForExit() } == 130)
        }
        let listed = try await WSHProcess.run(["-c", "history 1\nhistory show 1"], environment: environment)
        #expect(listed.stdout.contains("/never") && listed.stdout.contains("failed"), "\(listed.stdout)")
        #expect(listed.stdout.contains("no answer: interrupted (Ctrl-C)"), "\(listed.stdout)")
    }

    /// A script stopped by SIGTERM (a CI job cancelled) stops as on Ctrl-C: the call it was making
    /// is in the history, `interrupted (SIGTERM)`, and then wsh ends by the signal, silently, as
    /// before. It died at once, and the call that had reached the server was missing from the history.
    @Test func aScriptStoppedBySIGTERMRecordsTheCallInFlight() async throws {
        let environment = ["XDG_STATE_HOME": try WSHProcess.temporaryDirectory().path]
        let directory = try WSHProcess.temporaryDirectory()
        try await withLoopbackServer { server in
            try "plugin logger on curl\nget \(server.baseURL)/echo/first\nget \(server.baseURL)/never\necho not-reached\n"
                .write(to: directory.appendingPathComponent("smoke.wsh"), atomically: true, encoding: .utf8)
            let running = try RunningWSH(["smoke.wsh"], environment: environment, directory: directory)
            #expect(try await offPool { running.waitForOutput("/never", inStderr: true) })
            running.interrupt(with: SIGTERM)
            // Ended by the signal: Process gives its number.
            #expect(try await offPool { running.waitForExit() } == SIGTERM)
            #expect(!running.stderr.contains("interrupted") && !running.stdout.contains("not-reached"), "\(running.stderr)")
        }
        let listed = try await WSHProcess.run(["-c", "history 2\nhistory show 2"], environment: environment)
        #expect(listed.stdout.contains("/echo/first") && listed.stdout.contains("/never"), "\(listed.stdout)")
        #expect(listed.stdout.contains("no answer: interrupted (SIGTERM)"), "\(listed.stdout)")
    }

    @Test func twoProcessesWritingAtOnceLoseNoCall() async throws {
        let state = try WSHProcess.temporaryDirectory()
        let calls = 60
        try await withLoopbackServer { server in
            func script(_ name: String) -> [String] {
                ["-c", "target \(name) { base \(server.baseURL); path /echo/\(name)/{n} }\nset output quiet\n"
                    + (1...calls).map { "call \(name) n=\($0)" }.joined(separator: "\n")]
            }
            let environment = ["XDG_STATE_HOME": state.path]
            async let first = WSHProcess.run(script("first"), environment: environment)
            async let second = WSHProcess.run(script("second"), environment: environment)
            let (a, b) = try await (first, second)
            #expect(a.status == 0 && b.status == 0, "\(a.stderr)\(b.stderr)")
            #expect(a.stderr.isEmpty && b.stderr.isEmpty, "nothing to report: \(a.stderr)\(b.stderr)")

            let listed = try await WSHProcess.run(["-c", "history \(4 * calls)"], environment: environment)
            #expect(listed.status == 0, "\(listed.stderr)")
            let rows = listed.stdout.split(separator: "\n").dropFirst()
            #expect(rows.count == 2 * calls, "\(listed.stdout)")
            for name in ["first", "second"] {
                let paths = Set(rows.compactMap { row in row.split(separator: " ").first { $0.contains("/echo/\(name)/") } }
                    .map { String($0.split(separator: "/").last ?? "") })
                #expect(paths == Set((1...calls).map(String.init)), "every call of \(name) is there once")
            }
            let numbers = rows.compactMap { Int($0.split(separator: " ").first ?? "") }
            #expect(Set(numbers).count == 2 * calls, "each call has a number of its own")
            #expect(FileManager.default.fileExists(atPath: state.path + "/wsh/calls.sqlite"))
        }
    }

    @Test func noSecretReachesTheDatabaseInAnyForm() async throws {
        let state = try WSHProcess.temporaryDirectory()
        let secret = "s3cr/t k+y-\(UUID().uuidString.prefix(8))-Ä"
        let check = SecretLeakCheck(secret: secret, basicUser: "ann")
        try await withLoopbackServer { server in
            let script = """
                let key = env WSH_HISTORY_SECRET
                target echo { base \(server.baseURL); path /echo/{p}; method POST; query appid=$key; header X-Api-Key:$key; form note }
                target json { base \(server.baseURL); path /echo/json; method PUT; json token }
                set output quiet
                call echo p=$key note=$key
                plugin auth basic ann:$key host 127.0.0.1
                call json token=$key
                plugin auth bearer $key host 127.0.0.1
                call echo p=plain note=plain
                history show 1
                """
            let result = try await WSHProcess.run(["-c", script], environment: ["XDG_STATE_HOME": state.path, "WSH_HISTORY_SECRET": secret])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("appid=***"), "\(result.stdout)")
            #expect(check.leaks(in: result.stdout).isEmpty)
            var database = ""
            for file in (try? FileManager.default.contentsOfDirectory(atPath: state.path + "/wsh")) ?? [] {
                database += String(decoding: FileManager.default.contents(atPath: state.path + "/wsh/" + file) ?? Data(), as: UTF8.self)
            }
            #expect(database.contains("appid=***"))
            #expect(check.leaks(in: database).isEmpty, "the database holds the secret as \(check.leaks(in: database))")
        }
    }

    /// The bytes of every file of the history in `state`, as text, for looking for secrets.
    static func databaseText(_ state: URL) -> String {
        ((try? FileManager.default.contentsOfDirectory(atPath: state.path + "/wsh")) ?? []).map { file in
            String(decoding: FileManager.default.contents(atPath: state.path + "/wsh/" + file) ?? Data(), as: UTF8.self)
        }.joined(separator: "\n")
    }

    /// Every hop is part of the call: an `appid` sent on the middle hop of three (httpbin's
    /// `/redirect-to`), which the first hop's URL carries percent-encoded (twice, for its `+`) in
    /// its own query, shows in no hop's URL: not in the history, the HAR export, `redirects`,
    /// `hops` nor the logger (the history and `redirects` masked only the last hop's credentials).
    /// The logger writes the first hop's verbose lines before it is sent, when only its own query
    /// can say what is a credential: a query value that holds a query of its own gives that one's.
    @Test func aSecretSentOnAMiddleRedirectHopIsMaskedInEveryHop() async throws {
        let state = try WSHProcess.temporaryDirectory()
        let directory = try WSHProcess.temporaryDirectory()
        defer {
            ScratchDirectory.remove(state)
            ScratchDirectory.remove(directory)
        }
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text }
        try await HTTPBinServer.with { httpbin in
            let middle = "\(httpbin.baseURL)/redirect-to?url=/get&appid=" + encoded("RdApp+998")
            let first = "\(httpbin.baseURL)/redirect-to?url=" + encoded(middle)
            let script = """
                plugin logger on
                set output quiet
                get '\(first)'
                print redirects
                print hops
                history export har > calls.har
                """
            let result = try await WSHProcess.run(["-c", script], environment: ["XDG_STATE_HOME": state.path], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("/redirect-to?url=/get&appid=***"), "the middle hop's URL: \(result.stdout)")
            #expect(result.stderr.components(separatedBy: "-> 302").count == 3, "both redirects logged: \(result.stderr)")
            let har = String(decoding: FileManager.default.contents(atPath: directory.path + "/calls.har") ?? Data(), as: UTF8.self)
            #expect(har.contains("redirect-to"), "\(result.stderr)")
            let verbose = try await WSHProcess.run(["-c", "plugin logger on verbose\nset output quiet\nget '\(first)'"],
                                                   environment: ["XDG_STATE_HOME": state.path]).stderr
            #expect(verbose.components(separatedBy: "> GET ").count == 4, "every hop logged: \(verbose)")
            for (text, place) in [(result.stdout, "redirects and hops"), (result.stderr, "the logger"), (har, "the HAR export"),
                                  (verbose, "the verbose logger"), (Self.databaseText(state), "the history")] {
                #expect(!text.contains("RdApp"), "\(place) shows the appid: \(text)")
            }
        }
    }

    /// The password of a URL a query value holds (`?to=http://eve:PW@host/`, percent-encoded too,
    /// also when the password holds a character its URL encodes) is a secret from the
    /// first hop on: masked in the logger, `-v`, `url`, the call history and an
    /// error (it was masked only once a redirect's Location repeated it), the rest as written.
    @Test func thePasswordOfAURLInAQueryValueIsMaskedFromTheFirstHop() async throws {
        let state = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(state) }
        let closed = try LoopbackPort.free()
        try await withLoopbackServer { server in
            let script = """
                plugin logger on verbose
                get '\(server.baseURL)/status/200?to=http://eve:EvilPw123@127.0.0.1:9/x&n=1' -v
                print url
                history show 1
                get '\(server.baseURL)/status/200?to=http%3A%2F%2Fbob%3AHunter%252B2pw%40host%2Fx' -v
                get 'http://127.0.0.1:\(closed)/cb?next=http%3A%2F%2Feve%3AEvilPw123%40h2%2F'
                """
            let result = try await WSHProcess.run(["-c", script], environment: ["XDG_STATE_HOME": state.path])
            #expect(result.status != 0 && result.stderr.contains("error"), "\(result.stderr)")
            #expect(result.stderr.contains("> GET \(server.baseURL)/status/200?to=http://eve:***@127.0.0.1:9/x&n=1"), "the logger: \(result.stderr)")
            #expect(result.stdout.contains("GET /status/200?to=http://eve:***@127.0.0.1:9/x&n=1 HTTP/1.1"), "-v: \(result.stdout)")
            for (text, place) in [(result.stdout, "the output"), (result.stderr, "the logger and the error"),
                                  (Self.databaseText(state), "the call history")] {
                #expect(!text.contains("EvilPw123"), "\(place) shows the password: \(text)")
                // A password with a character its URL encodes (`+`), encoded again in the value (review-wire2 sec. 4).
                #expect(!text.contains("Hunter"), "\(place) shows the password: \(text)")
            }
        }
    }

    /// A WSGI server reads a header's bytes as ISO-8859-1, so httpbin echoes an `env` secret's
    /// UTF-8 `é` as `Ã©`: that form is masked in the history and in `print` as the others are (the
    /// history kept it in clear).
    @Test func aNonASCIISecretEchoedAsLatin1IsMasked() async throws {
        let state = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(state) }
        try await HTTPBinServer.with { httpbin in
            let script = """
                let t = env WSH_LATIN1_SECRET
                set output quiet
                post \(httpbin.baseURL)/anything X-H:$t
                print .headers
                """
            let result = try await WSHProcess.run(["-c", script], environment: ["XDG_STATE_HOME": state.path, "WSH_LATIN1_SECRET": "Lt1Zq+cd/ef==g h\u{e9}\"x"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("X-H") && !result.stdout.contains("Lt1Zq"), "print shows the secret: \(result.stdout)")
            let database = Self.databaseText(state)
            #expect(database.contains("X-H"), "the echo is kept")
            #expect(!database.contains("Lt1Zq"), "the history holds the secret: \(database)")
        }
    }
}
