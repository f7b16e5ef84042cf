import Foundation
import Synchronization
import TestSupport
import Testing

/// `wsh serve` as a user runs it: the built binary serving a file, asked by curl and by another wsh.
@Suite struct ServeTests {
    /// A small API: a user with two samples, a JSON create, and a query with a required item.
    static let api = """
        target user { path /api/users/{id}; sample @user.json; sample @missing.json status 404 }
        target create { path /api/users; method POST; json name age:=30; sample @created.json status 201 }
        target search { path /api/search; query q limit=10; sample @found.json }
        """

    static func apiDirectory() throws -> URL {
        let directory = try WSHProcess.temporaryDirectory()
        try api.write(to: directory.appendingPathComponent("api.wsh"), atomically: true, encoding: .utf8)
        for (name, body) in [("user.json", #"{"id":7,"name":"Ada"}"#), ("missing.json", #"{"error":"no such user"}"#),
                             ("created.json", #"{"id":8,"name":"Grace"}"#), ("found.json", #"{"results":[{"id":7}]}"#)] {
            try body.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return directory
    }

    /// Starts `wsh serve` on a free port and waits until it says it listens.
    /// On a thread of its own, as every wait here: a wait on the cooperative pool stalled every
    /// other test in the process while the machine was busy.
    static func serve(_ arguments: [String], directory: URL, environment: [String: String] = [:]) async throws -> (RunningWSH, Int) {
        let server = try RunningWSH(["serve"] + arguments + ["--port", "0"], environment: environment, directory: directory)
        guard try await offPool({ server.waitForOutput(" (Ctrl-C stops)", inStderr: true) }),
              let url = server.stderr.firstMatch(of: #/at http://127\.0\.0\.1:(\d+) /#), let port = Int(url.1) else {
            throw RawHTTPConnection.Failure(description: "wsh serve did not start: \(server.stderr)")
        }
        return (server, port)
    }

    static func curl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-i", "--max-time", "60"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.runSerially()
        let data = output.fileHandleForReading.readToEndRetryingInterrupts()
        process.waitUntilExitPolling()
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }

    @Test func curlGetsEachRouteEachSampleAndEachErrorShape() async throws {
        let directory = try Self.apiDirectory()
        let (server, port) = try await Self.serve(["api.wsh"], directory: directory)
        let base = "http://127.0.0.1:\(port)"
        let answers = try await offPool { () -> [String] in
            let big = directory.appendingPathComponent("big.json")
            try Data(repeating: UInt8(ascii: " "), count: 10 * 1024 * 1024 + 1).write(to: big)
            return try [
                Self.curl(["\(base)/api/users/7"]),
                Self.curl(["-H", "Prefer: code=404", "\(base)/api/users/9"]),
                Self.curl(["-H", "Content-Type: application/json", "-d", #"{"name":"Grace","age":41}"#, "\(base)/api/users"]),
                Self.curl(["\(base)/api/search?q=ada"]),
                Self.curl(["\(base)/api/search"]),
                Self.curl(["-H", "Content-Type: application/json", "-d", #"{"name":"Grace","age":"41"}"#, "\(base)/api/users"]),
                Self.curl(["\(base)/api/userz/7"]),
                Self.curl(["-X", "DELETE", "\(base)/api/users/7"]),
                Self.curl(["-H", "Content-Type: application/json", "--data-binary", "@\(big.path)", "\(base)/api/users"]),
                Self.curl(["-H", "Prefer: code=500", "\(base)/api/users/7"]),
            ]
        }
        server.interrupt()
        #expect(try await offPool { server.waitForExit() } == 0)
        #expect(answers[0].hasPrefix("HTTP/1.1 200 OK\n") && answers[0].contains("Content-Type: application/json\n") && answers[0].hasSuffix(#"{"id":7,"name":"Ada"}"#), "\(answers[0])")
        #expect(answers[1].hasPrefix("HTTP/1.1 404 Not Found\n") && answers[1].hasSuffix(#"{"error":"no such user"}"#), "\(answers[1])")
        #expect(answers[2].hasPrefix("HTTP/1.1 201 Created\n") && answers[2].hasSuffix(#"{"id":8,"name":"Grace"}"#), "\(answers[2])")
        #expect(answers[3].hasPrefix("HTTP/1.1 200 OK\n"), "\(answers[3])")
        #expect(answers[4].hasPrefix("HTTP/1.1 400 Bad Request\n") && answers[4].contains("Content-Type: application/problem+json\n")
                && answers[4].contains(#""detail":"required query parameter 'q' is missing (target 'search')""#), "\(answers[4])")
        #expect(answers[5].hasPrefix("HTTP/1.1 400 ") && answers[5].contains("JSON field 'age' should be a number, not a string"), "\(answers[5])")
        #expect(answers[6].hasPrefix("HTTP/1.1 404 ") && answers[6].contains(#""nearest":["GET /api/users/{id} (user)""#), "\(answers[6])")
        #expect(answers[7].hasPrefix("HTTP/1.1 405 ") && answers[7].contains("Allow: GET, HEAD\n"), "\(answers[7])")
        #expect(answers[8].hasPrefix("HTTP/1.1 413 "), "\(answers[8].prefix(300))")
        #expect(answers[9].hasPrefix("HTTP/1.1 500 ") && answers[9].contains("answers 200, 404 only"), "\(answers[9])")
        let log = server.stderr
        #expect(log.contains("GET /api/users/7 -> 200 user "), "\(log)")
        #expect(log.contains("GET /api/search -> 400 search "))
        #expect(log.contains("POST /api/users -> 413 "))
        #expect(log.hasSuffix("wsh serve: stopped\n"), "\(log)")
    }

    @Test func anotherWshCallsTheServedTargetsAndChecksThem() async throws {
        let directory = try Self.apiDirectory()
        let (server, port) = try await Self.serve(["api.wsh", "--quiet"], directory: directory)
        let result = try await WSHProcess.run(["-c", """
            set base http://127.0.0.1:\(port)
            source api.wsh
            call user id=7
            expect status == 200
            expect .name == Ada
            call create name=Grace
            expect status == 201
            call search q=x limit=3
            expect .results[0].id == 7
            """], directory: directory)
        server.interrupt()
        #expect(try await offPool { server.waitForExit() } == 0)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#"{"id":7,"name":"Ada"}"#))
        #expect(!server.stderr.contains(" -> "), "--quiet logs no request: \(server.stderr)")
    }

    @Test func aThousandRequestsFromFiftyConnectionsAreAllAnswered() async throws {
        let directory = try Self.apiDirectory()
        let (server, port) = try await Self.serve(["api.wsh"], directory: directory)
        let answered = try await withThrowingTaskGroup(of: Int.self) { group in
            for connection in 0..<50 {
                group.addTask {
                    try await offPool {
                        let socket = try RawHTTPConnection(port: port)
                        var ok = 0
                        for request in 0..<20 {
                            try socket.send("GET /api/users/\(connection * 20 + request) HTTP/1.1\r\nHost: x\r\n\r\n")
                            let answer = try socket.readAnswer()
                            if answer.status == 200, answer.text == #"{"id":7,"name":"Ada"}"# { ok += 1 }
                        }
                        return ok
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(answered == 1000)
        // Every request logged once: none lost on the server's side either.
        #expect(try await offPool { server.waitForOutput("/api/users/999 -> 200", inStderr: true) })
        server.interrupt()
        #expect(try await offPool { server.waitForExit() } == 0)
        #expect(server.stderr.components(separatedBy: " -> 200 user ").count - 1 == 1000)
    }

    /// `statements` run by another wsh against the open-meteo pack served by `wsh serve`, and what
    /// the server logged.
    static func againstTheServedWeatherPack(_ statements: String) async throws -> (result: WSHProcess.Result, log: String) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let (server, port) = try await Self.serve([root.appendingPathComponent("packs/open-meteo.wsh").path], directory: root)
        let result = try await WSHProcess.run(["-c", "set base http://127.0.0.1:\(port)\n" + statements])
        server.interrupt()
        #expect(try await offPool { server.waitForExit() } == 0)
        return (result, server.stderr)
    }

    @Test func theWeatherPackServedAnswersTheWeatherCommandsOfAnotherWsh() async throws {
        let (result, log) = try await Self.againstTheServedWeatherPack("weather current Suwon\nweather forecast 4")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#"view="current" place="Suwon" source="open-meteo" temperature=6.8 min=1.9 max=12.4"#), "\(result.stdout)")
        #expect(result.stdout.contains(#"view="forecast" place="Suwon" source="open-meteo" temperature=12.1"#), "\(result.stdout)")
        #expect(log.contains("GET /v1/search?name=Suwon&count=1&language=en&format=json -> 200 geocode"), "\(log)")
        #expect(log.contains("&hourly=temperature_2m&timezone=auto&forecast_days=2 -> 200 hourly"))
    }

    /// `set units fahrenheit` asks Open-Meteo for it with a query item the pack does not declare
    /// (it was passed as a parameter, and every weather command failed on it).
    @Test func fahrenheitIsAskedOfOpenMeteo() async throws {
        let (result, log) = try await Self.againstTheServedWeatherPack("set units fahrenheit\nweather current Suwon\nweather forecast 4")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(log.contains("&forecast_days=1&temperature_unit=fahrenheit -> 200 current"), "\(log)")
        #expect(log.contains("&forecast_days=2&temperature_unit=fahrenheit -> 200 hourly"), "\(log)")
    }

    @Test func hostileBytesOnRawSocketsLeaveTheBinaryServing() async throws {
        let directory = try Self.apiDirectory()
        let (server, port) = try await Self.serve(["api.wsh", "--cors", "--delay", "150ms"], directory: directory)
        let hostile = ["GARBAGE\r\n\r\n", "GET / HTTP/1.1\r\nHost x\r\n\r\n", "\u{0}\u{1}\u{2}\r\n\r\n",
                       "POST /api/users HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n",
                       "GET /api/users/" + String(repeating: "%", count: 50_000) + " HTTP/1.1\r\n\r\n"]
        let outcome = try await offPool { () -> (answered: [Int], preflight: String, elapsed: Double) in
            for bytes in hostile {
                let connection = try RawHTTPConnection(port: port)
                try? connection.send(bytes)
                _ = try? connection.readAnswer()
            }
            let started = Date()
            let answered = try (0..<3).map { _ in
                let connection = try RawHTTPConnection(port: port)
                try connection.send("GET /api/users/7 HTTP/1.1\r\nHost: x\r\nOrigin: http://app.test\r\n\r\n")
                let answer = try connection.readAnswer()
                return answer.header("Access-Control-Allow-Origin") == "http://app.test" ? answer.status : -answer.status
            }
            let elapsed = Date().timeIntervalSince(started)
            let preflight = try Self.curl(["-X", "OPTIONS", "-H", "Origin: http://app.test", "-H", "Access-Control-Request-Method: POST",
                                           "http://127.0.0.1:\(port)/api/users"])
            return (answered, preflight, elapsed)
        }
        #expect(server.isRunning)
        server.interrupt()
        #expect(try await offPool { server.waitForExit() } == 0)
        #expect(outcome.answered == [200, 200, 200])
        // Three answers in sequence, each held 150 ms.
        #expect(outcome.elapsed >= 0.44)
        #expect(outcome.preflight.hasPrefix("HTTP/1.1 204 ") && outcome.preflight.contains("Access-Control-Allow-Methods: POST\n"), "\(outcome.preflight)")
    }

    @Test func aPortInUseAndAMissingFileAreErrorsInTheUsersTerms() async throws {
        let directory = try Self.apiDirectory()
        let (server, port) = try await Self.serve(["api.wsh"], directory: directory)
        let second = try await WSHProcess.run(["serve", "api.wsh", "--port", String(port)], directory: directory)
        server.interrupt()
        #expect(try await offPool { server.waitForExit() } == 0)
        #expect(second.status == 3)
        #expect(second.stderr.contains("error: cannot listen on 127.0.0.1:\(port): address already in use"), "\(second.stderr)")
        #expect(second.stderr.contains("note: choose another port with --port N, or 0 for any free one"))
        let missing = try await WSHProcess.run(["serve", "nowhere.wsh"], directory: directory)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read 'nowhere.wsh'"), "\(missing.stderr)")
        let host = try await WSHProcess.run(["serve", "api.wsh", "--host", "999.1.1.1"], directory: directory)
        #expect(host.status == 3)
        #expect(host.stderr == "wsh: error: cannot listen on 999.1.1.1:4010: no such host or address\n", "\(host.stderr)")
        let none = try await WSHProcess.run(["serve"], directory: directory)
        #expect(none.status == 1)
        #expect(none.stderr.contains("give at least one .wsh file"), "\(none.stderr)")
    }
}

/// `serve start` at the prompt: the server answers in the background while the same prompt calls it.
@Suite struct ServeAtThePromptTests {
    @Test func serveStartThenCallsFromTheSamePromptThenServeStop() async throws {
        let directory = try ServeTests.apiDirectory()
        let port = try LoopbackPort.free()
        let outcome = try await onTerminal(environment: try promptEnvironment(), directory: directory) { terminal in
            terminal.expect("wsh> ")
            terminal.type("source api.wsh\r", expecting: "wsh> ")
            terminal.type("serve start --port \(port) --quiet\r", expecting: "serving 3 routes at http://127.0.0.1:\(port)")
            terminal.type("set base http://127.0.0.1:\(port)\r", expecting: "wsh> ")
            terminal.type("call user id=7\r", expecting: "Ada")
            terminal.type("print status\r", expecting: "200")
            // A target declared while serving is a route on the next request.
            terminal.type("target late { path /late; sample @found.json }\r", expecting: "wsh> ")
            terminal.type("call late\r", expecting: "results")
            terminal.type("serve\r", expecting: "/late")
            terminal.type("serve stop\r", expecting: "stopped serving at http://127.0.0.1:\(port)")
            terminal.type("call user id=7\r", expecting: "connection refused")
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(outcome.exitStatus == 0)
    }
}

/// Recording live answers with the binary, then replaying them with the server gone: by `--stub`
/// and by `wsh serve`.
@Suite struct RecordThenReplayTests {
    @Test func aSessionRecordedOnlineReplaysOfflineByStubAndByServe() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let live = try await TestServer.start(routes: [
            "/users/7": StaticRoute(body: #"{"id":7,"name":"Ada","token":"live-token-123"}"#),
            "/users/9": StaticRoute(status: 404, body: #"{"error":"no such user"}"#),
        ])
        let record = try await WSHProcess.run(["-c", """
            let key = env USERS_API_KEY
            target user { base \(live.baseURL); path /users/{id}; query appid=$key }
            set record recorded
            call user id=7
            call user id=9
            save session.wsh
            """], environment: ["USERS_API_KEY": "k-secret-4711"], directory: directory)
        try await live.shutdown()
        #expect(record.status == 0, "\(record.stderr)")
        let saved = try String(contentsOf: directory.appendingPathComponent("session.wsh"), encoding: .utf8)
        let recorded = try String(contentsOf: directory.appendingPathComponent("recorded/user.json"), encoding: .utf8)
        #expect(saved.contains("sample @recorded/user.json") && saved.contains("sample @recorded/404/user.json status 404"), "\(saved)")
        #expect(!saved.contains("k-secret-4711") && !recorded.contains("live-token-123"), "\(saved)\n\(recorded)")

        let stubbed = try await WSHProcess.run(["--stub", "-c", "source session.wsh\ncall user id=7\nset stub immediate status 404\ncall user id=1"],
                                               environment: ["USERS_API_KEY": "k-secret-4711"], directory: directory)
        #expect(stubbed.status == 0, "\(stubbed.stderr)")
        #expect(stubbed.stdout.contains(#""name": "Ada""#) || stubbed.stdout.contains(#""name":"Ada""#), "\(stubbed.stdout)")
        #expect(stubbed.stdout.contains("no such user"))

        let (server, port) = try await ServeTests.serve(["session.wsh"], directory: directory, environment: ["USERS_API_KEY": "k-secret-4711"])
        let answers = try await offPool {
            try [ServeTests.curl(["http://127.0.0.1:\(port)/users/7?appid=x"]),
                 ServeTests.curl(["-H", "Prefer: code=404", "http://127.0.0.1:\(port)/users/7?appid=x"])]
        }
        server.interrupt()
        #expect(try await offPool { server.waitForExit() } == 0)
        #expect(answers[0].hasPrefix("HTTP/1.1 200 ") && answers[0].contains("Ada") && answers[0].contains("***"), "\(answers[0])")
        #expect(answers[1].hasPrefix("HTTP/1.1 404 ") && answers[1].contains("no such user"), "\(answers[1])")
    }
}
