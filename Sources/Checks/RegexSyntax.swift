/// A parsed regular expression, before it is compiled for ``LinearRegex``.
indirect enum RegexNode: Sendable {
    case empty
    case scalar(Unicode.Scalar)
    case set(ScalarSet)
    /// `.`: any scalar but a newline.
    case any
    case concatenation([RegexNode])
    case alternation([RegexNode])
    /// `min` to `max` repetitions (`max` nil: no bound); `greedy` false for `*?`, `+?`, `??`.
    case repetition(RegexNode, min: Int, max: Int?, greedy: Bool)
    /// A group; `index` is its capture number, nil for `(?:...)`.
    case group(RegexNode, index: Int?)
    case startAnchor
    case endAnchor
    /// `^` and `$` under `(?m)`: at the start or end of the text or of a line.
    case lineStart
    case lineEnd
    case wordBoundary(negated: Bool)
}

/// A set of scalars: ranges and classes (`\d`, `\w`, `\s`), possibly negated.
struct ScalarSet: Sendable {
    var ranges: [ClosedRange<UInt32>] = []
    var negated = false

    func contains(_ scalar: Unicode.Scalar, ignoringCase: Bool) -> Bool {
        var found = ranges.contains { $0.contains(scalar.value) }
        if !found, ignoringCase {
            for other in ScalarCase.variants(of: scalar) where ranges.contains(where: { $0.contains(other.value) }) {
                found = true
                break
            }
        }
        return found != negated
    }

    static let digits = ScalarSet(ranges: [0x30...0x39])
    static let word = ScalarSet(ranges: [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    /// JavaScript's `\s` (ECMA-262's WhiteSpace and LineTerminator), as JSON Schema's `pattern` reads it.
    static let space = ScalarSet(ranges: [0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029,
                                          0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF])

    func negatedSet() -> ScalarSet { ScalarSet(ranges: ranges, negated: !negated) }
}

/// How `(?i)` compares scalars: by the scalar each folds to, so that it is an equivalence
/// (`K`, `k` and the Kelvin sign U+212A all fold to `k`; `S`, `s` and `ſ` to `s`; `Σ`, `σ`
/// and `ς` to `σ`), as Python's `re` compares them.
enum ScalarCase {
    /// The lowercase of the scalar's uppercase, where each is one scalar; else the scalar.
    static func folded(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let upper = single(scalar.properties.uppercaseMapping) ?? scalar
        return single(upper.properties.lowercaseMapping) ?? single(scalar.properties.lowercaseMapping) ?? scalar
    }

    /// Whether `(?i)` takes `a` for `b`.
    static func equal(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Bool {
        a == b || folded(a) == folded(b)
    }

    /// The other scalars a set is asked about for `scalar` under `(?i)`: what it folds to, and
    /// that one's uppercase and titlecase.
    static func variants(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        let fold = folded(scalar)
        var result: [Unicode.Scalar] = []
        for case let other? in [fold, single(fold.properties.uppercaseMapping), single(fold.properties.titlecaseMapping)]
        where other != scalar && !result.contains(other) {
            result.append(other)
        }
        return result
    }

    private static func single(_ text: String) -> Unicode.Scalar? {
        let scalars = text.unicodeScalars
        return scalars.count == 1 ? scalars.first : nil
    }
}

/// Why a pattern was refused, in the user's terms, with the scalar offset where it went wrong.
public struct RegexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, as a sentence fragment: `missing ')'`.
    public let message: String
    /// The character offset in the pattern where it went wrong, when one can be said.
    public let offset: Int?
    /// Whether the pattern may be right for other engines (ECMA-262's lookahead, `\p{L}`) and
    /// only this one does not run it, rather than wrong as a pattern (`missing ')'`).
    public var isUnsupported = false

    /// The message with its place in the pattern.
    public var description: String {
        offset.map { "\(message) (at character \($0 + 1) of the pattern)" } ?? message
    }
}
