import Targets

/// A fast reader for the YAML most OpenAPI documents are written in: block mappings and
/// sequences, single-line plain and quoted scalars, single-line flow collections, `|` and `>`
/// block scalars, comments. Anything else (anchors, aliases, tags, multi-line plain or quoted
/// scalars, complex keys, several documents) makes it give up and return nil, and the document
/// is read by Yams instead. Yams builds a node tree first and took about 225 ms of CPU for a
/// 2 MB document; reading UTF-8 bytes straight into a JSON tree is several times faster
/// (bench/run, the `use openapi` row). The tests check that both readers agree.
struct BlockYAML {
    struct GiveUp: Error {
        /// The document nests deeper than ``DocumentText/maxDepth``: refused, not left to Yams.
        var tooDeep = false
    }

    /// A line with content: its indentation and where its content starts and ends in ``bytes``.
    private struct Line {
        var indent: Int
        var start: Int
        var end: Int
        /// Which raw line it is, for block scalars.
        var raw: Int
    }

    private let bytes: [UInt8]
    /// Every line's start and end (without its line break), blank ones too.
    private var rawLines: [(start: Int, end: Int)] = []
    private var lines: [Line] = []
    private var index = 0
    private var depth = 0

    private static let space = UInt8(ascii: " "), hash = UInt8(ascii: "#"), colon = UInt8(ascii: ":"), dash = UInt8(ascii: "-")

    /// The tree, or nil when the text uses YAML this reader leaves to Yams; throws when it nests too deep.
    static func parse(_ bytes: [UInt8]) throws(GiveUp) -> JSONValue? {
        var reader = BlockYAML(bytes: bytes)
        do {
            return try reader.document()
        } catch {
            if error.tooDeep { throw error }
            return nil
        }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func document() throws(GiveUp) -> JSONValue {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        var position = start
        while position <= bytes.count {
            if position == bytes.count || bytes[position] == 0x0A {
                var end = position
                if end > start, bytes[end - 1] == 0x0D { end -= 1 }
                rawLines.append((start, end))
                start = position + 1
            }
            position += 1
        }
        for (number, raw) in rawLines.enumerated() {
            var content = raw.start
            while content < raw.end, bytes[content] == Self.space { content += 1 }
            if content == raw.end || bytes[content] == Self.hash { continue }
            let first = bytes[content]
            if first == 0x09 || first == 0x0D { throw GiveUp() }
            let indent = content - raw.start
            if indent == 0, first == UInt8(ascii: "%") || starts(content, raw.end, "...") { throw GiveUp() }
            if indent == 0, starts(content, raw.end, "---") {
                guard lines.isEmpty, blankOrComment(content + 3, raw.end) else { throw GiveUp() }
                continue
            }
            lines.append(Line(indent: indent, start: content, end: raw.end, raw: number))
        }
        guard !lines.isEmpty else { throw GiveUp() }
        let value = try block(indent: lines[0].indent)
        guard index == lines.count else { throw GiveUp() }
        return value
    }

    private func starts(_ from: Int, _ end: Int, _ text: String) -> Bool {
        let pattern = Array(text.utf8)
        return end - from >= pattern.count && bytes[from..<from + pattern.count].elementsEqual(pattern)
    }

    /// Nothing but blanks, then perhaps a comment.
    private func blankOrComment(_ from: Int, _ end: Int) -> Bool {
        var position = from
        while position < end, bytes[position] == Self.space { position += 1 }
        return position == end || (bytes[position] == Self.hash && (position == from ? from == end || position > 0 && bytes[position - 1] == Self.space : true))
    }

    private func isSequenceEntry(_ start: Int, _ end: Int) -> Bool {
        bytes[start] == Self.dash && (start + 1 == end || bytes[start + 1] == Self.space)
    }

    private mutating func block(indent: Int) throws(GiveUp) -> JSONValue {
        guard index < lines.count, lines[index].indent == indent else { throw GiveUp() }
        depth += 1
        defer { depth -= 1 }
        guard depth < DocumentText.maxDepth else { throw GiveUp(tooDeep: true) }
        return isSequenceEntry(lines[index].start, lines[index].end) ? try sequence(indent: indent) : try mapping(indent: indent)
    }

    private mutating func sequence(indent: Int) throws(GiveUp) -> JSONValue {
        var elements: [JSONValue] = []
        while index < lines.count, lines[index].indent == indent, isSequenceEntry(lines[index].start, lines[index].end) {
            let line = lines[index]
            var rest = line.start + 1
            while rest < line.end, bytes[rest] == Self.space { rest += 1 }
            if blankOrComment(rest, line.end) {
                index += 1
                guard index < lines.count, lines[index].indent > indent else { elements.append(.null); continue }
                elements.append(try block(indent: lines[index].indent))
                continue
            }
            // `- key: value` or `- - x`: the rest is a block at the column where it starts.
            let isMapping = try mappingKey(rest, line.end) != nil
            if isSequenceEntry(rest, line.end) || isMapping {
                lines[index] = Line(indent: indent + (rest - line.start), start: rest, end: line.end, raw: line.raw)
                elements.append(try block(indent: lines[index].indent))
                continue
            }
            elements.append(try inlineValue(rest, line.end, keyIndent: indent))
        }
        return .array(elements)
    }

    private mutating func mapping(indent: Int) throws(GiveUp) -> JSONValue {
        var members: [JSONMember] = []
        while index < lines.count, lines[index].indent == indent, !isSequenceEntry(lines[index].start, lines[index].end) {
            let line = lines[index]
            guard let (key, after) = try mappingKey(line.start, line.end) else { throw GiveUp() }
            var value = after
            while value < line.end, bytes[value] == Self.space { value += 1 }
            if blankOrComment(value, line.end) {
                index += 1
                if index < lines.count, lines[index].indent > indent {
                    members.append(JSONMember(key: key, value: try block(indent: lines[index].indent)))
                } else if index < lines.count, lines[index].indent == indent, isSequenceEntry(lines[index].start, lines[index].end) {
                    members.append(JSONMember(key: key, value: try sequence(indent: indent)))
                } else {
                    members.append(JSONMember(key: key, value: .null))
                }
                continue
            }
            members.append(JSONMember(key: key, value: try inlineValue(value, line.end, keyIndent: indent)))
        }
        return .object(members)
    }

    /// A value on the line of its key or dash: a block scalar, a flow collection or a scalar.
    /// The next line must not continue it (a multi-line scalar is left to Yams).
    private mutating func inlineValue(_ start: Int, _ end: Int, keyIndent: Int) throws(GiveUp) -> JSONValue {
        if bytes[start] == UInt8(ascii: "|") || bytes[start] == UInt8(ascii: ">") { return try blockScalar(start, end, keyIndent: keyIndent) }
        var cursor = FlowCursor(bytes: bytes, position: start, end: end)
        let value = try cursor.value(inFlow: false)
        guard blankOrComment(cursor.position, end) else { throw GiveUp() }
        index += 1
        if index < lines.count, lines[index].indent > keyIndent { throw GiveUp() }
        return value
    }

    /// `|` or `>`, with `-` or `+`: the more-indented lines that follow, taken raw (a `#` there is text).
    private mutating func blockScalar(_ start: Int, _ end: Int, keyIndent: Int) throws(GiveUp) -> JSONValue {
        let folded = bytes[start] == UInt8(ascii: ">")
        var position = start + 1
        var chomp = Self.space
        if position < end, bytes[position] == Self.dash || bytes[position] == UInt8(ascii: "+") {
            chomp = bytes[position]
            position += 1
        }
        guard blankOrComment(position, end), position == end || bytes[position] == Self.space else { throw GiveUp() }
        let firstRaw = lines[index].raw + 1
        index += 1
        while index < lines.count, lines[index].indent > keyIndent { index += 1 }
        var lastRaw = index < lines.count ? lines[index].raw : rawLines.count
        // Trailing blank lines belong to the chomping, not the content.
        var trailingBlank = 0
        while lastRaw > firstRaw, rawLines[lastRaw - 1].start == rawLines[lastRaw - 1].end
                || bytes[rawLines[lastRaw - 1].start..<rawLines[lastRaw - 1].end].allSatisfy({ $0 == Self.space }) {
            lastRaw -= 1
            trailingBlank += 1
        }
        guard lastRaw > firstRaw else { return .string("") }
        let first = rawLines[firstRaw]
        var indent = 0
        while first.start + indent < first.end, bytes[first.start + indent] == Self.space { indent += 1 }
        guard indent > keyIndent else { throw GiveUp() }
        var text: [UInt8] = []
        var previousBlank = true
        for number in firstRaw..<lastRaw {
            let raw = rawLines[number]
            var spaces = 0
            while raw.start + spaces < raw.end, bytes[raw.start + spaces] == Self.space { spaces += 1 }
            let blank = raw.start + spaces == raw.end
            guard blank || spaces >= indent else { throw GiveUp() }
            let content = blank ? [] : bytes[(raw.start + indent)..<raw.end]
            if folded {
                // Lines fold into one with a blank between; a blank line is a line break; more-indented lines are left to Yams.
                if !blank, spaces > indent { throw GiveUp() }
                if blank {
                    text.append(0x0A)
                    previousBlank = true
                } else {
                    if !previousBlank { text.append(Self.space) }
                    text += content
                    previousBlank = false
                }
            } else {
                if number > firstRaw { text.append(0x0A) }
                text += content
            }
        }
        switch chomp {
        case Self.dash: break
        case UInt8(ascii: "+"): text += [UInt8](repeating: 0x0A, count: trailingBlank + 1)
        default: text.append(0x0A)
        }
        return .string(String(decoding: text, as: UTF8.self))
    }

    /// `key: rest` (or `key:` at the end): the key and where what follows the colon starts; nil
    /// when the line is not a mapping entry.
    private func mappingKey(_ start: Int, _ end: Int) throws(GiveUp) -> (String, Int)? {
        let first = bytes[start]
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            var cursor = FlowCursor(bytes: bytes, position: start, end: end)
            guard case .string(let key) = try cursor.quoted() else { throw GiveUp() }
            let after = cursor.position
            guard after < end, bytes[after] == Self.colon else { return nil }
            guard after + 1 == end || bytes[after + 1] == Self.space else { return nil }
            return (key, after + 1)
        }
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") { return nil }
        if "&*!|>%@`?".utf8.contains(first) { throw GiveUp() }
        var position = start
        while position < end {
            let byte = bytes[position]
            if byte == Self.colon, position + 1 == end || bytes[position + 1] == Self.space {
                guard position > start, bytes[position - 1] != Self.space else { throw GiveUp() }
                return (String(decoding: bytes[start..<position], as: UTF8.self), position + 1)
            }
            if byte == Self.hash, position > start, bytes[position - 1] == Self.space { return nil }
            position += 1
        }
        return nil
    }
}

/// Reads one line's scalar or flow collection (`[a, b]`, `{a: 1}`) for ``BlockYAML``.
struct FlowCursor {
    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int
    private var depth = 0

    init(bytes: [UInt8], position: Int, end: Int) {
        self.bytes = bytes
        self.position = position
        self.end = end
    }

    private var current: UInt8? { position < end ? bytes[position] : nil }

    private mutating func skipBlanks() {
        while position < end, bytes[position] == UInt8(ascii: " ") { position += 1 }
    }

    mutating func value(inFlow: Bool) throws(BlockYAML.GiveUp) -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        guard depth < DocumentText.maxDepth else { throw BlockYAML.GiveUp(tooDeep: true) }
        skipBlanks()
        guard let first = current else {
            if inFlow { throw BlockYAML.GiveUp() }
            return .null
        }
        switch first {
        case UInt8(ascii: "["): return try flowSequence()
        case UInt8(ascii: "{"): return try flowMapping()
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return try quoted()
        case UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"), UInt8(ascii: ">"),
             UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"): throw BlockYAML.GiveUp()
        default: return try plain(inFlow: inFlow)
        }
    }

    private static func isFlowIndicator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")
    }

    private mutating func plain(inFlow: Bool) throws(BlockYAML.GiveUp) -> JSONValue {
        let start = position
        var stop = position
        while stop < end {
            let byte = bytes[stop]
            if byte == UInt8(ascii: "#"), stop > start, bytes[stop - 1] == UInt8(ascii: " ") { break }
            if byte == UInt8(ascii: ":") {
                let next = stop + 1
                if next == end || bytes[next] == UInt8(ascii: " ") || (inFlow && Self.isFlowIndicator(bytes[next])) {
                    if inFlow { break }
                    throw BlockYAML.GiveUp()
                }
            }
            if inFlow, Self.isFlowIndicator(byte) { break }
            stop += 1
        }
        var last = stop
        while last > start, bytes[last - 1] == UInt8(ascii: " ") { last -= 1 }
        position = stop
        if last == start, inFlow { throw BlockYAML.GiveUp() }
        return DocumentText.typedPlain(String(decoding: bytes[start..<last], as: UTF8.self))
    }

    mutating func quoted() throws(BlockYAML.GiveUp) -> JSONValue {
        guard let quote = current else { throw BlockYAML.GiveUp() }
        position += 1
        var text: [UInt8] = []
        while let byte = current {
            position += 1
            if quote == UInt8(ascii: "'") {
                if byte == quote {
                    if current == quote {
                        text.append(quote)
                        position += 1
                        continue
                    }
                    return .string(String(decoding: text, as: UTF8.self))
                }
                text.append(byte)
                continue
            }
            if byte == quote { return .string(String(decoding: text, as: UTF8.self)) }
            guard byte == UInt8(ascii: "\\") else {
                text.append(byte)
                continue
            }
            guard let escape = current else { throw BlockYAML.GiveUp() }
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: " "): text.append(escape)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "0"): text.append(0x00)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "e"): text.append(0x1B)
            case UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "U"):
                let count = escape == UInt8(ascii: "x") ? 2 : escape == UInt8(ascii: "u") ? 4 : 8
                guard position + count <= end, let code = UInt32(String(decoding: bytes[position..<position + count], as: UTF8.self), radix: 16),
                      let scalar = Unicode.Scalar(code) else { throw BlockYAML.GiveUp() }
                text += Array(String(Character(scalar)).utf8)
                position += count
            default: throw BlockYAML.GiveUp()
            }
        }
        // Not closed on this line: a multi-line string, left to Yams.
        throw BlockYAML.GiveUp()
    }

    private mutating func flowSequence() throws(BlockYAML.GiveUp) -> JSONValue {
        position += 1
        var elements: [JSONValue] = []
        skipBlanks()
        if current == UInt8(ascii: "]") { position += 1; return .array([]) }
        while true {
            let element = try value(inFlow: true)
            skipBlanks()
            // `[a: 1]` is a mapping inside a sequence: left to Yams.
            if current == UInt8(ascii: ":") { throw BlockYAML.GiveUp() }
            elements.append(element)
            guard let next = current else { throw BlockYAML.GiveUp() }
            position += 1
            if next == UInt8(ascii: "]") { return .array(elements) }
            guard next == UInt8(ascii: ",") else { throw BlockYAML.GiveUp() }
            skipBlanks()
            if current == UInt8(ascii: "]") { position += 1; return .array(elements) }
        }
    }

    private mutating func flowMapping() throws(BlockYAML.GiveUp) -> JSONValue {
        position += 1
        var members: [JSONMember] = []
        skipBlanks()
        if current == UInt8(ascii: "}") { position += 1; return .object([]) }
        while true {
            skipBlanks()
            let key: String
            switch try value(inFlow: true) {
            case .string(let text): key = text
            case .number(let literal): key = literal
            case .bool(let flag): key = flag ? "true" : "false"
            default: throw BlockYAML.GiveUp()
            }
            skipBlanks()
            guard current == UInt8(ascii: ":") else { throw BlockYAML.GiveUp() }
            position += 1
            skipBlanks()
            let member: JSONValue = if current == UInt8(ascii: ",") || current == UInt8(ascii: "}") { .null } else { try value(inFlow: true) }
            members.append(JSONMember(key: key, value: member))
            skipBlanks()
            guard let next = current else { throw BlockYAML.GiveUp() }
            position += 1
            if next == UInt8(ascii: "}") { return .object(members) }
            guard next == UInt8(ascii: ",") else { throw BlockYAML.GiveUp() }
            skipBlanks()
            if current == UInt8(ascii: "}") { position += 1; return .object(members) }
        }
    }
}
