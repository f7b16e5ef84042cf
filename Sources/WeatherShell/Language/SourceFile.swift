/// The text of one script, `-c` string or prompt entry, with the name used in diagnostics.
public final class SourceFile: Sendable {
    /// The name shown in diagnostics: a path, `<stdin>` or `<command line>`.
    public let name: String
    /// The directory that relative paths in this file resolve against.
    public let directory: String
    /// The UTF-8 bytes of the text.
    let bytes: [UInt8]
    /// Byte offset of the first byte of each line.
    let lineStarts: [Int]
    /// The line number of the first line: piped input is read in pieces but keeps its numbering.
    let firstLine: Int
    /// For text wsh wrote from another file (a Postman request's target), where it came from in the
    /// user's terms (`Shop.json, request 'Users / Get'`): diagnostics name it instead of a line of
    /// text the user never wrote.
    public let place: String?

    /// Where the bytes stop being text wsh reads: an offset of a byte that is not UTF-8, or a NUL.
    let firstUnreadable: Int?

    public convenience init(name: String, directory: String, text: String, firstLine: Int = 1, place: String? = nil) {
        self.init(name: name, directory: directory, contents: Array(text.utf8), firstLine: firstLine, place: place)
    }

    /// A file's bytes as they were read: any that are not UTF-8 are kept, and ``firstUnreadable`` says where.
    public init(name: String, directory: String, contents written: [UInt8], firstLine: Int = 1, place: String? = nil) {
        self.name = name
        self.directory = directory
        self.firstLine = firstLine
        self.place = place
        // A UTF-8 byte order mark, as some editors start a file with, is not text (as in Python and Hurl).
        let bytes = firstLine == 1 && written.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(written.dropFirst(3)) : written
        self.bytes = bytes
        firstUnreadable = Self.firstUnreadable(in: bytes)
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(offset + 1)
        }
        self.lineStarts = starts
    }

    /// The text as wsh reads it; any bytes that are not UTF-8 read as U+FFFD.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The file's first byte that is not UTF-8 or is NUL, as a diagnostic at its line and column.
    public var unreadableText: Diagnostic? {
        guard let offset = firstUnreadable else { return nil }
        let byte = bytes[offset]
        let message = byte == 0 ? "a NUL byte: wsh reads text files, and text holds none"
            : "byte 0x\(String(byte, radix: 16, uppercase: true)) is not UTF-8: wsh reads files as UTF-8 text"
        return Diagnostic(.parse, message, file: self, span: SourceSpan(start: offset, end: offset + 1),
                          notes: byte == 0 ? [] : ["save the file as UTF-8 (iconv -f LATIN1 -t UTF-8, or the editor's encoding setting)"])
    }

    private static func firstUnreadable(in bytes: [UInt8]) -> Int? {
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\0" { return offset }
                offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// The 1-based line and column (in characters) of a byte offset.
    func location(of offset: Int) -> (line: Int, column: Int) {
        let line = lineIndex(of: offset)
        let start = lineStarts[line]
        let clamped = min(max(offset, start), bytes.count)
        return (line + firstLine, characterCount(from: start, to: clamped) + 1)
    }

    func lineIndex(of offset: Int) -> Int {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The byte range of the line with this 0-based index, without its newline.
    func lineRange(_ index: Int) -> Range<Int> {
        let start = lineStarts[index]
        var end = index + 1 < lineStarts.count ? lineStarts[index + 1] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return start..<max(start, end)
    }

    /// Counts characters as UTF-8 lead bytes, which is what a terminal column is for text without wide glyphs.
    func characterCount(from start: Int, to end: Int) -> Int {
        var count = 0
        var index = max(0, start)
        let end = min(end, bytes.count)
        while index < end {
            if bytes[index] & 0xC0 != 0x80 { count += 1 }
            index += 1
        }
        return count
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range.clamped(to: 0..<bytes.count)], as: UTF8.self)
    }
}

/// A byte range in one source file.
public struct SourceSpan: Sendable, Equatable {
    public let start: Int
    public let end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = max(start, end)
    }

    /// The smallest span that covers both.
    public func union(_ other: SourceSpan) -> SourceSpan {
        SourceSpan(start: min(start, other.start), end: max(end, other.end))
    }
}
