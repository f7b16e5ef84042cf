/// Finds any of a few lowercase ASCII words (3 bytes or more) inside ASCII text, in any case: the
/// scan behind sensitive names (`key`, `token`, `sess`, ...), which the call history runs over every
/// header name and every body it records.
///
/// A word of 3 bytes or more starting at an even offset has its first two bytes at that offset,
/// and one starting at an odd offset has its second and third at the next, even, one. So only the
/// pairs at even offsets are read, each as one 16-bit load into a table of those pairs, and the
/// words are compared only where a pair is in the table. Eight bytes are read at once, and
/// passed over when none of their four pairs is in the table.
struct ASCIIPartFinder: Sendable {
    /// The words, lowercase.
    let parts: [[UInt8]]
    /// Whether a pair of bytes (the first in the low byte) is a word's first two or its second and third, in any case.
    private let pairs: [Bool]

    /// A finder of `parts`: lowercase ASCII, each 3 bytes or more (a shorter one is left out).
    init(_ parts: [String]) {
        self.parts = parts.map { Array($0.utf8) }.filter { $0.count >= 3 }
        var pairs = [Bool](repeating: false, count: 1 << 16)
        for part in self.parts {
            for offset in 0...1 {
                for first in Self.cases(part[offset]) {
                    for second in Self.cases(part[offset + 1]) {
                        pairs[Int(first) | Int(second) << 8] = true
                    }
                }
            }
        }
        self.pairs = pairs
    }

    /// A byte in both cases when it is a lowercase ASCII letter, else itself.
    private static func cases(_ byte: UInt8) -> [UInt8] {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? [byte, byte & ~0x20] : [byte]
    }

    /// Whether `bytes` hold one of the words in ASCII letters of any case.
    func occurs(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 3, let base = bytes.baseAddress else { return false }
        return pairs.withUnsafeBufferPointer { table in
            guard let table = table.baseAddress else { return false }
            let raw = UnsafeRawPointer(base)
            var offset = 0
            let lastPair = bytes.count - 2
            while offset <= lastPair {
                // Eight bytes, four pairs, at once: passed over together when no pair is in the table.
                if offset + 8 <= bytes.count {
                    let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                    if !table[Int(truncatingIfNeeded: word & 0xFFFF)], !table[Int(truncatingIfNeeded: (word >> 16) & 0xFFFF)],
                       !table[Int(truncatingIfNeeded: (word >> 32) & 0xFFFF)], !table[Int(truncatingIfNeeded: word >> 48)] {
                        offset += 8
                        continue
                    }
                }
                let pair = UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
                if table[Int(pair)], (offset > 0 && startsPart(at: offset - 1, in: bytes)) || startsPart(at: offset, in: bytes) {
                    return true
                }
                offset += 2
            }
            return false
        }
    }

    /// Whether one of the words starts at `start` of `bytes`.
    private func startsPart(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let first = Redaction.asciiLowercased(base[start])
        for part in parts where part[0] == first && start + part.count <= bytes.count && Redaction.holds(part, at: base + start) {
            return true
        }
        return false
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether every byte is ASCII, read as one OR of them all.
    var isASCII: Bool {
        var any: UInt8 = 0
        for byte in self { any |= byte }
        return any < 0x80
    }
}
