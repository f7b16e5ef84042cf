import CEdit
import Foundation

/// The interactive prompt on libedit: emacs keys, Ctrl-R search, persistent history,
/// tab completion, and Ctrl-C that clears the line instead of killing the shell.
///
/// libedit is used from one ``ReaderThread`` only, never from the session's event loop: a read
/// waits for keys there. Completion reads the ``CompletionSnapshot`` handed to that read.
public final class EditLineReader: LineReader, @unchecked Sendable {
    // Unchecked, not behind a lock: libedit's handles and the mutable state below are confined to
    // `thread` (after init), which runs one read at a time; a Mutex would add nothing.
    private let editLine: OpaquePointer
    private let history: OpaquePointer
    private let historyFile: HistoryFile
    private let thread = ReaderThread()
    private var lastEntry: String?
    /// The lines read of a statement still open (a `{` block, a line continued with `\\`): they
    /// become one history entry when it is complete, and completion reads them as context.
    private var statementLines: [String] = []
    /// Whether ``statementLines`` make a complete statement yet.
    private var statementScanner = EntryScanner()
    /// The session as completion sees it during the current read.
    private var snapshot = CompletionSnapshot()
    /// Hides secrets in a statement (its lines joined by line breaks) before it is written to the
    /// history file; called on the reader's thread.
    let mask: @Sendable (String) -> String

    public init?(historyPath: String, mask: @escaping @Sendable (String) -> String) {
        Self.useUTF8Locale()
        guard let editLine = wsh_el_init("wsh", Self.screen == STDERR_FILENO ? 1 : 0), let history = history_init() else { return nil }
        self.editLine = editLine
        self.history = history
        self.historyFile = HistoryFile(path: historyPath) { ShellIO.writeAll(STDERR_FILENO, Array($0.utf8)) }
        self.mask = mask
        EditLineCallbacks.reader = self
        wsh_history_setsize(history, Int32(HistoryFile.limit))
        wsh_history_setunique(history, 1)
        wsh_el_set_editor(editLine, "emacs")
        wsh_el_set_hist(editLine, history)
        wsh_el_set_prompt(editLine, EditLineCallbacks.prompt)
        wsh_el_addfn(editLine, "wsh-complete", "Complete the word before the cursor", EditLineCallbacks.complete)
        wsh_el_bind(editLine, "^I", "wsh-complete")
        // ^C arrives as a key, not SIGINT, while a line is edited: it clears the line.
        wsh_el_setty_clear(editLine, "isig")
        wsh_el_addfn(editLine, "wsh-interrupt", "Discard the line", EditLineCallbacks.interrupt)
        wsh_el_bind(editLine, "^C", "wsh-interrupt")
        wsh_el_addfn(editLine, "wsh-search", "Search the history", EditLineCallbacks.search)
        wsh_el_bind(editLine, "^R", "wsh-search")
        el_source(editLine, nil)
        // Bracketed paste: the terminal marks pasted text, so a Tab in it is a tab, not completion.
        // Bound after ~/.editrc, whose `bind -v` would drop the marks and leave a paste to vi's keys.
        wsh_el_addfn(editLine, "wsh-paste-start", "Pasted text begins", EditLineCallbacks.pasteStart)
        wsh_el_bind(editLine, "\\e[200~", "wsh-paste-start")
        wsh_el_addfn(editLine, "wsh-paste-end", "Pasted text ends", EditLineCallbacks.pasteEnd)
        wsh_el_bind(editLine, "\\e[201~", "wsh-paste-end")
        for line in historyFile.load() {
            wsh_history_enter(history, line)
            lastEntry = line
        }
    }

    /// libedit reads multibyte characters only under a locale whose character type says so: the
    /// user's (`LANG`, `LC_ALL`, `LC_CTYPE`), or C.UTF-8 when that is plain C or not installed,
    /// so that `서울` or an emoji typed at the prompt is kept, not dropped byte by byte.
    private static func useUTF8Locale() {
        if let chosen = setlocale(LC_CTYPE, ""), String(cString: chosen).lowercased().replacingOccurrences(of: "-", with: "").contains("utf8") {
            return
        }
        _ = setlocale(LC_CTYPE, "C.UTF-8")
    }

    deinit {
        el_end(editLine)
        history_end(history)
    }

    public var completes: Bool { true }

    public func readLine(continuation: Bool, completions: CompletionSnapshot?) async -> LineInput {
        await thread.run { self.read(continuation: continuation, completions: completions) }
    }

    public func dropRestOfPaste() async -> Int {
        await thread.run { self.dropPaste() }
    }

    /// On the reader's thread: the rest of a paste (the terminal sent it whole, up to its end mark,
    /// and libedit reads a byte at a time, so it waits in the terminal's queue) read and dropped,
    /// with the terminal's line editing and echo off meanwhile. A paste whose end mark does not
    /// come within 300 ms ends there, and any after 2 s in which no more came at a paste's rate (a
    /// few bytes queued at once): keys typed after a paste whose end mark never comes are the
    /// prompt's (review-main7 R7), and a long paste is dropped whole.
    private func dropPaste() -> Int {
        guard EditLineCallbacks.pasting else { return 0 }
        EditLineCallbacks.pasting = false
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return 0 }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        let endMark = Array(Self.pasteEndMark.utf8)
        var dropped: [UInt8] = []
        func ended() -> Bool { dropped.suffix(endMark.count).elementsEqual(endMark) }
        let clock = ContinuousClock()
        var deadline = clock.now.advanced(by: .seconds(2))
        // A byte at a time, as libedit reads: keys typed after the end mark stay for the prompt.
        while !ended() {
            let left = clock.now.duration(to: deadline).components
            let wait = min(300, left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000)
            guard wait > 0 else { break }
            var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&input, 1, Int32(wait))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { break }
            var byte: UInt8 = 0
            let count = Glibc.read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count == 1 else { break }
            dropped.append(byte)
            // Bytes queued behind this one came faster than keys are typed: the paste goes on, however
            // long it takes to arrive (a slow link) or to read.
            var queued: Int32 = 0
            if ioctl(STDIN_FILENO, UInt(FIONREAD), &queued) == 0, queued >= 4 { deadline = clock.now.advanced(by: .seconds(2)) }
        }
        if ended() { dropped.removeLast(endMark.count) }
        return dropped.split(whereSeparator: { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") })
            .filter { !$0.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") } }.count
    }

    /// On the reader's thread.
    private func read(continuation: Bool, completions: CompletionSnapshot?) -> LineInput {
        if let completions { snapshot = completions }
        if !continuation { resetStatement() }
        EditLineCallbacks.continuation = continuation
        EditLineCallbacks.interrupted = false
        var count: Int32 = 0
        // libedit prints the prompt, then leaves the kernel's cooked mode at its first read: keys
        // typed as soon as the prompt shows met the kernel's line editing (a Backspace erased in
        // its buffer, an arrow key was echoed as ^[[D). Editing mode comes first; el_gets ends it.
        _ = wsh_el_prep_term(editLine, 1)
        // Ctrl-D typed while a statement ran (the terminal cooked) is kept by the kernel as an end
        // of file that the switch to editing mode turns into a NUL byte, and libedit binds NUL to
        // quoted-insert (it binds each terminal character it disables, and VLNEXT, disabled, is 0):
        // the next key went into the line as typed. NUL is Ctrl-Space's set-mark again, bound after
        // the switch, which may rebind the terminal's characters.
        wsh_el_bind(editLine, "^@", "em-set-mark")
        // The terminal marks pasted text only while a line is edited: a command's own reads get it as sent.
        // A paste's end mark lost (the kernel drops typed-ahead input at a Ctrl-C) would leave Tab
        // inserting tabs: with nothing left to read, no paste goes on.
        if EditLineCallbacks.pasting, !Self.inputWaiting() { EditLineCallbacks.pasting = false }
        if Self.marksPaste { ShellIO.writeAll(Self.screen, Array(Self.bracketedPasteOn.utf8)) }
        let raw = el_gets(editLine, &count)
        if Self.marksPaste { ShellIO.writeAll(Self.screen, Array(Self.bracketedPasteOff.utf8)) }
        guard let raw, count > 0 else {
            // An open block given up (Ctrl-C) or ended (Ctrl-D) is kept as typed, so Up brings it back.
            rememberStatement()
            resetStatement()
            if EditLineCallbacks.interrupted {
                ShellIO.writeAll(Self.screen, Array("^C\n".utf8))
                return .interrupted
            }
            ShellIO.writeAll(Self.screen, Array("\n".utf8))
            return .endOfInput
        }
        var line = String(cString: raw)
        while line.hasSuffix("\n") || line.hasSuffix("\r") { line.removeLast() }
        statementLines.append(line)
        statementScanner.add(line + "\n")
        // The prompt loop reads on while the statement needs more (an open `{`, a trailing `\`):
        // the whole statement is one history entry, entered once it is complete.
        if !statementScanner.needsMoreInput || statementScanner.depth > RawStatementReader.maximumDepth {
            rememberStatement()
            resetStatement()
        }
        return .line(line)
    }

    /// xterm's bracketed paste mode, which terminals since 2005 (and tmux, screen) follow.
    private static let bracketedPasteOn = "\u{1B}[?2004h"
    private static let bracketedPasteOff = "\u{1B}[?2004l"
    /// What the terminal sends after pasted text.
    private static let pasteEndMark = "\u{1B}[201~"
    /// Where the prompt and the line are drawn: stdout, or stderr when stdout is a pipe or a file
    /// (`wsh | tee log`), as bash draws its prompt, so the log gets only the output.
    static let screen = isatty(STDOUT_FILENO) == 1 ? STDOUT_FILENO : STDERR_FILENO
    /// Only where the prompt is drawn on the terminal.
    private static let marksPaste = isatty(screen) == 1

    /// Whether the terminal has bytes for the prompt already, the rest of a paste.
    private static func inputWaiting() -> Bool {
        var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&input, 1, 0) > 0
    }

    private func resetStatement() {
        statementLines = []
        statementScanner = EntryScanner()
    }

    /// Enters the statement read so far, its lines joined by line breaks, into the history and its
    /// file, with literal credentials and secrets masked.
    private func rememberStatement() {
        let entry = statementLines.joined(separator: "\n")
        guard !entry.allSatisfy(\.isWhitespace) else { return }
        let masked = mask(entry)
        guard masked != lastEntry else { return }
        lastEntry = masked
        wsh_history_enter(history, masked)
        historyFile.append(masked)
    }

    /// Ctrl-R (``HistorySearch``).
    fileprivate func searchHistory() -> UInt8 {
        HistorySearch(editLine: editLine, history: history) { prompt in
            free(EditLineCallbacks.searchPrompt)
            EditLineCallbacks.searchPrompt = prompt.map { strdup($0) }
        }.run()
    }

    /// Inserts the completion of the word before the cursor, or lists the choices.
    fileprivate func completeAtCursor() -> UInt8 {
        if EditLineCallbacks.pasting {
            el_insertstr(editLine, "\t")
            return UInt8(CC_REFRESH)
        }
        guard let info = el_line(editLine)?.pointee, let buffer = info.buffer, let cursor = info.cursor else { return UInt8(CC_ERROR) }
        let before = String(decoding: UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self),
                                                          count: max(0, cursor - buffer)), as: UTF8.self)
        let word = Completion.currentWord(before)
        // The lines of an open block come first: inside `target x {`, the fields complete.
        let context = statementLines.map { $0 + "\n" }.joined()
        let candidates = snapshot.completions(for: context + before)
        guard !candidates.isEmpty else { return UInt8(CC_REFRESH_BEEP) }
        let common = Completion.commonPrefix(candidates)
        if candidates.count == 1 {
            // A whole word: a string it opened is closed before the blank that follows it.
            let end = Completion.needsSpace(after: common) ? (Completion.openQuote(of: common).map { String($0) } ?? "") + " " : ""
            replace(word, with: common + end)
            return UInt8(CC_REFRESH)
        }
        if common.count > word.count {
            replace(word, with: common)
            return UInt8(CC_REFRESH)
        }
        let listing = snapshot.listing(candidates, for: context + before, width: Pager.terminalSize(of: Self.screen)?.columns ?? 80)
        if candidates.count > Self.listsWithoutAsking {
            switch askToList(candidates.count) {
            case true?: break
            case false?:
                ShellIO.writeAll(Self.screen, Array("\n".utf8))
                return UInt8(CC_REDISPLAY)
            case nil:
                return EditLineCallbacks.interruptLine()
            }
        }
        ShellIO.writeAll(Self.screen, Array(("\n" + listing).utf8))
        return UInt8(CC_REDISPLAY)
    }

    /// How many candidates Tab lists without asking first: readline's `completion-query-items`.
    static let listsWithoutAsking = 100

    /// readline's question before a long list (`source /usr/bin/` has thousands): `y` or a blank
    /// lists them, `n`, Delete, Ctrl-G or Ctrl-D does not; another key rings and asks again. Nil for
    /// Ctrl-C, which clears the line there too, as readline's does.
    private func askToList(_ count: Int) -> Bool? {
        ShellIO.writeAll(Self.screen, Array("\nDisplay all \(count) possibilities? (y or n) ".utf8))
        while true {
            var key: CChar = 0
            guard el_getc(editLine, &key) == 1 else { return false }
            switch UInt8(bitPattern: key) {
            case UInt8(ascii: "y"), UInt8(ascii: "Y"), UInt8(ascii: " "): return true
            case UInt8(ascii: "n"), UInt8(ascii: "N"), 0x7F, 0x07, 0x04: return false
            case 0x03: return nil
            default: ShellIO.writeAll(Self.screen, [0x07])
            }
        }
    }

    /// Puts `completion` in place of the word before the cursor: only what it adds when it starts
    /// with the word, else the whole word (`dir` becomes `"dir with space/`, quoted).
    private func replace(_ word: String, with completion: String) {
        if completion.hasPrefix(word) {
            let suffix = String(completion.dropFirst(word.count))
            if !suffix.isEmpty { el_insertstr(editLine, suffix) }
            return
        }
        // libedit counts the line in wide characters, one a Unicode scalar.
        el_deletestr(editLine, Int32(word.unicodeScalars.count))
        el_insertstr(editLine, completion)
    }
}

/// C callbacks cannot capture context: they reach the one reader through here. libedit calls
/// them on the reader's thread from inside `el_gets`.
private enum EditLineCallbacks {
    nonisolated(unsafe) static var reader: EditLineReader?
    nonisolated(unsafe) static var continuation = false
    nonisolated(unsafe) static var interrupted = false
    /// Between the terminal's marks around pasted text. A pasted line break ends a read, so this
    /// outlives it: the next read takes the rest of the paste.
    nonisolated(unsafe) static var pasting = false
    nonisolated(unsafe) static let mainPrompt = strdup("wsh> ")
    nonisolated(unsafe) static let continuationPrompt = strdup("...> ")

    /// The prompt while Ctrl-R searches.
    nonisolated(unsafe) static var searchPrompt: UnsafeMutablePointer<CChar>?

    static let prompt: wsh_el_prompt = { _ in
        searchPrompt ?? (continuation ? continuationPrompt : mainPrompt)
    }

    static let search: wsh_el_function = { _, _ in
        reader?.searchHistory() ?? UInt8(CC_ERROR)
    }

    static let complete: wsh_el_function = { _, _ in
        reader?.completeAtCursor() ?? UInt8(CC_ERROR)
    }

    static let pasteStart: wsh_el_function = { _, _ in
        pasting = true
        return UInt8(CC_NORM)
    }

    static let pasteEnd: wsh_el_function = { _, _ in
        pasting = false
        return UInt8(CC_NORM)
    }

    static let interrupt: wsh_el_function = { _, _ in interruptLine() }

    /// Ctrl-C: `el_gets` ends, and the reader discards the line.
    static func interruptLine() -> UInt8 {
        interrupted = true
        pasting = false
        return UInt8(CC_EOF)
    }
}
