/// Parses the common regular-expression syntax (as in JavaScript, Python and PCRE) that can be
/// matched in linear time: literals, `.`, classes `[a-z]` `[^...]` `\d \w \s` (and negations),
/// groups `(...)` `(?:...)`, `|`, `* + ? {n} {n,} {n,m}` (lazy forms too), `^ $ \b \B`, and a
/// leading `(?i)`. Backreferences and lookaround are refused: they need backtracking.
struct RegexParser {
    /// Groups nested deeper than this are refused; the parser recurses once per group.
    static let maximumNesting = 200
    /// A counted repetition repeats its body in the program: bounded to keep programs small.
    static let maximumCount = 1000

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var depth = 0
    private(set) var groupCount = 0
    private(set) var ignoresCase = false

    init(_ pattern: String) {
        scalars = Array(pattern.unicodeScalars)
    }

    mutating func parse() throws(RegexError) -> RegexNode {
        if scalars.starts(with: Array("(?i)".unicodeScalars)) {
            ignoresCase = true
            position = 4
        }
        let node = try alternation()
        if position < scalars.count {
            throw error(scalars[position] == ")" ? "unmatched ')'" : "unexpected '\(scalars[position])'")
        }
        return node
    }

    private mutating func alternation() throws(RegexError) -> RegexNode {
        var branches = [try concatenation()]
        while peek == "|" {
            position += 1
            branches.append(try concatenation())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func concatenation() throws(RegexError) -> RegexNode {
        var items: [RegexNode] = []
        while let next = peek, next != "|", next != ")" {
            items.append(try repetition())
        }
        return items.isEmpty ? .empty : items.count == 1 ? items[0] : .concatenation(items)
    }

    private mutating func repetition() throws(RegexError) -> RegexNode {
        let start = position
        let node = try atom()
        guard let bounds = try quantifier() else { return node }
        if case .startAnchor = node { throw error("nothing to repeat before a quantifier", at: start) }
        var greedy = true
        if peek == "?" {
            greedy = false
            position += 1
        }
        let after = position
        // `a**` is refused, as JavaScript and Python do: it also keeps nesting flat.
        if try quantifier() != nil { throw error("a quantifier cannot follow another", at: after) }
        return .repetition(node, min: bounds.0, max: bounds.1, greedy: greedy)
    }

    /// `*`, `+`, `?` or a counted `{...}` at the current position, consumed; nil when there is none.
    private mutating func quantifier() throws(RegexError) -> (Int, Int?)? {
        switch peek {
        case "*": position += 1; return (0, nil)
        case "+": position += 1; return (1, nil)
        case "?": position += 1; return (0, 1)
        case "{": return try countedBounds()
        default: return nil
        }
    }

    /// `{n}`, `{n,}` or `{n,m}`; nil (and nothing consumed) when the brace is a literal `{`.
    private mutating func countedBounds() throws(RegexError) -> (Int, Int?)? {
        let start = position
        position += 1
        guard let low = number() else { position = start; return nil }
        var high: Int? = low
        if peek == "," {
            position += 1
            high = number()
        }
        guard peek == "}" else { position = start; return nil }
        position += 1
        if let high, high < low { throw error("a repetition {\(low),\(high)} has its bounds reversed", at: start) }
        guard low <= Self.maximumCount, (high ?? 0) <= Self.maximumCount else {
            throw error("a repetition count is at most \(Self.maximumCount)", at: start)
        }
        return (low, high)
    }

    private mutating func number() -> Int? {
        var value: Int?
        while let next = peek, next >= "0", next <= "9" {
            value = min((value ?? 0) * 10 + Int(next.value - 48), Self.maximumCount + 1)
            position += 1
        }
        return value
    }

    private mutating func atom() throws(RegexError) -> RegexNode {
        guard let next = peek else { throw error("unexpected end of the pattern") }
        position += 1
        switch next {
        case ".": return .any
        case "^": return .startAnchor
        case "$": return .endAnchor
        case "[": return .set(try bracket())
        case "\\": return try escape(inBracket: false)
        case "(": return try group()
        case "*", "+", "?": throw error("nothing to repeat before '\(next)'", at: position - 1)
        default: return .scalar(next)
        }
    }

    private mutating func group() throws(RegexError) -> RegexNode {
        let open = position - 1
        guard depth < Self.maximumNesting else { throw error("groups nested deeper than \(Self.maximumNesting)", at: open) }
        depth += 1
        defer { depth -= 1 }
        var index: Int?
        if peek == "?" {
            position += 1
            switch peek {
            case ":": position += 1
            case "=", "!": throw error("lookahead is not supported: matching must stay linear in the input", at: open)
            case "<":
                if position + 1 < scalars.count, scalars[position + 1] == "=" || scalars[position + 1] == "!" {
                    throw error("lookbehind is not supported: matching must stay linear in the input", at: open)
                }
                // A named group `(?<name>...)` captures like a plain one.
                while let next = peek, next != ">" { position += 1 }
                guard peek == ">" else { throw error("unterminated group name", at: open) }
                position += 1
                groupCount += 1
                index = groupCount
            default: throw error("unknown group syntax '(?'", at: open)
            }
        } else {
            groupCount += 1
            index = groupCount
        }
        let inner = try alternation()
        guard peek == ")" else { throw error("missing ')'", at: open) }
        position += 1
        return .group(inner, index: index)
    }

    private mutating func bracket() throws(RegexError) -> ScalarSet {
        let open = position - 1
        var set = ScalarSet()
        if peek == "^" { set.negated = true; position += 1 }
        var first = true
        while true {
            guard let next = peek else { throw error("missing ']'", at: open) }
            if next == "]", !first { position += 1; return set }
            first = false
            position += 1
            var low: UInt32
            if next == "\\" {
                switch try escape(inBracket: true) {
                case .scalar(let scalar): low = scalar.value
                case .set(let inner) where !inner.negated: set.ranges += inner.ranges; continue
                case .set: throw error("a negated class such as \\D cannot go inside [...]", at: position - 2)
                default: throw error("this escape cannot go inside [...]", at: position - 2)
                }
            } else {
                low = next.value
            }
            if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                position += 1
                guard let highScalar = peek else { throw error("missing ']'", at: open) }
                position += 1
                var high = highScalar.value
                if highScalar == "\\" {
                    guard case .scalar(let escaped) = try escape(inBracket: true) else { throw error("a range ends with a character", at: position - 1) }
                    high = escaped.value
                }
                guard low <= high else { throw error("a range in [...] has its ends reversed", at: position - 1) }
                set.ranges.append(low...high)
            } else {
                set.ranges.append(low...low)
            }
        }
    }

    private mutating func escape(inBracket: Bool) throws(RegexError) -> RegexNode {
        guard let next = peek else { throw error("a pattern cannot end with '\\'") }
        position += 1
        switch next {
        case "d": return .set(.digits)
        case "D": return .set(ScalarSet.digits.negatedSet())
        case "w": return .set(.word)
        case "W": return .set(ScalarSet.word.negatedSet())
        case "s": return .set(.space)
        case "S": return .set(ScalarSet.space.negatedSet())
        case "t": return .scalar("\t")
        case "n": return .scalar("\n")
        case "r": return .scalar("\r")
        case "f": return .scalar("\u{0C}")
        case "v": return .scalar("\u{0B}")
        case "b" where !inBracket: return .wordBoundary(negated: false)
        case "B" where !inBracket: return .wordBoundary(negated: true)
        case "b": return .scalar("\u{08}")
        case "A" where !inBracket: return .startAnchor
        case "z", "Z": return inBracket ? .scalar(next) : .endAnchor
        case "1"..."9":
            throw error("backreferences are not supported: matching must stay linear in the input", at: position - 2)
        case "u", "x":
            let digits = next == "x" ? 2 : 4
            guard position + digits <= scalars.count,
                  scalars[position..<(position + digits)].allSatisfy({ $0.properties.isASCIIHexDigit }),
                  let value = UInt32(String(String.UnicodeScalarView(scalars[position..<(position + digits)])), radix: 16),
                  let scalar = Unicode.Scalar(value) else {
                throw error("\\\(next) takes \(digits) hex digits", at: position - 2)
            }
            position += digits
            return .scalar(scalar)
        default:
            if next.properties.isAlphabetic, next.isASCII {
                throw error("unknown escape '\\\(next)'", at: position - 2)
            }
            return .scalar(next)
        }
    }

    private var peek: Unicode.Scalar? {
        position < scalars.count ? scalars[position] : nil
    }

    private func error(_ message: String, at offset: Int? = nil) -> RegexError {
        RegexError(message: message, offset: offset ?? min(position, scalars.count))
    }
}
