import Foundation
@testable import Targets
import Testing

/// The plain client's checks of header fields before anything is sent.
@Suite struct PlainHTTPRequestHeadTests {
    /// The eight-bytes-at-a-time scan finds what a byte-by-byte one finds, at every position,
    /// among tabs (allowed), UTF-8 (allowed) and every control character.
    @Test func theControlCharacterScanAgreesWithAPlainOne() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = Array(0x20...0x7E) + [0x09, 0xC3, 0xA9, 0xFF, 0x80]
        for _ in 0..<5_000 {
            var bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            if !bytes.isEmpty, Bool.random(using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = [0x00, 0x0A, 0x0D, 0x1F, 0x7F, 0x08].randomElement(using: &generator)!
            }
            let expected = bytes.first { $0 != 0x09 && ($0 < 0x20 || $0 == 0x7F) }
            let found = bytes.withUnsafeBufferPointer(PlainHTTPRequestHead.firstControlCharacter)
            #expect(found == expected, "\(bytes)")
        }
    }

    @Test func aHeaderThatCannotBeSentIsSaidByNameAndWhy() {
        #expect(PlainHTTPRequestHead.problem(in: [Header(name: "X-A", value: "ok\tfine é")]) == nil)
        #expect(PlainHTTPRequestHead.problem(in: [Header(name: "X-A", value: String(repeating: "a", count: 20) + "\r\nInjected: 1")])
                == "the value of header X-A holds a line break, which HTTP does not allow in a header")
        #expect(PlainHTTPRequestHead.problem(in: [Header(name: "X-A", value: "bell\u{7}")])
                == "the value of header X-A holds a control character, which HTTP does not allow in a header")
        #expect(PlainHTTPRequestHead.problem(in: [Header(name: "X A", value: "1")])?.hasPrefix("the header name 'X A'") == true)
    }
}
