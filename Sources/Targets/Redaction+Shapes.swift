import Foundation

extension Redaction {
    /// `body` with the credentials a server issues masked by their shape, wherever they are and
    /// under any name, as secret scanners find them: a JWT (`eyJ...` `.` `eyJ...` `.` signature)
    /// becomes `***`, so does the password of a URL's user info (`postgres://u:***@h/db`) and the
    /// value after `Bearer ` or `Basic ` (8 or more token characters that are not a plain word:
    /// `Bearer ***`, while `Basic authentication` is prose). The bytes are scanned once for
    /// `eyJ`, `://`, `Bearer ` and `Basic `, and only around a hit is anything rewritten: a body with no
    /// hit, or that is not UTF-8 text, is returned as it is, whatever its size.
    public static func maskedCredentialShapes(_ body: Data) -> Data {
        let hits: [Range<Int>] = body.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var found = occurrences(of: "eyJ", anchor: 2, in: bytes).compactMap { jwt(at: $0, in: bytes) }
            // A URL's user info needs an `@`: most bodies with links have none, and are not scanned for `://`.
            if let base = raw.baseAddress, memchr(base, Int32(UInt8(ascii: "@")), raw.count) != nil {
                found += occurrences(of: "://", in: bytes).compactMap { userInfoPassword(after: $0, in: bytes) }
            }
            for scheme in ["Bearer ", "bearer ", "Basic ", "basic "] {
                found += occurrences(of: scheme, in: bytes).compactMap { schemeValue(at: $0, length: scheme.utf8.count, in: bytes) }
            }
            return found
        }
        // A binary body (not UTF-8) is never rewritten: its bytes only look like a URL by chance.
        guard !hits.isEmpty, String(data: body, encoding: .utf8) != nil else { return body }
        var masked = Data()
        masked.reserveCapacity(body.count)
        var copied = 0
        for hit in hits.sorted(by: { $0.lowerBound < $1.lowerBound }) where hit.lowerBound >= copied {
            masked.append(body[body.startIndex + copied..<body.startIndex + hit.lowerBound])
            masked.append(contentsOf: placeholder.utf8)
            copied = hit.upperBound
        }
        masked.append(body[(body.startIndex + copied)...])
        return masked
    }

    /// The offsets where `needle` (ASCII) starts in `bytes`, found with `memchr` on its byte at
    /// `anchor`, the rarest in text (`J` of `eyJ`), so that common letters cost no call each.
    private static func occurrences(of needle: String, anchor: Int = 0, in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        let word = Array(needle.utf8)
        guard let base = bytes.baseAddress, bytes.count >= word.count else { return [] }
        var offsets: [Int] = []
        var from = anchor
        let last = bytes.count - word.count + anchor
        while from <= last, let found = memchr(base + from, Int32(word[anchor]), last - from + 1) {
            let offset = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base - anchor
            if memcmp(base + offset, word, word.count) == 0 { offsets.append(offset) }
            from = offset + anchor + 1
        }
        return offsets
    }

    /// The JWT starting at `start`: `eyJ` base64url, `.`, `eyJ` base64url, `.`, base64url (empty for `alg: none`).
    private static func jwt(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard start == 0 || !isBase64URL(bytes[start - 1]) else { return nil }
        var end = start
        for part in 0..<3 {
            let partStart = end
            while end < bytes.count, isBase64URL(bytes[end]) { end += 1 }
            if part < 2 {
                // The payload opens a JSON object as the header does: `eyJ` is `{"` in base64.
                guard end < bytes.count, bytes[end] == UInt8(ascii: "."), end - partStart > 3 else { return nil }
                end += 1
                if part == 0 {
                    guard end + 3 <= bytes.count, bytes[end] == UInt8(ascii: "e"), bytes[end + 1] == UInt8(ascii: "y"),
                          bytes[end + 2] == UInt8(ascii: "J") else { return nil }
                }
            }
        }
        return start..<end
    }

    /// After the `://` at `start`, the password of the user info (`scheme://user:PASSWORD@host`):
    /// from the first `:` to the last `@` before the authority ends (a `/`, `?`, `#`, quote,
    /// backslash, angle bracket or white space). The scan stops there, so it never passes over
    /// another `://`.
    private static func userInfoPassword(after start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard start > 0, isAlphanumeric(bytes[start - 1]) else { return nil }
        var colon: Int?
        var at: Int?
        var index = start + 3
        while index < bytes.count, !authorityEnds(bytes[index]) {
            if bytes[index] == UInt8(ascii: ":"), colon == nil { colon = index }
            if bytes[index] == UInt8(ascii: "@") { at = index }
            index += 1
        }
        guard let colon, let at, colon + 1 < at else { return nil }
        return colon + 1..<at
    }

    /// After `Bearer ` or `Basic ` (either in small letters) at `start`, `length` bytes, that
    /// start a word: the credential, when it is 8 or more token68 characters and not a plain word (it
    /// holds a digit, a symbol or a capital after its first letter).
    private static func schemeValue(at start: Int, length: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard start == 0 || !isAlphanumeric(bytes[start - 1]) else { return nil }
        let valueStart = start + length
        var end = valueStart
        while end < bytes.count, isAlphanumeric(bytes[end]) || "-._~+/=".utf8.contains(bytes[end]) { end += 1 }
        // A sentence's full stop or comma after a word (`Basic authentication.`) is not the word's.
        var wordEnd = end
        while wordEnd > valueStart, ".,".utf8.contains(bytes[wordEnd - 1]) { wordEnd -= 1 }
        let lower = UInt8(ascii: "a")...UInt8(ascii: "z")
        let plainWord = wordEnd > valueStart && (lower.contains(bytes[valueStart]) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[valueStart]))
            && bytes[(valueStart + 1)..<wordEnd].allSatisfy { lower.contains($0) }
        return end - valueStart >= 8 && !plainWord ? valueStart..<end : nil
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    private static func authorityEnds(_ byte: UInt8) -> Bool {
        "/?#\"'\\<> \t\r\n".utf8.contains(byte)
    }
}
