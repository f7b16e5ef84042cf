/// Writes strings that a pattern matches, for generated inputs and mock answers: each repetition
/// is taken a random number of times (unbounded ones at most ``maximumRepeat`` more than their
/// minimum), each alternative and class member picked at random. Anchors and word boundaries are
/// not planned for, so a caller that must be sure checks the result with ``LinearRegex``.
public struct RegexSampler: Sendable {
    /// How many repetitions past its minimum an unbounded `*`, `+` or `{n,}` takes at most.
    public static let maximumRepeat = 8

    private let node: RegexNode

    /// Parses `pattern` as ``LinearRegex`` does; a pattern it refuses throws the same error.
    public init(_ pattern: String) throws(RegexError) {
        var parser = RegexParser(pattern)
        node = try parser.parse()
    }

    /// One string the pattern matches (but see the type's note on anchors).
    public func sample(using generator: inout some RandomNumberGenerator) -> String {
        var scalars = String.UnicodeScalarView()
        write(node, into: &scalars, using: &generator)
        return String(scalars)
    }

    private func write(_ node: RegexNode, into scalars: inout String.UnicodeScalarView, using generator: inout some RandomNumberGenerator) {
        switch node {
        case .empty, .startAnchor, .endAnchor, .lineStart, .lineEnd, .wordBoundary:
            break
        case .scalar(let scalar):
            scalars.append(scalar)
        case .any:
            scalars.append(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &generator)))
        case .set(let set):
            scalars.append(Self.member(of: set, using: &generator))
        case .concatenation(let nodes):
            for part in nodes { write(part, into: &scalars, using: &generator) }
        case .alternation(let nodes):
            if let chosen = nodes.randomElement(using: &generator) { write(chosen, into: &scalars, using: &generator) }
        case .repetition(let body, let min, let max, _):
            let upper = max ?? (min + Self.maximumRepeat)
            let count = Int.random(in: min...Swift.max(min, upper), using: &generator)
            for _ in 0..<count { write(body, into: &scalars, using: &generator) }
        case .group(let body, _):
            write(body, into: &scalars, using: &generator)
        }
    }

    /// A scalar of the set: from one of its ranges, or for a negated set a printable ASCII one outside them.
    private static func member(of set: ScalarSet, using generator: inout some RandomNumberGenerator) -> Unicode.Scalar {
        if set.negated || set.ranges.isEmpty {
            for _ in 0..<64 {
                let candidate = Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &generator))
                if set.contains(candidate, ignoringCase: false) { return candidate }
            }
            return "\u{A7}"
        }
        for _ in 0..<16 {
            guard let range = set.ranges.randomElement(using: &generator) else { break }
            // Printable ASCII where the range has some, so answers stay readable.
            let low = Swift.max(range.lowerBound, 0x20), high = Swift.min(range.upperBound, 0x7E)
            let pick = low > high || Int.random(in: 0..<4, using: &generator) == 0
                ? UInt32.random(in: range, using: &generator) : UInt32.random(in: low...high, using: &generator)
            if let scalar = Unicode.Scalar(pick) { return scalar }
        }
        return "a"
    }
}
