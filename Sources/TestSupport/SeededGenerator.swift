import Foundation

/// A deterministic generator (SplitMix64): random input made from a seed can be made again from it.
public struct SeededGenerator: RandomNumberGenerator {
    /// The variable that replays a run: `WSH_TEST_SEED=1234 swift test --filter ...`.
    public static let seedVariable = "WSH_TEST_SEED"

    /// The seed of this run: `$WSH_TEST_SEED` when set, else a fresh random one.
    public static func seed() -> UInt64 {
        ProcessInfo.processInfo.environment[seedVariable].flatMap { UInt64($0) } ?? UInt64.random(in: .min ... .max)
    }

    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
