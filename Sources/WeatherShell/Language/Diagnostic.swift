/// What kind of failure a diagnostic reports; it decides the process exit code.
public enum FailureKind: Int32, Sendable {
    case usage = 1
    case parse = 2
    case runtime = 3
    case expectation = 4
    case interrupted = 130

    /// The exit code of LANGUAGE.md for this kind of failure.
    public var exitCode: Int32 { rawValue }
}

/// An error with a place in the source, printed compiler-style:
/// `FILE:LINE:COL: error: MESSAGE`, the line, a caret under the span, then notes.
public struct Diagnostic: Error, Sendable {
    public var kind: FailureKind
    public var message: String
    public var file: SourceFile?
    public var span: SourceSpan?
    public var notes: [String]
    /// The failure came from the server's answer or its absence (no answer, a status the target
    /// refuses, a body that is not JSON), not from the script: `until` tries another round after it.
    public var comesFromTheAnswer = false
    /// The message with its values told apart from wsh's wording, when it was made so: a mask
    /// hides secrets in the values only.
    var wording: MessageText?
    /// The notes with their values told apart from wsh's wording, when they were made so.
    var noteWordings: [MessageText]?

    public init(_ kind: FailureKind, _ message: String, file: SourceFile? = nil, span: SourceSpan? = nil, notes: [String] = []) {
        self.kind = kind
        self.message = message
        self.file = file
        self.span = span
        self.notes = notes
    }

    /// A diagnostic whose message tells its values apart from wsh's wording.
    init(_ kind: FailureKind, _ wording: MessageText, file: SourceFile? = nil, span: SourceSpan? = nil, notes: [MessageText] = []) {
        self.init(kind, wording.text, file: file, span: span, notes: notes.map(\.text))
        self.wording = wording
        noteWordings = notes
    }

    /// The diagnostic as text, with secrets masked by `mask`: in the message's values only, when
    /// its wording is known.
    public func rendered(mask: (String) -> String = { $0 }) -> String {
        var out = ""
        let shown = masked(mask)
        let message = shown.message
        guard let file, let span, file.place == nil else {
            out = (file?.place).map { "\(mask($0)): error: " } ?? "wsh: error: "
            out += "\(message)\n"
            for note in shown.notes { out += "note: \(note)\n" }
            return out
        }
        let (line, column) = file.location(of: span.start)
        out = "\(file.name):\(line):\(column): error: \(message)\n"
        out += Self.excerpt(file: file, span: span, mask: mask)
        for note in shown.notes { out += "note: \(note)\n" }
        return out
    }

    /// The diagnostic with secrets masked by `mask` in its message and notes: in their values only
    /// where their wording is known, which stays told apart, so that masked again later (with
    /// secrets learned since) wsh's words stay whole.
    func masked(_ mask: (String) -> String) -> Diagnostic {
        var masked = self
        if let wording, wording.text == message {
            let shown = wording.masking(mask)
            masked.wording = shown
            masked.message = shown.text
        } else {
            masked.wording = nil
            masked.message = mask(message)
        }
        if let noteWordings, noteWordings.map(\.text) == notes {
            let shown = noteWordings.map { $0.masking(mask) }
            masked.noteWordings = shown
            masked.notes = shown.map(\.text)
        } else {
            masked.noteWordings = nil
            masked.notes = notes.map(mask)
        }
        return masked
    }

    /// The source line and a caret line; long lines are cut to a window around the span.
    static func excerpt(file: SourceFile, span: SourceSpan, mask: (String) -> String) -> String {
        let lineIndex = file.lineIndex(of: span.start)
        let range = file.lineRange(lineIndex)
        // A span is clamped to its line: one from another input must not index past this one.
        let spanStart = min(max(span.start, range.lowerBound), range.upperBound)
        let spanEnd = min(max(span.end, spanStart), range.upperBound)
        let (typed, place) = lineWithCredentialsShort(file, lineIndex)
        // The whole line is masked before a window is cut from it: a secret cut at the window's
        // edge would no longer match the mask, and its first characters would show.
        var lineText = String.UnicodeScalarView()
        lineText.append(contentsOf: typed)
        let line = Array(mask(String(lineText)).unicodeScalars)
        func maskedColumn(_ column: Int) -> Int {
            // Where the line's first `column` scalars end once masked: a column inside a secret
            // stands at its `***`.
            var prefix = String.UnicodeScalarView()
            prefix.append(contentsOf: typed.prefix(column))
            return zip(mask(String(prefix)).unicodeScalars, line).prefix { $0 == $1 }.count
        }
        let startColumn = maskedColumn(place(file.characterCount(from: range.lowerBound, to: spanStart)))
        let endColumn = max(startColumn, maskedColumn(place(file.characterCount(from: range.lowerBound, to: spanEnd))))
        let width = max(1, endColumn - startColumn)
        // Only the window is made printable: a 500 KB one-line input must not cost a string per character.
        let window = 100
        let from = line.count > window ? max(0, min(startColumn - 20, line.count - window)) : 0
        let shown = line.dropFirst(from).prefix(window)
        let caretColumn = max(0, min(startColumn - from, shown.count))
        let underCount = max(1, min(width, shown.count - caretColumn))
        // The columns of the first `count` scalars as shown: printable, wide characters (`서울`,
        // emoji) two columns each.
        func shownWidth(_ count: Int) -> Int {
            TerminalColumns.width(of: shown.prefix(count).map(Self.printable).joined().unicodeScalars, each: columns)
        }
        let before = shownWidth(caretColumn)
        let under = max(1, shownWidth(caretColumn + underCount) - before)
        let caret = String(repeating: " ", count: before) + "^" + String(repeating: "~", count: max(0, under - 1))
        return "   \(shown.map(Self.printable).joined())\n   \(caret)\n"
    }

    /// The line's scalars with each credential typed in it as `***`, whatever its length (starred
    /// column for column, the stars would tell it), and where a scalar of the line now stands: a
    /// caret under a credential stands under its `***`.
    private static func lineWithCredentialsShort(_ file: SourceFile, _ lineIndex: Int) -> ([Unicode.Scalar], (Int) -> Int) {
        let original = Array(file.text(file.lineRange(lineIndex)).unicodeScalars)
        let starred = Array(lineWithCredentialsHidden(file, lineIndex).unicodeScalars)
        guard starred.count == original.count, starred != original else { return (starred, { $0 }) }
        var line: [Unicode.Scalar] = []
        line.reserveCapacity(original.count)
        // Where each scalar of the line stands in `line`, and one more for the line's end.
        var places: [Int] = []
        places.reserveCapacity(original.count + 1)
        var index = 0
        while index < original.count {
            guard starred[index] == "*", original[index] != "*" else {
                places.append(line.count)
                line.append(starred[index])
                index += 1
                continue
            }
            let start = line.count
            while index < original.count, starred[index] == "*", original[index] != "*" {
                places.append(start)
                index += 1
            }
            line += ["*", "*", "*"]
        }
        places.append(line.count)
        return (line, { places[min(max(0, $0), places.count - 1)] })
    }

    /// The line with the credentials typed in it starred out, column for column, as the history
    /// keeps them: read in its whole statement when `\` continues it over several lines.
    private static func lineWithCredentialsHidden(_ file: SourceFile, _ lineIndex: Int) -> String {
        let line = file.text(file.lineRange(lineIndex))
        func continues(_ index: Int) -> Bool { file.text(file.lineRange(index)).hasSuffix("\\") }
        var first = lineIndex, last = lineIndex
        // At most 50 lines each way: enough for any statement written by hand.
        while first > 0, lineIndex - first < 50, continues(first - 1) { first -= 1 }
        while last + 1 < file.lineStarts.count, last - lineIndex < 50, continues(last) { last += 1 }
        guard first != last else { return LiteralCredentials.hiddenKeepingColumns(in: line) }
        let statement = file.text(file.lineRange(first).lowerBound..<file.lineRange(last).upperBound)
        // Split as bytes: `\r\n` is one Character, so a split of the characters at `\n` misses it.
        let lines = LiteralCredentials.hiddenKeepingColumns(in: statement).utf8
            .split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard lines.count == last - first + 1 else { return LiteralCredentials.hiddenKeepingColumns(in: line) }
        let shown = lines[lineIndex - first]
        return String(Substring(shown.last == UInt8(ascii: "\r") ? shown.dropLast() : shown))
    }

    /// The columns a scalar of the shown line takes: a tab and a control byte are shown as one.
    private static func columns(_ scalar: Unicode.Scalar) -> Int {
        scalar.isASCIIControl ? 1 : TerminalColumns.width(of: scalar)
    }

    private static func printable(_ scalar: Unicode.Scalar) -> String {
        if scalar == "\t" { return " " }
        if scalar.isASCIIControl { return "?" }
        return String(scalar)
    }
}
