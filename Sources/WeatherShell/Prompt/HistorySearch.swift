import CEdit
import Foundation

/// Ctrl-R: incremental search back through the history, by characters.
///
/// libedit's own search reads bytes and stops at the first key that is not ASCII, so `서울`
/// could not be searched for. This one reads wide characters (`el_wgetc`): typed text narrows
/// the search, Ctrl-R again finds an older match, Backspace widens it, Enter runs the match,
/// Ctrl-G or Esc restores the line, any other control key keeps the match for editing.
struct HistorySearch {
    let editLine: OpaquePointer
    let history: OpaquePointer
    /// Shows `(search)'QUERY': ` as the prompt while searching; nil puts the usual prompt back.
    let setPrompt: (String?) -> Void

    /// Runs the search; returns what libedit should do next (a `CC_` code).
    func run() -> UInt8 {
        let entries = Self.entries(history)
        let original = currentLine()
        var query: [Character] = []
        var index = 0
        var found: Int?
        func search(from start: Int) {
            let text = String(query)
            guard !text.isEmpty else {
                found = nil
                return
            }
            found = entries.indices.dropFirst(start).first { entries[$0].contains(text) }
            if let found { index = found }
        }
        while true {
            let matched = found.map { entries[$0] } ?? (query.isEmpty ? original : nil)
            setPrompt("(search\(matched == nil && !query.isEmpty ? ", no match" : ""))'\(String(query))': ")
            replaceLine(with: matched ?? original)
            redraw()
            var key: wchar_t = 0
            guard el_wgetc(editLine, &key) > 0 else {
                setPrompt(nil)
                return UInt8(CC_EOF)
            }
            switch key {
            case 0x12:
                search(from: found == nil ? index : index + 1)
            case 0x7F, 0x08:
                if !query.isEmpty { query.removeLast() }
                index = 0
                search(from: 0)
            case 0x07, 0x1B, 0x03:
                return finish(with: original)
            case 0x0D, 0x0A:
                // Enter is given back to libedit, whose own newline ends the line and the screen line alike.
                el_push(editLine, "\n")
                return finish(with: matched ?? original)
            case 0..<0x20:
                return finish(with: matched ?? original)
            default:
                guard let scalar = Unicode.Scalar(UInt32(bitPattern: key)) else { continue }
                query.append(Character(scalar))
                search(from: index)
            }
        }
    }

    /// Leaves the search with `text` in the line under the usual prompt.
    private func finish(with text: String) -> UInt8 {
        setPrompt(nil)
        replaceLine(with: text)
        redraw()
        return UInt8(CC_REFRESH)
    }

    /// Draws the prompt and line again from the start of the screen line: libedit's refresh
    /// redraws only what it believes changed, and the prompt changing is not among it.
    private func redraw() {
        ShellIO.writeAll(EditLineReader.screen, Array("\r\u{1B}[J".utf8))
        wsh_el_refresh(editLine)
    }

    /// The history, newest first.
    static func entries(_ history: OpaquePointer) -> [String] {
        var entries: [String] = []
        var entry = wsh_history_get(history, H_FIRST)
        while let text = entry {
            entries.append(String(cString: text))
            entry = wsh_history_get(history, H_NEXT)
        }
        return entries
    }

    private func currentLine() -> String {
        guard let info = el_line(editLine)?.pointee, let buffer = info.buffer, let last = info.lastchar else { return "" }
        return String(decoding: UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self),
                                                    count: max(0, last - buffer)), as: UTF8.self)
    }

    /// Puts `text` in the line, the cursor at its end.
    private func replaceLine(with text: String) {
        guard let info = el_wline(editLine)?.pointee, let buffer = info.buffer, let cursor = info.cursor, let last = info.lastchar else { return }
        el_cursor(editLine, Int32(last - cursor))
        el_deletestr(editLine, Int32(last - buffer))
        if !text.isEmpty { el_insertstr(editLine, text) }
    }
}
