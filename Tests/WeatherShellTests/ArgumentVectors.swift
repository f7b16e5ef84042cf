import TestSupport

/// Command lines for checking the quick parse against swift-argument-parser: every vector of up to
/// three tokens from ``tokens``, then random longer ones from a fixed seed, the same on every run.
enum ArgumentVectors {
    /// Every flag spelling wsh knows, and near misses: values where flags go and flags where values
    /// go, `--` and `-`, assignments, unknown and joined flags, empty and odd strings.
    static let tokens: [String] = [
        "-c", "--stub", "--norc", "--version", "-h", "--help", "--", "-",
        "exit", "file.wsh", "a=1", "=v", "", "x y",
        "-x", "--bogus", "--stub=1", "-cX", "-c=x", "-1", "-c-", "--c", "-sc", "—stub",
    ]

    /// The tokens of command lines the quick parse may answer, drawn more often so that long random
    /// vectors are not nearly all sent to the full parser.
    static let plainTokens: [String] = ["-c", "--stub", "--norc", "--", "-", "exit", "file.wsh", "a=1", "=v", "", "x y"]

    /// Every vector of `maxLength` tokens or fewer, the empty one included.
    static func exhaustive(maxLength: Int = 3) -> [[String]] {
        var all: [[String]] = [[]]
        var previous: [[String]] = [[]]
        for _ in 0..<maxLength {
            previous = previous.flatMap { vector in tokens.map { vector + [$0] } }
            all += previous
        }
        return all
    }

    /// `count` vectors of 4 to 8 tokens, drawn with a fixed seed: three in four from ``plainTokens``.
    static func random(count: Int, seed: UInt64 = 0x5EED_0011) -> [[String]] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            let length = Int.random(in: 4...8, using: &generator)
            return (0..<length).map { _ in
                let pool = Int.random(in: 0..<4, using: &generator) == 0 ? tokens : plainTokens
                return pool.randomElement(using: &generator) ?? ""
            }
        }
    }
}
