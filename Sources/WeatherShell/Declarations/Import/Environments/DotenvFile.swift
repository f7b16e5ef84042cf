/// A `.env` file's variables, in the syntax dotenv libraries share: `NAME=value` lines, `export`
/// before a name, `#` comments (after a blank in an unquoted value), `'raw'` and `"quoted"` values
/// (`\n`, `\t`, `\"`, `\\` in double quotes) and `${NAME}`/`$NAME` expanded from the names before it
/// (not in single quotes). A line that is none of these is left out, as dotenv does.
enum DotenvFile {
    static func values(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            var line = rawLine.trimmingBlanks
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = line.dropFirst(7).trimmingBlanks }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let name = line[..<equals].trimmingBlanks
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" }) else { continue }
            let raw = line[line.index(after: equals)...].trimmingBlanks
            values[name] = value(raw, known: values)
        }
        return values
    }

    private static func value(_ raw: String, known: [String: String]) -> String {
        if raw.hasPrefix("'"), let end = raw.dropFirst().firstIndex(of: "'") {
            return String(raw[raw.index(after: raw.startIndex)..<end])
        }
        if raw.hasPrefix("\""), let end = closingQuote(raw) {
            var text = ""
            var escaped = false
            for char in raw[raw.index(after: raw.startIndex)..<end] {
                if escaped {
                    let unescaped: String = switch char { case "n": "\n"; case "t": "\t"; case "r": "\r"; default: String(char) }
                    text += unescaped
                    escaped = false
                } else if char == "\\" {
                    escaped = true
                } else {
                    text.append(char)
                }
            }
            return expanded(text, known: known)
        }
        var unquoted = raw
        if let comment = unquoted.range(of: " #") { unquoted = String(unquoted[..<comment.lowerBound]).trimmingBlanks }
        return expanded(unquoted, known: known)
    }

    private static func closingQuote(_ raw: String) -> String.Index? {
        var escaped = false
        for index in raw.indices.dropFirst() {
            let char = raw[index]
            if escaped { escaped = false } else if char == "\\" { escaped = true } else if char == "\"" { return index }
        }
        return nil
    }

    /// `${NAME}` and `$NAME` replaced by the value of NAME set before, or by nothing.
    private static func expanded(_ text: String, known: [String: String]) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let char = text[index]
            guard char == "$" else {
                result.append(char)
                index = text.index(after: index)
                continue
            }
            var nameStart = text.index(after: index)
            let braced = nameStart < text.endIndex && text[nameStart] == "{"
            if braced { nameStart = text.index(after: nameStart) }
            var nameEnd = nameStart
            while nameEnd < text.endIndex, text[nameEnd].isLetter || text[nameEnd].isNumber || text[nameEnd] == "_" { nameEnd = text.index(after: nameEnd) }
            if nameEnd == nameStart || (braced && (nameEnd == text.endIndex || text[nameEnd] != "}")) {
                result.append(char)
                index = text.index(after: index)
                continue
            }
            result += known[String(text[nameStart..<nameEnd])] ?? ""
            index = braced ? text.index(after: nameEnd) : nameEnd
        }
        return result
    }
}
