/// Parses the common regular-expression syntax (as in JavaScript, Python and PCRE) that can be
/// matched in linear time: literals, `.`, classes `[a-z]` `[^...]` `\d \w \s` (and negations),
/// POSIX classes inside brackets as RE2 has them (`[[:digit:]]`, `[[:^alpha:]]`, ASCII),
/// groups `(...)` `(?:...)`, `|`, `* + ? {n} {n,} {n,m}` (lazy forms too), `^ $ \b \B`, and a
/// leading `(?i)`, `(?m)` (`^` and `$` at each line) and `(?s)` (`.` takes a newline too), or
/// several (`(?ims)`), as Rust's regex and PCRE write them. Backreferences and lookaround are refused: they need backtracking.
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
    private var multiline = false
    private var dotMatchesNewline = false
    /// The first POSIX class the pattern uses (`[:digit:]`), which ECMA-262 has not.
    private(set) var firstPOSIXClass: String?

    init(_ pattern: String) {
        scalars = Array(pattern.unicodeScalars)
    }

    mutating func parse() throws(RegexError) -> RegexNode {
        if let flags = leadingFlags() {
            for flag in flags {
                switch flag {
                case "i": ignoresCase = true
                case "m": multiline = true
                case "s": dotMatchesNewline = true
                default: throw unsupported("the flag '\(flag)' is not supported (known: i, m, s)", at: 2)
                }
            }
            position = flags.count + 3
        }
        let node = try alternation()
        if position < scalars.count {
            throw error(scalars[position] == ")" ? "unmatched ')'" : "unexpected '\(scalars[position])'")
        }
        return node
    }

    /// The letters of a leading `(?ims)`, nil when the pattern does not start with flags.
    private func leadingFlags() -> [Unicode.Scalar]? {
        guard scalars.starts(with: Array("(?".unicodeScalars)), let close = scalars.firstIndex(of: ")"), close > 2,
              scalars[2..<close].allSatisfy({ $0.properties.isAlphabetic }) else { return nil }
        return Array(scalars[2..<close])
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
        switch node {
        case .startAnchor, .lineStart: throw error("nothing to repeat before a quantifier", at: start)
        default: break
        }
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
            throw unsupported("a repetition count is at most \(Self.maximumCount)", at: start)
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
        case ".": return dotMatchesNewline ? .set(ScalarSet(ranges: [], negated: true)) : .any
        case "^": return multiline ? .lineStart : .startAnchor
        case "$": return multiline ? .lineEnd : .endAnchor
        case "[": return .set(try bracket())
        case "\\": return try escape(inBracket: false)
        case "(": return try group()
        case "*", "+", "?": throw error("nothing to repeat before '\(next)'", at: position - 1)
        default: return .scalar(next)
        }
    }

    private mutating func group() throws(RegexError) -> RegexNode {
        let open = position - 1
        guard depth < Self.maximumNesting else { throw unsupported("groups nested deeper than \(Self.maximumNesting)", at: open) }
        depth += 1
        defer { depth -= 1 }
        var index: Int?
        if peek == "?" {
            position += 1
            switch peek {
            case ":": position += 1
            case "=", "!": throw unsupported("lookahead is not supported: matching must stay linear in the input", at: open)
            case "<":
                if position + 1 < scalars.count, scalars[position + 1] == "=" || scalars[position + 1] == "!" {
                    throw unsupported("lookbehind is not supported: matching must stay linear in the input", at: open)
                }
                // A named group `(?<name>...)` captures like a plain one.
                while let next = peek, next != ">" { position += 1 }
                guard peek == ">" else { throw error("unterminated group name", at: open) }
                position += 1
                groupCount += 1
                index = groupCount
            default: throw unsupported("unknown group syntax '(?'", at: open)
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
            if next == "[", peek == ":", let named = try posixClass(open: position - 1) {
                set.ranges += named
                continue
            }
            var low: UInt32
            if next == "\\" {
                switch try escape(inBracket: true) {
                case .scalar(let scalar): low = scalar.value
                case .set(let inner) where !inner.negated: set.ranges += inner.ranges; continue
                case .set: throw unsupported("a negated class such as \\D cannot go inside [...]", at: position - 2)
                default: throw unsupported("this escape cannot go inside [...]", at: position - 2)
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

    /// The POSIX classes inside a bracket, as RE2 reads them: ASCII only.
    static let posixClasses: [String: [ClosedRange<UInt32>]] = [
        "alnum": [0x30...0x39, 0x41...0x5A, 0x61...0x7A], "alpha": [0x41...0x5A, 0x61...0x7A], "ascii": [0x00...0x7F],
        "blank": [0x09...0x09, 0x20...0x20], "cntrl": [0x00...0x1F, 0x7F...0x7F], "digit": ScalarSet.digits.ranges,
        "graph": [0x21...0x7E], "lower": [0x61...0x7A], "print": [0x20...0x7E],
        "punct": [0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E], "space": [0x09...0x0D, 0x20...0x20],
        "upper": [0x41...0x5A], "word": ScalarSet.word.ranges, "xdigit": [0x30...0x39, 0x41...0x46, 0x61...0x66],
    ]

    /// `[:digit:]` (or `[:^digit:]`, its complement) inside a bracket, the `[` at `open` read:
    /// its ranges. Nil when no `:]` follows, so `[[:]` is the set of `[` and `:`, as in RE2; an
    /// unknown name is an error rather than a set of its letters.
    private mutating func posixClass(open: Int) throws(RegexError) -> [ClosedRange<UInt32>]? {
        var end = position + 1
        while end + 1 < scalars.count, !(scalars[end] == ":" && scalars[end + 1] == "]") { end += 1 }
        guard end + 1 < scalars.count else { return nil }
        var name = String(String.UnicodeScalarView(scalars[(position + 1)..<end]))
        let negated = name.hasPrefix("^")
        if negated { name.removeFirst() }
        guard let ranges = Self.posixClasses[name] else {
            throw error("unknown class '[:\(name):]'; classes: " + Self.posixClasses.keys.sorted().joined(separator: ", "), at: open)
        }
        position = end + 2
        if firstPOSIXClass == nil { firstPOSIXClass = "[:" + (negated ? "^" : "") + name + ":]" }
        return negated ? Self.complement(ranges) : ranges
    }

    /// Every scalar outside `ranges` (sorted, apart).
    static func complement(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
            next = range.upperBound + 1
        }
        if next <= 0x10FFFF { result.append(next...0x10FFFF) }
        return result
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
            throw unsupported("backreferences are not supported: matching must stay linear in the input", at: position - 2)
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
                throw unsupported("unknown escape '\\\(next)'", at: position - 2)
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

    /// What ECMA-262 or another engine may take but this one does not run.
    private func unsupported(_ message: String, at offset: Int? = nil) -> RegexError {
        var failure = error(message, at: offset)
        failure.isUnsupported = true
        return failure
    }
}
