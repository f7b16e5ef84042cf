import Foundation
import Fuzzing

/// A deterministic generator (SplitMix64, `wsh fuzz`'s): random input made from a seed can be made
/// again from it.
public typealias SeededGenerator = SeededRandom

extension SeededRandom {
    /// The variable that replays a run: `WSH_TEST_SEED=1234 swift test --filter ...`.
    public static let seedVariable = "WSH_TEST_SEED"

    /// The seed of this run: `$WSH_TEST_SEED` when set, else a fresh random one.
    public static func seed() -> UInt64 {
        ProcessInfo.processInfo.environment[seedVariable].flatMap { UInt64($0) } ?? UInt64.random(in: .min ... .max)
    }
}
