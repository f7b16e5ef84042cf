import Targets

/// Reads one line's scalar or flow collection (`[a, b]`, `{a: 1}`) for ``BlockYAML``.
struct FlowCursor {
    private(set) var rest: Substring

    init(text: Substring) {
        rest = text
    }

    /// After the value: nothing, or blanks and a comment.
    func atEndOrComment() -> Bool {
        let trimmed = rest.drop { $0 == " " }
        return trimmed.isEmpty || trimmed.hasPrefix("#")
    }

    mutating func value(inFlow: Bool) throws(BlockYAML.GiveUp) -> JSONValue {
        skipBlanks()
        guard let first = rest.first else { if inFlow { throw BlockYAML.GiveUp() }; return .null }
        switch first {
        case "[": return try flowSequence()
        case "{": return try flowMapping()
        case "\"", "'": return try quoted()
        case "&", "*", "!", "|", ">", "%", "@", "`": throw BlockYAML.GiveUp()
        default: return try plain(inFlow: inFlow)
        }
    }

    private mutating func skipBlanks() {
        rest = rest.drop { $0 == " " }
    }

    private mutating func plain(inFlow: Bool) throws(BlockYAML.GiveUp) -> JSONValue {
        var end = rest.startIndex
        while end < rest.endIndex {
            let char = rest[end]
            if char == "#", end > rest.startIndex, rest[rest.index(before: end)] == " " { break }
            if char == ":" {
                let next = rest.index(after: end)
                if next == rest.endIndex || rest[next] == " " || (inFlow && ",]}".contains(rest[next])) {
                    if inFlow { break }
                    throw BlockYAML.GiveUp()
                }
            }
            if inFlow, ",[]{}".contains(char) { break }
            end = rest.index(after: end)
        }
        var text = rest[..<end]
        while text.last == " " { text = text.dropLast() }
        rest = rest[end...]
        if text.isEmpty, inFlow { throw BlockYAML.GiveUp() }
        return DocumentText.typedPlain(String(text))
    }

    mutating func quoted() throws(BlockYAML.GiveUp) -> JSONValue {
        guard let quote = rest.first else { throw BlockYAML.GiveUp() }
        rest = rest.dropFirst()
        var text = ""
        while let char = rest.first {
            rest = rest.dropFirst()
            if quote == "'" {
                if char == "'" {
                    if rest.first == "'" {
                        text.append("'")
                        rest = rest.dropFirst()
                        continue
                    }
                    return .string(text)
                }
                text.append(char)
                continue
            }
            if char == "\"" { return .string(text) }
            guard char == "\\" else {
                text.append(char)
                continue
            }
            guard let escape = rest.first else { throw BlockYAML.GiveUp() }
            rest = rest.dropFirst()
            switch escape {
            case "\"": text.append("\"")
            case "\\": text.append("\\")
            case "/": text.append("/")
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "0": text.append("\u{0}")
            case "b": text.append("\u{8}")
            case "e": text.append("\u{1B}")
            case " ": text.append(" ")
            case "u", "x", "U":
                let count = escape == "x" ? 2 : escape == "u" ? 4 : 8
                let hex = rest.prefix(count)
                guard hex.count == count, let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else { throw BlockYAML.GiveUp() }
                text.unicodeScalars.append(scalar)
                rest = rest.dropFirst(count)
            default: throw BlockYAML.GiveUp()
            }
        }
        // Not closed on this line: a multi-line string, left to Yams.
        throw BlockYAML.GiveUp()
    }

    private mutating func flowSequence() throws(BlockYAML.GiveUp) -> JSONValue {
        rest = rest.dropFirst()
        var elements: [JSONValue] = []
        skipBlanks()
        if rest.first == "]" { rest = rest.dropFirst(); return .array([]) }
        while true {
            let element = try value(inFlow: true)
            skipBlanks()
            // `[a: 1]` is a mapping inside a sequence: left to Yams.
            if rest.first == ":" { throw BlockYAML.GiveUp() }
            elements.append(element)
            guard let next = rest.first else { throw BlockYAML.GiveUp() }
            rest = rest.dropFirst()
            if next == "]" { return .array(elements) }
            guard next == "," else { throw BlockYAML.GiveUp() }
            skipBlanks()
            if rest.first == "]" { rest = rest.dropFirst(); return .array(elements) }
        }
    }

    private mutating func flowMapping() throws(BlockYAML.GiveUp) -> JSONValue {
        rest = rest.dropFirst()
        var members: [JSONMember] = []
        skipBlanks()
        if rest.first == "}" { rest = rest.dropFirst(); return .object([]) }
        while true {
            skipBlanks()
            let key: String
            switch try value(inFlow: true) {
            case .string(let text): key = text
            case .number(let literal): key = literal
            case .bool(let flag): key = flag ? "true" : "false"
            case .null: throw BlockYAML.GiveUp()
            default: throw BlockYAML.GiveUp()
            }
            skipBlanks()
            guard rest.first == ":" else { throw BlockYAML.GiveUp() }
            rest = rest.dropFirst()
            skipBlanks()
            let member: JSONValue = if rest.first == "," || rest.first == "}" { .null } else { try value(inFlow: true) }
            members.append(JSONMember(key: key, value: member))
            skipBlanks()
            guard let next = rest.first else { throw BlockYAML.GiveUp() }
            rest = rest.dropFirst()
            if next == "}" { return .object(members) }
            guard next == "," else { throw BlockYAML.GiveUp() }
            skipBlanks()
            if rest.first == "}" { rest = rest.dropFirst(); return .object(members) }
        }
    }
}
