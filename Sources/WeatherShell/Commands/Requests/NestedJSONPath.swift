/// A body field's name as HTTPie 3 reads it for nested JSON: `address[city]`, `tags[]`,
/// `tags[1]`, `a[b][c]`, `[]` (a top-level array), `\[` for a bracket in a name.
///
/// The grammar is HTTPie's (httpie/cli/nested_json/parse.py): a root (a name, `[N]` or `[]`,
/// or nothing), then `[name]`, `[N]` or `[]` steps. A bracket part of digits only is an index;
/// written with a backslash (`[\1]`) it is a name.
struct NestedJSONPath: Equatable {
    /// One step into the body.
    enum Step: Equatable {
        /// A member of an object.
        case key(String)
        /// An element of an array, padded with nulls up to it.
        case index(Int)
        /// A new element at the end of an array.
        case append
    }

    /// A step and the characters of the name it was read from (for a caret).
    struct Located: Equatable {
        var step: Step
        var range: Range<Int>
    }

    var steps: [Located]

    /// Whether `name` needs reading as a path: it holds a bracket or a backslash. Any other name
    /// is one key, as it has always been.
    static func isPath(_ name: String) -> Bool {
        name.contains { $0 == "[" || $0 == "]" || $0 == "\\" }
    }

    /// Why a name is not a path, and where (characters of the name).
    struct SyntaxError: Error, Equatable {
        var message: String
        var range: Range<Int>
    }

    private enum Token: Equatable {
        case open, close
        case text(String), number(Int)
    }

    /// Reads `name`; a syntax error says what was expected where, as HTTPie's does.
    init(_ name: String) throws(SyntaxError) {
        let tokens = Self.tokens(name)
        var cursor = 0
        let end = tokens.last?.range.upperBound ?? 0
        func expect(_ wanted: String, _ accepts: (Token) -> Bool) throws(SyntaxError) -> (token: Token, range: Range<Int>) {
            guard cursor < tokens.count else { throw SyntaxError(message: "expected \(wanted)", range: end..<end + 1) }
            let next = tokens[cursor]
            cursor += 1
            guard accepts(next.token) else { throw SyntaxError(message: "expected \(wanted)", range: next.range) }
            return next
        }
        func isLiteral(_ token: Token) -> Bool {
            switch token {
            case .text, .number: true
            default: false
            }
        }
        var steps: [Located] = []
        if tokens.isEmpty {
            steps.append(Located(step: .key(""), range: 0..<0))
        } else {
            let first = try expect("a name or '['") { isLiteral($0) || $0 == .open }
            switch first.token {
            case .text(let text): steps.append(Located(step: .key(text), range: first.range))
            case .number(let number): steps.append(Located(step: .key(String(number)), range: first.range))
            default:
                let inner = try expect("a number or ']'") { token in
                    if case .number = token { return true }
                    return token == .close
                }
                if case .number(let index) = inner.token {
                    let close = try expect("']'") { $0 == .close }
                    if index < 0 { throw SyntaxError(message: "an index cannot be negative", range: inner.range) }
                    steps.append(Located(step: .index(index), range: first.range.lowerBound..<close.range.upperBound))
                } else {
                    steps.append(Located(step: .append, range: first.range.lowerBound..<inner.range.upperBound))
                }
            }
        }
        while cursor < tokens.count {
            let open = try expect("'['") { $0 == .open }
            let inner = try expect("a name, a number or ']'") { isLiteral($0) || $0 == .close }
            switch inner.token {
            case .close:
                steps.append(Located(step: .append, range: open.range.lowerBound..<inner.range.upperBound))
            case .text(let text):
                let close = try expect("']'") { $0 == .close }
                steps.append(Located(step: .key(text), range: open.range.lowerBound..<close.range.upperBound))
            case .number(let index):
                let close = try expect("']'") { $0 == .close }
                if index < 0 { throw SyntaxError(message: "an index cannot be negative", range: inner.range) }
                steps.append(Located(step: .index(index), range: open.range.lowerBound..<close.range.upperBound))
            case .open:
                break
            }
        }
        self.steps = steps
    }

    /// The name's tokens with their character ranges: brackets, and the text between them, a
    /// number when it is digits written with no backslash. `\[`, `\]` and `\\` are the character;
    /// a backslash before anything else stays.
    private static func tokens(_ name: String) -> [(token: Token, range: Range<Int>)] {
        let characters = Array(name)
        var tokens: [(token: Token, range: Range<Int>)] = []
        var buffer = ""
        var bufferStart = 0
        var escaped = false
        func flush(_ end: Int) {
            guard !buffer.isEmpty else { return }
            var token = Token.text(buffer)
            if !escaped, let number = Int(buffer) {
                token = .number(number)
            } else if !escaped, buffer.hasPrefix("\\"), Int(buffer.dropFirst()) != nil {
                token = .text(String(buffer.dropFirst()))
            }
            tokens.append((token, bufferStart..<end))
            buffer = ""
            escaped = false
        }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "[" || character == "]" {
                flush(index)
                tokens.append((character == "[" ? .open : .close, index..<index + 1))
                index += 1
                bufferStart = index
                continue
            }
            if buffer.isEmpty { bufferStart = index }
            if character == "\\", index + 1 < characters.count {
                let next = characters[index + 1]
                if next == "[" || next == "]" || next == "\\" { escaped = true } else { buffer.append(character) }
                buffer.append(next)
                index += 2
                continue
            }
            buffer.append(character)
            index += 1
        }
        flush(characters.count)
        return tokens
    }
}
