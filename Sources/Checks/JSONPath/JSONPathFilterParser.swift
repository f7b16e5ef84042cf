import Targets

/// A filter expression as written, before type checking (`JSONPathTyping`) decides what each part
/// may be: the RFC's grammar leaves `@.a` to be a query, a test or a value by where it stands.
struct JSONPathExpression: Sendable {
    /// Where the expression starts in the query.
    var offset: Int
    var kind: Kind

    indirect enum Kind: Sendable {
        case literal(JSONValue)
        case query(JSONPathQuery)
        case function(JSONPathFunction, [JSONPathExpression])
        case not(JSONPathExpression)
        case and([JSONPathExpression])
        case or([JSONPathExpression])
        case comparison(JSONPathExpression, JSONPathComparisonOperator, JSONPathExpression)
        case parenthesized(JSONPathExpression)
    }
}

extension JSONPathParser {
    /// `a || b || ...` of `&&` chains; also a function argument.
    mutating func parseLogicalExpression() throws(JSONPathError) -> JSONPathExpression {
        try parseChain("||", { parser throws(JSONPathError) in try parser.parseConjunction() }, JSONPathExpression.Kind.or)
    }

    private mutating func parseConjunction() throws(JSONPathError) -> JSONPathExpression {
        try parseChain("&&", { parser throws(JSONPathError) in try parser.parseBasic() }, JSONPathExpression.Kind.and)
    }

    /// `item symbol item ...`, in a loop (a long chain costs no stack); one item is itself.
    private mutating func parseChain(
        _ symbol: String, _ item: (inout JSONPathParser) throws(JSONPathError) -> JSONPathExpression,
        _ kind: ([JSONPathExpression]) -> JSONPathExpression.Kind
    ) throws(JSONPathError) -> JSONPathExpression {
        let start = position
        var items = [try item(&self)]
        while true {
            let before = position
            skipBlanks()
            guard lookingAt(symbol) else {
                position = before
                break
            }
            position += symbol.count
            skipBlanks()
            items.append(try item(&self))
        }
        return items.count == 1 ? items[0] : JSONPathExpression(offset: start, kind: kind(items))
    }

    /// `!` test-or-parenthesis, a comparison, or a primary alone.
    private mutating func parseBasic() throws(JSONPathError) -> JSONPathExpression {
        let start = position
        if peek == "!", !lookingAt("!=") {
            position += 1
            skipBlanks()
            let operand = try parsePrimary()
            let after = position
            skipBlanks()
            if scanComparisonOperator() != nil {
                throw error("'!' cannot negate one side of a comparison; put the comparison in parentheses: !(... == ...)", at: start)
            }
            position = after
            return JSONPathExpression(offset: start, kind: .not(operand))
        }
        let left = try parsePrimary()
        let afterLeft = position
        skipBlanks()
        let operatorAt = position
        guard let comparison = scanComparisonOperator() else {
            if peek == "=" { throw error("use '==' to compare", at: operatorAt) }
            position = afterLeft
            return left
        }
        skipBlanks()
        let right = try parsePrimary()
        let afterRight = position
        skipBlanks()
        let secondAt = position
        if scanComparisonOperator() != nil {
            throw error("comparisons cannot be chained; join them with && or ||", at: secondAt)
        }
        position = afterRight
        return JSONPathExpression(offset: start, kind: .comparison(left, comparison, right))
    }

    /// `==`, `!=`, `<=`, `>=`, `<` or `>` at `position`, read; nil and nothing read otherwise.
    private mutating func scanComparisonOperator() -> JSONPathComparisonOperator? {
        for candidate in [JSONPathComparisonOperator.equal, .notEqual, .lessOrEqual, .greaterOrEqual, .less, .greater]
        where lookingAt(candidate.rawValue) {
            position += candidate.rawValue.unicodeScalars.count
            return candidate
        }
        return nil
    }

    /// A parenthesized expression, a query, a literal or a function call.
    private mutating func parsePrimary() throws(JSONPathError) -> JSONPathExpression {
        let start = position
        guard let next = peek else {
            throw error("expected a test or comparison, e.g. @.name or @.price < 10")
        }
        switch next {
        case "(":
            try enterNesting()
            defer { depth -= 1 }
            position += 1
            skipBlanks()
            let inner = try parseLogicalExpression()
            skipBlanks()
            guard peek == ")" else { throw error("expected ')'") }
            position += 1
            return JSONPathExpression(offset: start, kind: .parenthesized(inner))
        case "@", "$":
            position += 1
            let segments = try parseSegments()
            return JSONPathExpression(offset: start, kind: .query(JSONPathQuery(isAbsolute: next == "$", segments: segments)))
        case "'", "\"":
            return JSONPathExpression(offset: start, kind: .literal(.string(try parseStringLiteral())))
        case "-", "0"..."9":
            return JSONPathExpression(offset: start, kind: .literal(.number(try parseNumberLiteral())))
        case "a"..."z", "A"..."Z", "_":
            return try parseWord()
        default:
            throw error("expected a test or comparison, e.g. @.name or @.price < 10, not \(Self.describe(next))")
        }
    }

    /// An RFC 9535 `number`: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as its text.
    private mutating func parseNumberLiteral() throws(JSONPathError) -> String {
        let begin = position
        if peek == "-" { position += 1 }
        guard let first = peek, Self.isDigit(first) else { throw error("expected a digit after '-'") }
        if first == "0" {
            position += 1
            if let next = peek, Self.isDigit(next) { throw error("a number cannot start with 0", at: begin) }
        } else {
            skipDigits()
        }
        if peek == "." {
            position += 1
            guard let digit = peek, Self.isDigit(digit) else { throw error("expected a digit after '.'") }
            skipDigits()
        }
        if peek == "e" || peek == "E" {
            position += 1
            if peek == "+" || peek == "-" { position += 1 }
            guard let digit = peek, Self.isDigit(digit) else { throw error("expected a digit in the exponent") }
            skipDigits()
        }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[begin..<position])
        return String(text)
    }

    private mutating func skipDigits() {
        while let next = peek, Self.isDigit(next) { position += 1 }
    }

    /// `true`, `false`, `null`, or a function call `name(...)` (no space before the parenthesis).
    private mutating func parseWord() throws(JSONPathError) -> JSONPathExpression {
        let start = position
        var word = String.UnicodeScalarView()
        while let next = peek, next.isASCII, Self.isNameFirst(next) || Self.isDigit(next) {
            word.append(next)
            position += 1
        }
        let name = String(word)
        if peek == "(" {
            return try parseFunctionCall(name, at: start)
        }
        switch name {
        case "true": return JSONPathExpression(offset: start, kind: .literal(.bool(true)))
        case "false": return JSONPathExpression(offset: start, kind: .literal(.bool(false)))
        case "null": return JSONPathExpression(offset: start, kind: .literal(.null))
        default:
            let functionName = JSONPathFunction(rawValue: name) != nil
            throw error(functionName ? "expected '(' right after '\(name)'"
                : "unexpected '\(name)'; a member of the current node is written @.\(name)", at: functionName ? position : start)
        }
    }

    private mutating func parseFunctionCall(_ name: String, at start: Int) throws(JSONPathError) -> JSONPathExpression {
        guard let function = JSONPathFunction(rawValue: name) else {
            let known = JSONPathFunction.allCases.map(\.rawValue).joined(separator: ", ")
            throw error("unknown function '\(name)' (known: \(known))", at: start)
        }
        try enterNesting()
        defer { depth -= 1 }
        position += 1
        skipBlanks()
        var arguments: [JSONPathExpression] = []
        if peek != ")" {
            while true {
                arguments.append(try parseLogicalExpression())
                skipBlanks()
                guard peek == "," else { break }
                position += 1
                skipBlanks()
            }
        }
        guard peek == ")" else { throw error("expected ',' or ')' in the arguments of \(name)()") }
        position += 1
        return JSONPathExpression(offset: start, kind: .function(function, arguments))
    }
}
