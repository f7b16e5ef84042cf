/// SplitMix64: a small generator whose output depends on its seed alone, so a fuzz run and a
/// generated mock answer repeat exactly from `--seed`.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// A generator for one part of a run (an operation, a request), independent of the others:
    /// the seed mixed with the part's name.
    public init(seed: UInt64, part: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in part.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        state = seed ^ hash
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
