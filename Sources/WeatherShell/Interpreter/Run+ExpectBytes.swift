import Checks
import Foundation
import Targets

extension Run {
    /// Whether the expectation compares the body's bytes: `bytes` with no filter.
    func isByteComparison(_ expectation: Expectation) -> Bool {
        guard case .query(let query) = expectation.subject else { return false }
        return query.source == .bytes && query.filters.isEmpty
    }

    /// `expect bytes OP VALUE`: the body's bytes against a byte literal (`hex:`, `base64:`,
    /// `@file`, or text as UTF-8), with `== != contains startsWith endsWith`, `exists` and `isEmpty`.
    /// The values come back as `hex:` text, for the failure's notes.
    func byteOutcome(of expectation: Expectation) throws -> (passed: Bool, actual: JSONValue?, expected: JSONValue?, missing: String) {
        guard case .query(let query) = expectation.subject, let response = lastResponse else {
            throw failure("no response yet: call a target first", at: expectation.span)
        }
        _ = try lookUp(query)
        let actual = Array(response.body)
        var expected: [UInt8] = []
        if let word = expectation.expected {
            do {
                expected = try ByteLiteral.bytes(try expand(word).text, quoted: word.isQuoted, directory: currentFile.directory)
            } catch let error as ByteLiteral.Failure {
                throw failure(error.message, at: word.span, notes: ["bytes are written hex:48690a, base64:SGkK or @path/to/file"])
            }
        }
        var passed: Bool
        switch expectation.op {
        case .exists: passed = true
        case .isEmpty: passed = actual.isEmpty
        case .equal, .notEqual: passed = (actual == expected) == (expectation.op == .equal)
        case .startsWith: passed = actual.starts(with: expected)
        case .endsWith: passed = actual.count >= expected.count && actual.suffix(expected.count).elementsEqual(expected)
        case .contains: passed = expected.isEmpty || Self.firstRange(of: expected, in: actual) != nil
        default:
            throw failure("bytes compare with == != contains startsWith endsWith exists isEmpty", at: expectation.span,
                          notes: ["for text, query body; for a digest, bytes | sha256"])
        }
        if expectation.negated { passed.toggle() }
        return (passed, .string(ByteLiteral.text(actual)), expectation.expected == nil ? nil : .string(ByteLiteral.text(expected)), "")
    }

    /// Where `needle` first occurs in `haystack`.
    private static func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count, let first = needle.first else { return nil }
        var index = 0
        while index + needle.count <= haystack.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
