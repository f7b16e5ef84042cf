import Foundation
import TestSupport
import Testing

/// Ctrl-R finds any Unicode text in the history, as typed at a pseudo-terminal.
@Suite struct HistorySearchTests {
    @Test func ctrlRFindsKoreanTextAndAnOlderMatchAndEnterRunsIt() async throws {
        let outcome = try await onTerminal(environment: try promptEnvironment()) { terminal in
            terminal.expect("wsh> ")
            // Each line waits for the next prompt: a key typed before libedit reads again is the
            // terminal's (in cooked mode ^R reprints the line).
            terminal.type("echo 서울 날씨\r", expecting: "\r\n서울 날씨\r\nwsh> ")
            terminal.type("echo other\r", expecting: "other\r\nwsh> ")
            terminal.type("echo 서울 two\r", expecting: "서울 two\r\nwsh> ")
            // Ctrl-R, 서울: the newest match; Ctrl-R again: the older one; Enter runs it.
            terminal.type("\u{12}서울", expecting: "(search)'서울': echo 서울 two")
            terminal.type("\u{12}", expecting: "(search)'서울': echo 서울 날씨")
            let mark = terminal.mark
            terminal.type("\r")
            terminal.expect("\r\n서울 날씨\r\nwsh> ", after: mark)
            // No match says so; Ctrl-G gives back the line as it was.
            terminal.type("echo kept\u{12}😀", expecting: "(search, no match)'😀'")
            terminal.type("\u{07}\r", expecting: "\r\nkept\r\n")
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(outcome.exitStatus == 0)
    }
}
