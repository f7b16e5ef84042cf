/// A recursive-descent JSON parser over bytes that keeps member order and number literals.
struct JSONParser {
    /// Deeper nesting than this is refused rather than risking the stack on hostile input.
    static let maximumDepth = 512

    /// The byte each one-letter escape (`\n`, `\"`, ...) stands for; ``JSONEscapes`` reads them too.
    static let simpleEscapes: [UInt8: UInt8] = [
        UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
        UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A,
        UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
    ]

    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0
    /// Whether an object keeps every member of a repeated name, as sent (for redaction, which must
    /// see each value sent), rather than the last one's value in the first one's place.
    private let keepsDuplicates: Bool

    init(_ bytes: [UInt8], keepingDuplicates: Bool = false) {
        self.bytes = bytes
        self.keepsDuplicates = keepingDuplicates
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        let value = try parseValue()
        skipWhitespace()
        if position < bytes.count {
            throw error("unexpected \(describeCurrent()) after the JSON value")
        }
        return value
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard let byte = current else { throw error("unexpected end of input, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1
        var members: [JSONMember] = []
        // Where each name is, once the object is past a few members: canonically equivalent names
        // (which `String` hashes as one) share an entry and are told apart by their scalars.
        var places: [String: [Int]] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()), expected a string as object key")
            }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()), expected ':' after an object key")
            }
            position += 1
            let value = try parseValue()
            // A repeated name is read once, as jq, Python and JavaScript read it: the last value, in
            // the first one's place, so that `.dup`, `keys`, `length` and `==` see the same object.
            if !keepsDuplicates, let earlier = Self.place(of: key, in: members, places: &places) {
                members[earlier].value = value
            } else {
                if !places.isEmpty { places[key, default: []].append(members.count) }
                members.append(JSONMember(key: key, value: value))
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; depth -= 1; return .object(members)
            default: throw error("unexpected \(describeCurrent()), expected ',' or '}' in an object")
            }
        }
    }

    /// Where a member named `key` (the same Unicode scalars) already is in `members`: by a scan
    /// while there are few, else by `places`, made on first need.
    private static func place(of key: String, in members: [JSONMember], places: inout [String: [Int]]) -> Int? {
        func same(_ index: Int) -> Bool { members[index].key.unicodeScalars.elementsEqual(key.unicodeScalars) }
        guard members.count > 16 else { return members.indices.first(where: same) }
        if places.isEmpty {
            for (index, member) in members.enumerated() { places[member.key, default: []].append(index) }
        }
        return places[key]?.first(where: same)
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; depth -= 1; return .array(elements)
            default: throw error("unexpected \(describeCurrent()), expected ',' or ']' in an array")
            }
        }
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        if depth > Self.maximumDepth {
            var tooDeep = error("nesting deeper than \(Self.maximumDepth) levels")
            tooDeep.isTooDeep = true
            throw tooDeep
        }
    }

    /// A number per RFC 8259: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func parseNumber() throws(JSONParseError) -> String {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
        } else {
            try skipDigits(expecting: "a digit")
        }
        if current == UInt8(ascii: ".") {
            position += 1
            try skipDigits(expecting: "a digit after '.'")
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            try skipDigits(expecting: "a digit in the exponent")
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func skipDigits(expecting what: String) throws(JSONParseError) {
        let start = position
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        if position == start { throw error("unexpected \(describeCurrent()), expected \(what)") }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        position += 1
        var scalars: [UInt8] = []
        while true {
            guard let byte = current else { throw error("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                // JSON is UTF-8 (RFC 8259, 8.1): bytes that are not are an error, not U+FFFD to compare against.
                guard let text = String(validating: scalars, as: UTF8.self) else {
                    throw error("the string is not UTF-8 (JSON text must be)")
                }
                position += 1
                return text
            case UInt8(ascii: "\\"):
                position += 1
                try parseEscape(into: &scalars)
            case 0..<0x20:
                throw error("control character \(describeCurrent()) in a string must be escaped")
            default:
                scalars.append(byte)
                position += 1
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONParseError) {
        guard let byte = current else { throw error("unterminated string") }
        position += 1
        if let replacement = Self.simpleEscapes[byte] {
            utf8.append(replacement)
            return
        }
        guard byte == UInt8(ascii: "u") else {
            position -= 1
            throw error("invalid escape \\\(describeCurrent())")
        }
        var code = try parseHex4()
        if (0xD800...0xDBFF).contains(code), bytes[position...].starts(with: Array("\\u".utf8)) {
            let save = position
            position += 2
            let low = try parseHex4()
            if (0xDC00...0xDFFF).contains(low) {
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else {
                position = save
            }
        }
        // A lone surrogate cannot be UTF-8; it becomes U+FFFD, as most decoders do.
        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
        utf8.append(contentsOf: Array(String(scalar).utf8))
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = hexDigitValue(byte) else {
                throw error("expected 4 hex digits after \\u")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private mutating func expectWord(_ word: String) throws(JSONParseError) {
        let expected = Array(word.utf8)
        guard bytes[position...].starts(with: expected) else {
            throw error("unexpected \(describeCurrent()), expected a value")
        }
        position += expected.count
    }

    private var current: UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            position += 1
        }
    }

    private func describeCurrent() -> String {
        guard let byte = current else { return "end of input" }
        if (0x21...0x7E).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private func error(_ message: String) -> JSONParseError {
        let before = bytes[..<min(position, bytes.count)]
        let line = before.count(where: { $0 == 0x0A }) + 1
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        return JSONParseError(message: message, offset: position, line: line, column: position - lineStart + 1)
    }
}
