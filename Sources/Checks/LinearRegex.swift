/// A regular expression matched in time linear in the input (a Pike VM): no pattern can make a
/// check run for minutes, as `^(a+)+$` does on a backtracking engine. The leftmost match is found,
/// and among matches there, the one a backtracking engine (PCRE, JavaScript) would pick.
///
/// Matching works on Unicode scalars. It stops with ``RegexMatchFailure/interrupted`` when the
/// caller's `shouldStop` says so (checked every few thousand steps), and with
/// ``RegexMatchFailure/tooCostly`` past ``stepBudget`` steps.
public struct LinearRegex: Sendable {
    /// Steps (instructions visited, empty moves included) a match may take: a few seconds of work
    /// in a release build.
    public static let stepBudget = RegexBudget.steps

    let program: RegexProgram
    let ignoresCase: Bool
    /// The first POSIX class the pattern uses (`[:digit:]`, as RE2 reads it), nil when none:
    /// ECMA-262, the syntax of JSON Schema's patterns, has no such class.
    public let posixClass: String?

    /// Parses `pattern`; a pattern that needs backtracking (backreferences, lookaround) or is
    /// malformed throws a ``RegexError`` saying so.
    public init(_ pattern: String) throws(RegexError) {
        var parser = RegexParser(pattern)
        let node = try parser.parse()
        program = try RegexProgram(node, groupCount: parser.groupCount)
        ignoresCase = parser.ignoresCase
        posixClass = parser.firstPOSIXClass
    }

    /// Whether the pattern matches somewhere in `text`.
    public func matches(
        _ text: String, budget: Int = stepBudget, shouldStop: () -> Bool = { false }
    ) throws(RegexMatchFailure) -> Bool {
        var matcher = PikeMatcher(program: program, ignoresCase: ignoresCase)
        return try matcher.matches(Array(text.unicodeScalars), shouldStop: shouldStop, budget: budget)
    }

    /// The leftmost match in `text` and its groups, or nil.
    public func firstMatch(
        in text: String, budget: Int = stepBudget, shouldStop: () -> Bool = { false }
    ) throws(RegexMatchFailure) -> RegexMatch? {
        let input = Array(text.unicodeScalars)
        var machine = PikeMachine(program: program, input: input, ignoresCase: ignoresCase)
        guard let slots = try machine.run(shouldStop: shouldStop, budget: budget) else { return nil }
        return RegexMatch(input: input, slots: slots)
    }
}

extension LinearRegex {
    /// `text` with every match replaced, left to right and none overlapping (an empty match moves
    /// on one scalar); in `replacement`, `$0` is the whole match and `$1`...`$9` its groups. All
    /// the matches together take at most `budget` steps.
    public func replacingMatches(
        in text: String, with replacement: String, budget: Int = stepBudget, shouldStop: () -> Bool = { false }
    ) throws(RegexMatchFailure) -> String {
        let input = Array(text.unicodeScalars)
        var machine = PikeMachine(program: program, input: input, ignoresCase: ignoresCase)
        var output = String.UnicodeScalarView()
        var position = 0
        while position <= input.count, let slots = try machine.run(from: position, shouldStop: shouldStop, budget: budget) {
            let start = slots[0], end = slots[1]
            guard start >= position, end >= start else { break }
            output.append(contentsOf: input[position..<start])
            output.append(contentsOf: Self.expand(replacement, RegexMatch(input: input, slots: slots)).unicodeScalars)
            if end == start {
                if end < input.count { output.append(input[end]) }
                position = end + 1
            } else {
                position = end
            }
        }
        if position < input.count { output.append(contentsOf: input[position...]) }
        return String(output)
    }

    /// `$0`...`$9` in a replacement, each the match's text or a group's (empty when it took no part).
    private static func expand(_ replacement: String, _ match: RegexMatch) -> String {
        guard replacement.contains("$") else { return replacement }
        var result = ""
        var characters = replacement.makeIterator()
        while let character = characters.next() {
            guard character == "$" else { result.append(character); continue }
            guard let digit = characters.next() else { result.append("$"); break }
            guard let group = digit.wholeNumberValue, digit.isASCII else { result.append("$"); result.append(digit); continue }
            if group == 0 {
                result += match.text
            } else if group <= match.groups.count {
                result += match.groups[group - 1] ?? ""
            }
        }
        return result
    }
}

/// Why matching stopped without an answer.
public enum RegexMatchFailure: Error, Sendable, Equatable {
    /// The caller asked to stop (Ctrl-C).
    case interrupted
    /// The pattern and input together need more than ``LinearRegex/stepBudget`` steps.
    case tooCostly
}

/// A match: the matched text and each group's text (nil for a group that did not take part).
public struct RegexMatch: Sendable, Equatable {
    /// The text the whole pattern matched.
    public let text: String
    /// Each capturing group's text, in order of their opening parentheses.
    public let groups: [String?]

    init(input: [Unicode.Scalar], slots: [Int]) {
        func piece(_ group: Int) -> String? {
            let start = slots[group * 2], end = slots[group * 2 + 1]
            guard start >= 0, end >= start else { return nil }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: input[start..<end])
            return String(view)
        }
        text = piece(0) ?? ""
        groups = (1..<(slots.count / 2)).map(piece)
    }
}

/// How much work one match may do, and how often it asks whether to stop.
enum RegexBudget {
    static let steps = 200_000_000
    /// Steps between two calls of `shouldStop`: well under a millisecond of work.
    static let checkInterval = 16_384
}

/// The steps one match has taken, checked against its budget and the caller's wish to stop.
struct RegexSteps {
    var count = 0
    private var nextCheck = 0

    /// Adds `steps`; throws when the budget is spent, or when `shouldStop` (asked every
    /// ``RegexBudget/checkInterval`` steps) says so.
    mutating func spend(_ steps: Int, budget: Int, shouldStop: () -> Bool) throws(RegexMatchFailure) {
        count += steps
        if count > budget { throw .tooCostly }
        if count >= nextCheck {
            if shouldStop() { throw .interrupted }
            nextCheck = count + RegexBudget.checkInterval
        }
    }
}
