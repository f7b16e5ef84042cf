import Foundation
@testable import Targets
import TestSupport
import Testing

/// The finder behind every mask: what it covers is what trying each string at each byte covers.
@Suite struct ManyStringsFinderTests {
    private static func covered(_ strings: [String], in text: String) -> [Range<Int>] {
        var text = text
        return text.withUTF8 { ManyStringsFinder(strings.map { Array($0.utf8) }).covered(in: $0) }
    }

    /// Every occurrence of every string, merged where they overlap or touch, by trying each string
    /// at each byte.
    private static func coveredOneByOne(_ strings: [String], in text: String) -> [Range<Int>] {
        let bytes = Array(text.utf8)
        var hit = [Bool](repeating: false, count: bytes.count + 1)
        for string in strings.map({ Array($0.utf8) }) where !string.isEmpty && string.count <= bytes.count {
            for start in 0...(bytes.count - string.count) where Array(bytes[start..<(start + string.count)]) == string {
                for index in start..<(start + string.count) { hit[index] = true }
            }
        }
        var ranges: [Range<Int>] = []
        var start: Int?
        for index in hit.indices {
            if hit[index], start == nil { start = index }
            if !hit[index], let from = start {
                ranges.append(from..<index)
                start = nil
            }
        }
        return ranges
    }

    @Test func aStringInsideAnotherAndOneThatEndsAnotherAreFound() {
        // "she" ends inside "ushers"; "he" and "hers" follow the fallback from "she".
        #expect(Self.covered(["he", "she", "his", "hers"], in: "ushers") == [1..<6])
        #expect(Self.covered(["abcd", "bc"], in: "xabcx") == [2..<4])
        #expect(Self.covered(["abc", "cde"], in: "abcde abc cde") == [0..<5, 6..<9, 10..<13])
        #expect(Self.covered(["ab", "cd"], in: "abcd") == [0..<4])
        #expect(Self.covered([], in: "abc").isEmpty)
        #expect(Self.covered(["", "zz"], in: "abc").isEmpty)
    }

    @Test func itCoversWhatTryingEachStringAtEachByteCovers() {
        let seed = SeededGenerator.seed()
        var generator = SeededGenerator(seed: seed)
        // Few letters, so strings share prefixes and suffixes and occur often.
        let letters = ["a", "b", "c", "é"]
        func word(_ length: ClosedRange<Int>) -> String {
            (0..<Int.random(in: length, using: &generator)).map { _ in letters.randomElement(using: &generator) ?? "a" }.joined()
        }
        for _ in 0..<500 {
            let strings = (0..<Int.random(in: 1...8, using: &generator)).map { _ in word(1...5) }
            let text = word(0...40)
            #expect(Self.covered(strings, in: text) == Self.coveredOneByOne(strings, in: text),
                    "seed \(seed): \(strings) in \(text)")
        }
    }

    @Test func thousandsOfTokensWithOnePrefixAreEachMasked() {
        let tokens = (0..<5000).map { "tok\(String($0, radix: 16))-\($0 * 7919)" }
        let set = SecretSet(tokens)
        let text = tokens.map { "{\"access_token\":\"\($0)\"}" }.joined(separator: ",")
        #expect(set.mask(text) == Array(repeating: "{\"access_token\":\"***\"}", count: tokens.count).joined(separator: ","))
    }
}
