import Checks
import Foundation
import Targets

extension Run {
    /// Whether the expectation compares bytes: `bytes` or `rawbytes` with no filter, a query
    /// whose last filter makes bytes (`.b64 | base64Decode == hex:416461`, as Hurl writes it), or a
    /// digest against a byte literal (`bytes | sha256 == hex:d44c…`, Hurl's `sha256 == hex,…;`).
    func isByteComparison(_ expectation: Expectation) -> Bool {
        guard case .query(let query) = expectation.subject else { return false }
        if let last = query.filters.last {
            if Self.digestFilters.contains(last), let word = expectation.expected, writesByteSyntax(word) { return true }
            return [.base64Decode, .base64UrlSafeDecode, .utf8Encode].contains(last)
        }
        // `body == @file` and `body == hex:...` compare the body's bytes with those, as Hurl's `body == file,...;`.
        if query.source == .body, let word = expectation.expected, writesByteSyntax(word) { return true }
        return query.source == .bytes || query.source == .rawBytes
    }

    /// `expect bytes OP VALUE` (or `body`, against a literal in byte syntax): the body's bytes against a byte literal (`hex:`, `base64:`,
    /// `@file`, or text as UTF-8), with `== != contains startsWith endsWith`, `exists` and `isEmpty`.
    /// The values come back as `hex:` text, for the failure's notes.
    func byteOutcome(of expectation: Expectation) throws -> (passed: Bool, actual: JSONValue?, expected: JSONValue?, missing: String) {
        guard case .query(let query) = expectation.subject else { throw failure(noResponseMessage, at: expectation.span) }
        let actual: [UInt8]
        var actualIsSecret = false
        if query.filters.isEmpty {
            _ = try lookUp(query)
            guard let response = lastResponse else { throw failure(noResponseMessage, at: expectation.span) }
            actual = Array(query.source == .rawBytes ? try rawBody(of: response, query) : response.body)
        } else {
            // The filters' bytes as the hex of every byte, which no text they decode to can mimic; a
            // digest is the hex of its bytes already, taken of the true value (a cookie named like a
            // secret too) and shown masked when that value shows masked.
            let digest = query.filters.last.map(Self.digestFilters.contains) == true
            var hexQuery = query
            if !digest { hexQuery.filters.append(.toHex) }
            let (hex, missing) = try lookUp(hexQuery, unmasked: digest)
            if digest, query.readsMaskedValues, try lookUp(hexQuery).value != hex { actualIsSecret = true }
            guard case .string(let digits)? = hex,
                  case .success(let bytes) = Result(catching: { () throws(ByteLiteral.Failure) -> [UInt8] in
                      try ByteLiteral.bytes("hex:" + digits, quoted: false, directory: "")
                  }) else {
                // Nothing reached: only `not exists` holds, as for any other query.
                return (expectation.op == .exists && expectation.negated, nil, nil, missing)
            }
            actual = bytes
        }
        var expected: [UInt8] = []
        var expectedIsSecret = false
        if let word = expectation.expected {
            let expanded = try expand(word)
            expectedIsSecret = expanded.isSecret
            let literal = writesByteSyntax(word)
            let directory = currentFile.directory
            let parsed = Result { () throws(ByteLiteral.Failure) -> [UInt8] in
                try ByteLiteral.bytes(expanded.text, quoted: !literal, directory: directory)
            }
            switch parsed {
            case .success(let bytes): expected = bytes
            case .failure(let error):
                throw failure(mask(error.message), at: word.span, notes: ["bytes are written hex:48690a, base64:SGkK or @path/to/file"])
            }
        }
        var passed: Bool
        switch expectation.op {
        case .exists: passed = true
        case .isEmpty: passed = actual.isEmpty
        case .equal, .notEqual: passed = (actual == expected) == (expectation.op == .equal)
        case .startsWith: passed = actual.starts(with: expected)
        case .endsWith: passed = actual.count >= expected.count && actual.suffix(expected.count).elementsEqual(expected)
        case .contains: passed = expected.isEmpty || actual.firstRange(of: expected) != nil
        default:
            throw failure("bytes compare with == != contains startsWith endsWith exists isEmpty", at: expectation.span,
                          notes: ["for text, query body; for a digest, bytes | sha256"])
        }
        if expectation.negated { passed.toggle() }
        let expectedText = expectedIsSecret ? Redaction.placeholder : maskedByteText(expected)
        let actualText = actualIsSecret ? Redaction.placeholder : maskedByteText(actual)
        return (passed, .string(actualText), expectation.expected == nil ? nil : .string(expectedText), "")
    }

    /// Filters whose result is a digest's bytes, written as their hex.
    private static let digestFilters: [QueryFilter] = [.sha256, .md5]

    /// Whether `word` is written as bytes: `hex:`, `base64:` or `@FILE` in the script's own text,
    /// or only `$name` of a variable set from `bytes`. Syntax in a value that came from elsewhere (a
    /// server's answer in a variable) is text, so that no answer can make `expect` read a file.
    private func writesByteSyntax(_ word: Word) -> Bool {
        guard let first = word.parts.first, !first.quoted else { return false }
        switch first.content {
        case .literal(let text):
            return text.hasPrefix("hex:") || text.hasPrefix("base64:") || text.hasPrefix("@")
        case .variable(let name):
            return word.parts.count == 1 && variable(named: name)?.holdsBytes == true
        }
    }

    /// Bytes as `hex:` text for notes and `print`; when their text holds a secret, the hex of that
    /// text with the secret masked, so that no secret is shown in hex either.
    func maskedByteText(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        let masked = mask(text)
        return masked == text ? ByteLiteral.text(bytes) : ByteLiteral.text(Array(masked.utf8)) + " (secrets masked)"
    }
}
