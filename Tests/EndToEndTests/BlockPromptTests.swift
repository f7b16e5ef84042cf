import Foundation
import Testing

/// A block typed over several lines at the prompt: one history entry, recalled whole (also after
/// a restart), and completion of a target's fields inside it.
@Suite(.serialized) struct BlockPromptTests {
    @Test func aBlockIsOneHistoryEntryRecalledWholeAndRunAgain() async throws {
        let environment = try promptEnvironment()
        let history = try #require(environment["WSH_HISTORY"])
        let first = try await onTerminal(environment: environment) { terminal in
            terminal.expect("wsh> ")
            terminal.type("target t {\r", expecting: "...> ")
            terminal.type("  path /blocked\r", expecting: "...> ")
            terminal.type("}\r", expecting: "wsh> ")
            terminal.type("forget t\r", expecting: "wsh> ")
            // Up twice: past `forget t` to the whole block, shown on its lines and run whole.
            terminal.type("\u{1B}[A\u{1B}[A", expecting: "/blocked")
            terminal.type("\r", expecting: "wsh> ")
            let mark = terminal.mark
            terminal.type("show t\r")
            terminal.expect("target t {\r\n  path /blocked\r\n}\r\nwsh> ", after: mark)
            terminal.type("exit\r")
        }
        #expect(first.missed.isEmpty, "did not see \(first.missed) in \(first.screen.debugDescription)")
        #expect(first.exitStatus == 0)
        // One line a statement; the block's line breaks are 0x01. Run again, it is not entered twice.
        let stored = try String(contentsOf: URL(fileURLWithPath: history), encoding: .utf8)
        #expect(stored == "target t {\u{01}  path /blocked\u{01}}\nforget t\ntarget t {\u{01}  path /blocked\u{01}}\nshow t\nexit\n",
                "\(stored.debugDescription)")

        let second = try await onTerminal(environment: environment) { terminal in
            terminal.expect("wsh> ")
            terminal.type("\u{1B}[A\u{1B}[A\u{1B}[A", expecting: "/blocked")
            terminal.type("\r", expecting: "wsh> ")
            let mark = terminal.mark
            terminal.type("show t\r")
            terminal.expect("  path /blocked\r\n}\r\nwsh> ", after: mark)
            terminal.type("exit\r")
        }
        #expect(second.missed.isEmpty, "did not see \(second.missed) in \(second.screen.debugDescription)")
        #expect(second.exitStatus == 0)
    }

    /// A string left open on a line inside a block (typed or pasted) keeps the block open: the
    /// error comes when the block closes, and none of its lines runs on its own.
    @Test func anOpenStringInABlockRunsNoneOfTheBlock() async throws {
        let environment = try promptEnvironment()
        let outcome = try await onTerminal(environment: environment) { terminal in
            terminal.expect("wsh> ")
            terminal.type("repeat 1 {\r", expecting: "...> ")
            terminal.type("  echo \"step one\r", expecting: "...> ")
            terminal.type("  echo RAN-ALONE\r", expecting: "...> ")
            terminal.type("}\r", expecting: "unterminated string")
            terminal.expect("wsh> ")
            let mark = terminal.mark
            terminal.type("echo after\r")
            terminal.expect("after\r\nwsh> ", after: mark)
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(!outcome.screen.contains("\nRAN-ALONE"), "a line of the block ran: \(outcome.screen.debugDescription)")
        #expect(!outcome.screen.contains("unexpected '}'"), "\(outcome.screen.debugDescription)")
    }

    /// A paste whose first entry does not parse runs none of the rest: a string written over lines
    /// inside a block (`}'` closes the block on its line) left the block's body to run alone.
    @Test func aPasteStopsAtAnEntryThatDoesNotParse() async throws {
        let environment = try promptEnvironment()
        let outcome = try await onTerminal(environment: environment) { terminal in
            terminal.expect("wsh> ")
            let mark = terminal.mark
            terminal.type("\u{1B}[200~repeat 1 {\r  echo '{\r    \"a\": 1\r  }'\r  echo RAN-ALONE\r}\r\u{1B}[201~")
            terminal.expect("note: the rest of the paste (2 lines) was not run: it came after an error", after: mark)
            terminal.expect("wsh> ", after: mark)
            let after = terminal.mark
            terminal.type("echo after\r")
            terminal.expect("after\r\nwsh> ", after: after)
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(!outcome.screen.contains("\nRAN-ALONE"), "a line of the paste ran: \(outcome.screen.debugDescription)")
        #expect(!outcome.screen.contains("unexpected '}'"), "\(outcome.screen.debugDescription)")
    }

    /// The same under `set bail on`, where the parse error ends the entry as a failure; and a line
    /// typed right after the paste's end is kept and runs (review-main7 R1, R2).
    @Test func underBailAPasteStopsTooAndWhatIsTypedAfterItRuns() async throws {
        let environment = try promptEnvironment()
        let outcome = try await onTerminal(environment: environment) { terminal in
            terminal.expect("wsh> ")
            terminal.type("set bail on\r", expecting: "wsh> ")
            let mark = terminal.mark
            terminal.type("\u{1B}[200~repeat 1 {\r  echo '{\r  }'\r  echo RAN-ALONE\r}\r\u{1B}[201~echo typed-after\r")
            terminal.expect("note: the rest of the paste (2 lines) was not run: it came after an error", after: mark)
            terminal.expect("\r\ntyped-after\r\nwsh> ", after: mark)
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(!outcome.screen.contains("\nRAN-ALONE"), "a line of the paste ran: \(outcome.screen.debugDescription)")
    }

    /// A paste whose end mark never comes: keys typed after it, each under the 300 ms of silence
    /// that ends the drop, were all dropped as its lines. The drop ends after 2 s in all (review-main7 R7).
    @Test func aPasteWithoutItsEndMarkIsDroppedForTwoSecondsAtMost() async throws {
        let environment = try promptEnvironment()
        let outcome = try await onTerminal(environment: environment) { terminal in
            terminal.expect("wsh> ")
            let mark = terminal.mark
            terminal.type("\u{1B}[200~echo 'bad\r")
            // Typing, a key every 100 ms for 3 s: the user's keys, not the paste's.
            let start = Date()
            while Date().timeIntervalSince(start) < 3 {
                terminal.type(" ")
                usleep(100_000)
            }
            terminal.type("echo typed-after\r")
            terminal.expect("\r\ntyped-after\r\nwsh> ", after: mark)
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
    }

    /// Ctrl-C in an open block keeps what was typed as one entry, so Up brings it back to finish.
    @Test func anInterruptedBlockIsKeptInTheHistory() async throws {
        let environment = try promptEnvironment()
        let outcome = try await onTerminal(environment: environment) { terminal in
            terminal.expect("wsh> ")
            terminal.type("target half {\r", expecting: "...> ")
            terminal.type("  path /half\r", expecting: "...> ")
            terminal.type("\u{03}", expecting: "wsh> ")
            terminal.type("\u{1B}[A", expecting: "/half")
            terminal.type("\r", expecting: "...> ")
            terminal.type("}\r", expecting: "wsh> ")
            terminal.type("show half\r", expecting: "  path /half\r\n}\r\nwsh> ")
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(outcome.exitStatus == 0)
    }

    @Test func tabCompletesFieldsMethodsAndHeadersInsideATargetBlock() async throws {
        let outcome = try await onTerminal(environment: try promptEnvironment()) { terminal in
            terminal.expect("wsh> ")
            terminal.type("target t {\r", expecting: "...> ")
            // `me` + Tab is `method `, `PO` + Tab `POST `; `header Content-` + Tab `header Content-Type:`;
            // `va` + Tab `validate `, `2xx-` + Tab `2xx-3xx `. What Tab inserted shows in `show`.
            terminal.type("me\tPO\t\r", expecting: "...> ")
            terminal.type("header Content-\ttext/plain\r", expecting: "...> ")
            terminal.type("va\t2xx-\t\r", expecting: "...> ")
            terminal.type("}\r", expecting: "wsh> ")
            let mark = terminal.mark
            terminal.type("show t\r")
            terminal.expect("target t {\r\nmethod POST \r\nheader Content-Type:text/plain\r\nvalidate 2xx-3xx \r\n}\r\nwsh> ", after: mark)
            terminal.type("exit\r")
        }
        #expect(outcome.missed.isEmpty, "did not see \(outcome.missed) in \(outcome.screen.debugDescription)")
        #expect(outcome.exitStatus == 0)
    }
}
