import Foundation
import Plugins
import Targets
import TestSupport
import Testing

/// The spinner: drawn with the target's name and elapsed time at a terminal, erased at the end,
/// absent when not at a terminal.
@Suite struct LoadingPluginTests {
    @Test func atATerminalTheSpinnerDrawsAndIsErasedWhenTheCallEnds() async throws {
        try await withTestServer { server in
            let recorder = Recorder()
            let console = Console(isTerminal: true, write: recorder.output)
            let plugin = LoadingPlugin(console: console, interval: .milliseconds(40))
            let provider = Provider<Target>(plugins: [plugin])
            _ = try await provider.request(Target(name: "current", baseURL: server.baseURL, path: "/slow?ms=400"))
            let writes = recorder.lines
            let frames = writes.filter { $0.hasPrefix("\r") && $0 != Console.eraseLine }
            // How many frames fit in 400 ms depends on how busy the machine is; at least one does.
            #expect(!frames.isEmpty, "\(writes)")
            #expect(frames.first?.hasPrefix("\r⠋ current ") == true)
            #expect(frames.allSatisfy { $0.wholeMatch(of: /\r[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] current \d+\.\d+s\u{1B}\[K/) != nil })
            #expect(frames.count < 2 || frames[1].hasPrefix("\r⠙ current "))
            #expect(writes.last == Console.eraseLine)
            let countAfter = recorder.lines.count
            try await _Concurrency.Task.sleep(for: .milliseconds(150))
            #expect(recorder.lines.count == countAfter, "nothing is drawn after the erase")
        }
    }

    @Test func notAtATerminalNothingIsWritten() async throws {
        try await withTestServer { server in
            let recorder = Recorder()
            let plugin = LoadingPlugin(console: Console(isTerminal: false, write: recorder.output), interval: .milliseconds(10))
            _ = try await Provider<Target>(plugins: [plugin]).request(Target(name: "t", baseURL: server.baseURL, path: "/slow?ms=150"))
            #expect(recorder.lines.isEmpty)
        }
    }

    @Test func aPipeIsNotATerminal() throws {
        let pipe = Pipe()
        let console = Console(fileDescriptor: pipe.fileHandleForWriting.fileDescriptor)
        #expect(!console.isTerminal)
        console.showStatus("⠋ t 0.0s")
        console.clearStatus()
        console.write(line: "only this")
        try pipe.fileHandleForWriting.close()
        #expect(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "only this\n")
    }

    @Test func aLineWrittenUnderTheSpinnerErasesItAndRedrawsIt() {
        let recorder = Recorder()
        let console = Console(isTerminal: true, columns: { 12 }, write: recorder.output)
        console.write(line: "first")
        console.showStatus("⠋ a-very-long-target-name 0.1s")
        console.write(line: "retry 1/3")
        console.clearStatus()
        console.clearStatus()
        #expect(recorder.lines == [
            "first\n",
            "\r⠋ a-very-lo\u{1B}[K",
            "\r\u{1B}[Kretry 1/3\n⠋ a-very-lo",
            "\r\u{1B}[K",
        ])
    }

    @Test func eachAttemptOfARetriedCallIsShown() async throws {
        try await withTestServer { server in
            let recorder = Recorder()
            let console = Console(isTerminal: true, write: recorder.output)
            let provider = Provider<Target>(plugins: [
                RetryPlugin(count: 2, backoff: .milliseconds(100), jitter: 0, report: { console.write(line: $0) }),
                LoadingPlugin(console: console, interval: .milliseconds(20)),
            ])
            let target = Target(name: "flaky", baseURL: server.baseURL, path: "/flaky/spin?fail=2")
            _ = try await provider.request(target)
            let writes = recorder.lines
            #expect(writes.filter { $0 == Console.eraseLine }.count == 3, "\(writes)")
            let retries = writes.filter { $0.contains("retry ") }
            #expect(retries == ["retry 1/2 after 100 ms: 503 Service Unavailable\n", "retry 2/2 after 200 ms: 503 Service Unavailable\n"])
            #expect(writes.last == Console.eraseLine)
        }
    }
}
