import Foundation
import Plugins
import Targets
import TestSupport
import Testing

/// The spinner: drawn with the target's name and elapsed time at a terminal, erased at the end,
/// absent when not at a terminal.
@Suite(.timeLimit(.minutes(1))) struct LoadingPluginTests {
    @Test func atATerminalTheSpinnerDrawsAndIsErasedWhenTheCallEnds() async throws {
        try await withTestServer { server in
            let screen = SpinnerScreen()
            let console = Console(isTerminal: true, write: screen.output)
            let plugin = LoadingPlugin(console: console, interval: .milliseconds(20))
            // The request goes out once two frames are on the screen.
            let provider = Provider<Target>(transport: AfterFramesTransport(screen: screen, frames: 2), plugins: [plugin])
            _ = try await provider.request(Target(name: "current", baseURL: server.baseURL, path: "/status/204"))
            let writes = screen.lines
            let frames = writes.filter(SpinnerScreen.isFrame)
            #expect(frames.count >= 2, "\(writes)")
            #expect(frames.first?.hasPrefix("\r⠋ current ") == true, "\(writes)")
            #expect(frames.dropFirst().first?.hasPrefix("\r⠙ current ") == true, "\(writes)")
            #expect(frames.allSatisfy { $0.wholeMatch(of: /\r[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] current \d+\.\d+s\u{1B}\[K/) != nil })
            #expect(writes.filter { $0 == Console.eraseLine }.count == 1)
            // The provider awaits didReceive, and Spinner.end awaits the drawing task before it
            // erases: the erase is the last write, and no frame can come after it.
            #expect(writes.last == Console.eraseLine)
        }
    }

    /// A call answered within the delay leaves the terminal untouched: no frame, no erase.
    @Test func anAnswerWithinTheDelayDrawsNothing() async throws {
        try await withTestServer { server in
            let recorder = Recorder()
            let console = Console(isTerminal: true, write: recorder.output)
            let plugin = LoadingPlugin(console: console, interval: .milliseconds(10), delay: .seconds(60))
            _ = try await Provider<Target>(plugins: [plugin]).request(Target(name: "t", baseURL: server.baseURL, path: "/status/204"))
            #expect(recorder.lines.isEmpty, "\(recorder.lines)")
        }
    }

    /// A twin spinner at a terminal is the clock: the request is answered once it has drawn three
    /// frames, so the one that is not at a terminal had the time to draw as many, and drew none.
    @Test func notAtATerminalNothingIsWritten() async throws {
        try await withTestServer { server in
            let recorder = Recorder()
            let notTerminal = LoadingPlugin(console: Console(isTerminal: false, write: recorder.output), interval: .milliseconds(10))
            let screen = SpinnerScreen()
            let twin = LoadingPlugin(console: Console(isTerminal: true, write: screen.output), interval: .milliseconds(10))
            let provider = Provider<Target>(transport: AfterFramesTransport(screen: screen, frames: 3), plugins: [notTerminal, twin])
            _ = try await provider.request(Target(name: "t", baseURL: server.baseURL, path: "/status/204"))
            #expect(screen.lines.filter(SpinnerScreen.isFrame).count >= 3)
            #expect(recorder.lines.isEmpty, "\(recorder.lines)")
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
        #expect(String(decoding: pipe.fileHandleForReading.readToEndRetryingInterrupts(), as: UTF8.self) == "only this\n")
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
            let screen = SpinnerScreen()
            let console = Console(isTerminal: true, write: screen.output)
            // Each attempt goes out once its spinner has drawn a frame.
            let provider = Provider<Target>(transport: AfterFramesTransport(screen: screen), plugins: [
                RetryPlugin(count: 2, backoff: .milliseconds(100), jitter: 0, report: { console.write(line: $0) }),
                LoadingPlugin(console: console, interval: .milliseconds(20)),
            ])
            let target = Target(name: "flaky", baseURL: server.baseURL, path: "/flaky/spin?fail=2")
            let response = try await provider.request(target)
            #expect(response.status == 200)
            let writes = screen.lines
            // Frames of one attempt are one step; every attempt is drawn, then erased before its notice.
            var steps: [String] = []
            for write in writes {
                let step = SpinnerScreen.isFrame(write) ? "frames" : write == Console.eraseLine ? "erase" : write
                if step != "frames" || steps.last != "frames" { steps.append(step) }
            }
            #expect(steps == [
                "frames", "erase", "retry 1/2 after 100 ms: 503 Service Unavailable\n",
                "frames", "erase", "retry 2/2 after 200 ms: 503 Service Unavailable\n",
                "frames", "erase",
            ], "\(writes)")
        }
    }
}
