import Foundation
import Testing
import TestSupport

/// Input from the user, a file or the disk that once crashed, hung or was ignored.
@Suite struct InputRobustnessTests {
    @Test func anUndefinedVariableInATargetPointsAtItsDeclarationOnAnEarlierLine() throws {
        let piped = try WSHProcess.run(["-"], stdin: "set bail off\ntarget f { base http://127.0.0.1:1; path /x; query q=$m }\ncall f\necho alive\n")
        #expect(piped.stdout == "alive\n")
        #expect(piped.stderr.contains("<stdin>:2:54: error: undefined variable 'm'"), "\(piped.stderr)")
        #expect(piped.stderr.contains("target f { base http://127.0.0.1:1; path /x; query q=$m }\n"))
        let screen = try PseudoTerminal(environment: ["HOME": try WSHProcess.temporaryDirectory().path])
        #expect(screen.waitFor("wsh> "))
        screen.type("target f { base http://127.0.0.1:1; path /x; query q=$m }\r")
        let mark = screen.mark
        screen.type("call f\r")
        #expect(screen.waitFor("undefined variable 'm'", after: mark))
        screen.type("echo still-here\r")
        #expect(screen.waitFor("still-here\r\nwsh> ", after: mark))
        screen.type("exit\r")
        #expect(screen.waitForExit() == 0)
    }

    @Test func deepNestingIsAnErrorAtEveryLevel() throws {
        let blocks = String(repeating: "x { ", count: 1_000_000) + String(repeating: "}", count: 1_000_000)
        let nested = try WSHProcess.run(["-"], stdin: blocks + "\n")
        #expect(nested.status == 2)
        #expect(nested.stderr.contains("blocks nested deeper than 256"), "\(nested.stderr.prefix(300))")
        let query = try WSHProcess.run(["--stub", "-"], stdin: "use open-meteo\ncall current\nprint .a" + String(repeating: "[0]", count: 1_000_000) + "\n")
        #expect(query.status == 3)
        #expect(query.stderr.contains("no key 'a'"), "\(query.stderr.prefix(300))")
        let directory = try WSHProcess.temporaryDirectory()
        try Data(repeating: UInt8(ascii: "["), count: 1_000_000).write(to: directory.appendingPathComponent("deep.json"))
        let json = try WSHProcess.run(["--stub", "-c", "target d {\n base http://x\n sample @deep.json\n}\ncall d"], directory: directory)
        #expect(json.status == 0)
        let parsed = try WSHProcess.run(["--stub", "-c", "target d {\n base http://x\n sample @deep.json\n}\ncall d\nprint .a"], directory: directory)
        #expect(parsed.status == 3)
        #expect(parsed.stderr.contains("nesting deeper than 512 levels"), "\(parsed.stderr.prefix(300))")
    }

    @Test func matchingIsLinearAndBounded() throws {
        let directory = try WSHProcess.temporaryDirectory()
        try ("\"" + String(repeating: "a", count: 100_000) + "\"").write(to: directory.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        let script = "target a {\n base http://x\n sample @a.json\n}\ncall a > /dev/null\nset bail off\nexpect body matches \"a.*b\"\nexpect .x matches \"^(a+)+$\"\n"
        let result = try WSHProcess.run(["--stub", "-c", script], directory: directory)
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("expectation failed: body matches"), "\(result.stderr)")
        let nested = try WSHProcess.run(["-c", "let s = aaaaaaaaaaaaaaaaaaaa!\nexpect $s matches \"^(a+)+$\""])
        #expect(nested.status == 4, "\(nested.stderr)")
        let refused = try WSHProcess.run(["-c", "let s = abab\nexpect $s matches \"(ab)\\\\1\""])
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("backreferences are not supported"), "\(refused.stderr)")
    }

    @Test func ctrlCStopsAMatchInProgress() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try ("\"" + String(repeating: "a", count: 20_000_000) + "\"").write(to: directory.appendingPathComponent("big.json"), atomically: true, encoding: .utf8)
        // About 180 million steps: seconds of work, over the step budget, unless Ctrl-C stops it.
        let script = "target a {\n base http://x\n sample @big.json\n}\ncall a > /dev/null\nset bail off\nexpect 1 == 2\nexpect body matches \"a*a*a*a*a*a*a*a*b\""
        let running = try RunningWSH(["--stub", "-c", script], directory: directory)
        #expect(try await offPool { running.waitForOutput("expectation failed: 1 == 2", inStderr: true) })
        running.interrupt()
        #expect(try await offPool { running.waitForExit(timeout: 5) } == 130)
        #expect(running.stderr.hasSuffix("wsh: interrupted\n"), "\(running.stderr)")
    }

    @Test func writeFailuresAreReportedAndExitThree() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: WSHProcess.binary)
        process.arguments = ["-c", "echo hi"]
        process.standardOutput = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let error = Pipe()
        process.standardError = error
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 3)
        #expect(message == "wsh: error: cannot write to standard output: no space left on device\n")
        let log = try WSHProcess.run(["--stub", "-c", "use open-meteo\nplugin logger on file /dev/full\ncall current > /dev/null\ncall current > /dev/null\necho after"])
        #expect(log.status == 3)
        #expect(log.stdout == "")
        let reports = log.stderr.components(separatedBy: "cannot write log file '/dev/full': no space left on device").count - 1
        #expect(reports == 1, "\(log.stderr)")
    }

    @Test func aSampleOverTheBodyLimitIsRefusedBeforeItIsRead() throws {
        let directory = try WSHProcess.temporaryDirectory()
        let path = directory.appendingPathComponent("huge.json").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 100 * 1024 * 1024)
        try handle.close()
        let result = try WSHProcess.run(["--stub", "-c", "target h {\n base http://x\n sample @huge.json\n}"], directory: directory)
        #expect(result.status == 3)
        #expect(result.stderr.contains("is 100.0 MB, over the body limit of 50.0 MB"), "\(result.stderr)")
    }

    @Test func anUnusableHistoryIsSaidOnceAndAHugeOneIsReadFromItsTail() throws {
        let home = try WSHProcess.temporaryDirectory()
        let blocked = home.appendingPathComponent("not-a-dir")
        try "x".write(to: blocked, atomically: true, encoding: .utf8)
        let terminal = try PseudoTerminal(environment: ["HOME": home.path, "WSH_HISTORY": blocked.path + "/history"])
        #expect(terminal.waitFor("wsh> "))
        terminal.type("echo one\r")
        terminal.type("echo two\r")
        #expect(terminal.waitFor("two\r\nwsh> "))
        terminal.type("exit\r")
        #expect(terminal.waitForExit() == 0)
        #expect(terminal.screen.components(separatedBy: "history is not saved").count - 1 == 1, "\(terminal.screen)")

        let history = home.appendingPathComponent("history")
        let line = String(repeating: "x", count: 99) + "\n"
        let chunk = String(repeating: line, count: 10_000)
        #expect(FileManager.default.createFile(atPath: history.path, contents: nil))
        let writer = try #require(FileHandle(forWritingAtPath: history.path))
        for _ in 0..<100 { writer.write(Data(chunk.utf8)) }
        writer.write(Data("echo last-entry\n".utf8))
        try writer.close()
        let big = try PseudoTerminal(environment: ["HOME": home.path, "WSH_HISTORY": history.path])
        #expect(big.waitFor("wsh> ", timeout: 3))
        let mark = big.mark
        big.type("\u{1B}[A")
        #expect(big.waitFor("echo last-entry", after: mark))
        big.type("\u{15}exit\r")
        #expect(big.waitForExit() == 0)
        let kept = try String(contentsOf: history, encoding: .utf8).split(separator: "\n")
        #expect(kept.count <= 5001)
        #expect(kept.contains("echo last-entry"))
    }
}
