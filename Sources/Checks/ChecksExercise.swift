/// The fuzzer's check of this module on one input (`scripts/fuzz`, `FuzzCorpusTests`): the first
/// line is a regular expression, matched on the rest within a small budget; every word that reads
/// as a decimal is compared with itself and its neighbour. Returns the rules broken, none when all
/// hold; a crash or a hang is the other way to fail.
public enum ChecksExercise {
    /// The rules `text` breaks.
    public static func problems(in text: String) -> [String] {
        regexProblems(text) + numberProblems(text)
    }

    private static func regexProblems(_ text: String) -> [String] {
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard let pattern = lines.first.map(String.init), let regex = try? LinearRegex(pattern) else { return [] }
        let subject = lines.count > 1 ? String(lines[1]) : ""
        let budget = 2_000_000
        let yes: Bool
        let match: RegexMatch?
        do {
            yes = try regex.matches(subject, budget: budget)
            match = try regex.firstMatch(in: subject, budget: budget)
        } catch {
            return []
        }
        var problems: [String] = []
        if yes != (match != nil) { problems.append("matches says \(yes) but firstMatch says \(match != nil) for /\(pattern)/") }
        // By scalars, as the engine matches: `$` before a combining mark is no Character of its own.
        if let match, !match.text.isEmpty,
           Array(subject.unicodeScalars).firstRange(of: Array(match.text.unicodeScalars)) == nil {
            problems.append("the match '\(match.text)' is not in the text for /\(pattern)/")
        }
        return problems
    }

    private static func numberProblems(_ text: String) -> [String] {
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).prefix(64).compactMap { ExactNumber($0) }
        var problems: [String] = []
        for (index, number) in numbers.enumerated() {
            if number != number || number < number { problems.append("\(number) does not equal itself") }
            guard index + 1 < numbers.count else { continue }
            let next = numbers[index + 1]
            let ordered = [number < next, next < number, number == next].filter { $0 }.count
            if ordered != 1 { problems.append("\(number) and \(next) are not ordered one way") }
        }
        return problems
    }
}
