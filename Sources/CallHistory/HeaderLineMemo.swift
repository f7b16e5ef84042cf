import Targets

/// The masked `Name: value` lines of the headers last recorded, by position, for one kind of
/// header list (a request's or a response's). A call like the one before it (the same target
/// again) sends and gets mostly the same headers: a header found here at its position is not
/// checked and masked again, which cost about 600 instructions a header (callgrind).
///
/// Headers and secrets are compared byte for byte, as masking matches them. A line holds only while
/// the secrets it was masked with are the same: a memo told other secrets forgets every line.
final class HeaderLineMemo {
    struct Line {
        var header: Header
        /// `Name: value\n`, masked, as UTF-8.
        var bytes: [UInt8]
        /// `header Name` when the value was masked.
        var withheld: String?
    }

    private var lines: [Line] = []
    private var secrets: [String] = []

    /// Forgets every line unless `secrets` are those the lines were masked with.
    func use(secrets: [String]) {
        guard !secrets.hasSameBytes(as: self.secrets) else { return }
        self.secrets = secrets
        lines.removeAll()
    }

    /// Appends the line kept for `header` at `position` to `bytes` (and the name it withheld to
    /// `withheld`), if the header there was the same; false when it was not. Read where it is kept:
    /// handing out a copy of the line retained and released each of its parts.
    func appendLine(at position: Int, for header: Header, to bytes: inout [UInt8], withheld: inout [String]) -> Bool {
        guard position < lines.count else { return false }
        return lines.withUnsafeBufferPointer { lines in
            guard lines[position].header.hasSameBytes(as: header) else { return false }
            bytes.append(contentsOf: lines[position].bytes)
            if let name = lines[position].withheld { withheld.append(name) }
            return true
        }
    }

    /// Keeps `line` for `position`, the lines before it being kept already.
    func keep(_ line: Line, at position: Int) {
        if position < lines.count {
            lines[position] = line
        } else if position == lines.count {
            lines.append(line)
        }
    }
}
