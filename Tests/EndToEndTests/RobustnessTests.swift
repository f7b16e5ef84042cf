import Foundation
import Testing
import TestSupport

/// Inputs that once crashed, hung or leaked: each must give a clear error or the right result.
@Suite struct RobustnessTests {
    @Test func quotedCommandWordsAreTheSameCommands() async throws {
        #expect(try await WSHProcess.run(["-c", "\"echo\" hi"]).stdout == "hi\n")
        let use = try await WSHProcess.run(["-c", "\"use\""])
        #expect(use.status == 2)
        #expect(use.stderr.contains("wrong arguments for 'use'"))
    }

    /// A relative `XDG_STATE_HOME` put the call history and the line history under each working
    /// directory (runner tester's D31); the XDG spec says to ignore it, so `~/.local/state` holds them.
    @Test func aRelativeXDGStateHomeIsIgnored() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let home = directory.appendingPathComponent("home")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            let result = try await WSHProcess.run(["-c", "get \(server.baseURL)/echo/x > /dev/null"],
                                                  environment: ["HOME": home.path, "XDG_STATE_HOME": "relstate"], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("relstate").path))
            #expect(FileManager.default.fileExists(atPath: home.path + "/.local/state/wsh/calls.sqlite"))
        }
    }

    @Test func hugeDurationsAreRefusedNotTrapped() async throws {
        let option = try await WSHProcess.run(["-c", "set timeout 1e300s"])
        #expect(option.status == 3)
        #expect(option.stderr.contains("invalid value '1e300s' for 'timeout'"))
        // Written as literals, they are parse errors (exit 2); from a variable, errors when they run.
        for (value, code) in [("100000000000s", Int32(2)), ("$t", 3)] {
            let field = try await WSHProcess.run(["-c", "let t = 100000000000s\ntarget x {\n base http://127.0.0.1:1\n path /a\n timeout \(value)\n}\ncall x"])
            #expect(field.status == code, "\(value): \(field.stderr)")
            #expect(field.stderr.contains("at most a day"))
        }
        for (value, code) in [("9223372036854775807", Int32(2)), ("$n", 3)] {
            let retry = try await WSHProcess.run(["-c", "let n = 9223372036854775807\ntarget x {\n base http://127.0.0.1:1\n path /a\n retry \(value)\n}\ncall x"])
            #expect(retry.status == code, "\(value): \(retry.stderr)")
            #expect(retry.stderr.contains("retry takes a count from 0 to 100"))
        }
    }

    @Test func aReactorRunningItselfStopsWithAnError() async throws {
        let result = try await WSHProcess.run(["-c", "reactor r {\n state n = 0\n action x { r x }\n}\nr x"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("reactor actions nest more than 8 deep"))
    }

    @Test func exitInsideAnActionExitsWithItsCode() async throws {
        #expect(try await WSHProcess.run(["-c", "reactor r {\n state a = 1\n action x { exit 5 }\n}\nr x"]).status == 5)
    }

    @Test func secretsStayMaskedAfterUnsetAndInEchoesAndVars() async throws {
        let environment = ["WSH_TEST_TOK": "supersecret1"]
        let unset = try await WSHProcess.run(["-c", "let a = env WSH_TEST_TOK; let b = env WSH_TEST_TOK; unset a; echo $b; let a = 1; echo $b"], environment: environment)
        #expect(unset.stdout == "***\n***\n")
        let reactor = try await WSHProcess.run(["-c", "let k = env WSH_TEST_TOK\nreactor r {\n state a = \"\"\n action go p { emit a = $k; vars }\n}\nr go $k\nstate r\nset echo json\nr go x"],
                                         environment: environment)
        #expect(reactor.status == 0, "\(reactor.stderr)")
        #expect(!reactor.stdout.contains("supersecret1"))
        #expect(reactor.stdout.contains(#"r | a="***""#))
        #expect(reactor.stdout.contains("p = ***"))
    }

    @Test func redirectsTakeVariablesAndStrings() async throws {
        try await withLoopbackServer(routes: ["/a": StaticRoute(body: "{\"ok\":true}")]) { server in
            let directory = try WSHProcess.temporaryDirectory()
            let script = "target t {\n base \(server.baseURL)\n path /a\n}\nlet out = one.json\ncall t >$out\ncall t >\"two words.json\""
            let result = try await WSHProcess.run(["-c", script], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try String(contentsOf: directory.appendingPathComponent("one.json"), encoding: .utf8) == "{\"ok\":true}")
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("two words.json").path))
        }
    }

    @Test func sampleWithAVariableIsReadWhenTheTargetIsCalled() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try "{\"n\":7}".write(to: directory.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        let script = "target t {\n base http://127.0.0.1:1\n path /a\n sample @$dir/s.json\n}\nlet dir = \(directory.path)\nset output quiet\ncall t\nprint .n"
        let result = try await WSHProcess.run(["--stub", "-c", script])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "7\n")
    }

    @Test func dashTakesScriptArgumentsToo() async throws {
        #expect(try await WSHProcess.run(["-", "x=1"], stdin: "echo $x\n").stdout == "1\n")
    }

    @Test func expectWithoutASubjectPointsAtItsLine() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let script = directory.appendingPathComponent("ex.wsh")
        try "echo a\n\nexpect == 3\necho b\n\n\n".write(to: script, atomically: true, encoding: .utf8)
        let result = try await WSHProcess.run([script.path])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("\(script.path):3:8: error: missing value"))
    }
}

/// SIGTERM ends wsh as the signal would, and the log file holds every line logged before it.
@Suite struct TerminationTests {
    @Test func sigtermEndsAHangingScriptWithTheSignalAndKeepsTheLog() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            let script = directory.appendingPathComponent("hang.wsh")
            try """
            target ok { base \(server.baseURL); path /status/204 }
            target stuck { base \(server.baseURL); path /never }
            plugin logger on summary file calls.log
            call ok
            call stuck
            """.write(to: script, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: WSHProcess.binary)
            process.arguments = ["--norc", script.path]
            process.currentDirectoryURL = directory
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = directory.path
            environment["XDG_STATE_HOME"] = nil
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            try process.runSerially()
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(60)
            while server.hits("/never") == 0, clock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(server.hits("/never") == 1, "wsh's request reached the server")
            process.terminate()
            // A deadline of its own: under CI's load the wait for the hit could use up the shared one.
            // A wsh that ignored SIGTERM would never end, so any finite wait tells the two apart.
            let exitDeadline = clock.now + .seconds(30)
            while process.isRunning, clock.now < exitDeadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            // The test runner's threads block signals and Process passes that mask on: wsh must
            // unblock the signals it handles itself.
            #expect(!process.isRunning)
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                // Reading terminationReason of a running process traps: wait for the kill to land.
                try await offPool { process.waitUntilExitPolling() }
            }
            let errorOutput = errors.fileHandleForReading
            let stderr = try await offPool { String(decoding: errorOutput.readToEndRetryingInterrupts(), as: UTF8.self) }
            #expect(stderr.isEmpty, "\(stderr)")
            #expect(process.terminationReason == .uncaughtSignal)
            #expect(process.terminationStatus == SIGTERM)
            let log = (try? String(contentsOf: directory.appendingPathComponent("calls.log"), encoding: .utf8)) ?? ""
            #expect(log.contains("/status/204 -> 204 No Content"), "\(log)")
        }
    }
}

/// `wsh script | head`: once the reader has gone, wsh stops as `cat` does instead of running
/// every remaining call.
@Suite struct BrokenPipeTests {
    @Test func aClosedStdoutEndsTheScriptBySigpipe() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            let script = directory.appendingPathComponent("many.wsh")
            let calls = String(repeating: "call ok\n", count: 200)
            try "target ok { base \(server.baseURL); path /echo }\nplugin logger on summary file calls.log\n\(calls)"
                .write(to: script, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: WSHProcess.binary)
            process.arguments = ["--norc", script.path]
            process.currentDirectoryURL = directory
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try output.fileHandleForReading.close()
            try process.runSerially()
            try await offPool { process.waitUntilExitPolling() }
            #expect(process.terminationReason == .uncaughtSignal)
            #expect(process.terminationStatus == SIGPIPE)
            #expect(server.hits("/echo") < 200)
            let log = (try? String(contentsOf: directory.appendingPathComponent("calls.log"), encoding: .utf8)) ?? ""
            // The call whose body met the closed pipe died in the middle of its answer, as curl does;
            // every call before it is in the log, whose lines are written as each call ends.
            #expect(log.split(separator: "\n").count == server.hits("/echo") - 1, "held log lines are written first")
        }
    }
}
