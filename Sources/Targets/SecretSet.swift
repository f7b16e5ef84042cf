import Foundation

/// Secret values with every form of each (``SecretForms/of(_:)``), ready to mask text: the one
/// masking routine behind ``Redaction`` and the shell's mask. The forms are computed when a value
/// is added, so masking a text costs one pass over its bytes however many forms there are.
public struct SecretSet: Sendable {
    /// The values as given, in the order they were added; shorter ones than
    /// ``SecretForms/minimumLength`` and repeats are left out.
    public private(set) var values: [String] = []
    /// The forms of all values as bytes, by their first byte, longest first in each bucket.
    private var formsByFirstByte: [[[UInt8]]] = []
    /// Whether some form starts with that byte: most bytes of a text are ruled out by this alone.
    private var startsAForm: [Bool] = []

    /// A set holding `values`.
    public init(_ values: [String] = []) {
        for value in values { add(value) }
    }

    /// Whether nothing is masked.
    public var isEmpty: Bool { values.isEmpty }

    /// Adds `value` and its forms, unless it is too short or already there.
    public mutating func add(_ value: String) {
        guard value.count >= SecretForms.minimumLength, !values.contains(value) else { return }
        values.append(value)
        if formsByFirstByte.isEmpty {
            formsByFirstByte = Array(repeating: [], count: 256)
            startsAForm = Array(repeating: false, count: 256)
        }
        for form in SecretForms.of(value) {
            let bytes = Array(form.utf8)
            guard let first = bytes.first, !formsByFirstByte[Int(first)].contains(bytes) else { continue }
            formsByFirstByte[Int(first)].append(bytes)
            startsAForm[Int(first)] = true
            formsByFirstByte[Int(first)].sort { $0.count > $1.count }
        }
    }

    /// This set with `more` values added.
    public func adding(_ more: [String]) -> SecretSet {
        var set = self
        for value in more { set.add(value) }
        return set
    }

    /// `text` with every form of every value replaced by `***`. Where matches overlap or touch, their
    /// union becomes one `***`, so that no part of a secret shows beside the mask of another.
    public func mask(_ text: String) -> String {
        guard !values.isEmpty else { return text }
        var text = text
        return text.withUTF8 { masked($0) }.map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    /// `data` with every form of every value replaced by `***`, byte for byte, as ``mask(_:)-(String)``
    /// does for text; bytes that are not UTF-8 (an image) are left as they are.
    public func mask(_ data: Data) -> Data {
        guard !values.isEmpty else { return data }
        return data.withUnsafeBytes { raw in masked(raw.bindMemory(to: UInt8.self)) }.map { Data($0) } ?? data
    }

    /// The bytes with every form masked, or nil when no form occurs in them.
    private func masked(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        var copied = 0
        var run: Range<Int>?
        for start in bytes.indices where startsAForm[Int(bytes[start])] {
            guard let form = formsByFirstByte[Int(bytes[start])].first(where: { Self.bytes(bytes, at: start, match: $0) }) else {
                continue
            }
            let end = start + form.count
            if let current = run, start <= current.upperBound {
                run = current.lowerBound..<max(current.upperBound, end)
                continue
            }
            if let current = run { Self.flush(current, of: bytes, copied: &copied, into: &output) }
            run = start..<end
        }
        guard let last = run else { return nil }
        Self.flush(last, of: bytes, copied: &copied, into: &output)
        output.append(contentsOf: bytes[copied...])
        return output
    }

    private static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, match form: [UInt8]) -> Bool {
        guard bytes.count - start >= form.count else { return false }
        for offset in form.indices where bytes[start + offset] != form[offset] { return false }
        return true
    }

    /// Copies what comes before `range`, then `***` for it.
    private static func flush(_ range: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>, copied: inout Int, into output: inout [UInt8]) {
        output.append(contentsOf: bytes[copied..<range.lowerBound])
        output.append(contentsOf: Redaction.placeholder.utf8)
        copied = range.upperBound
    }
}
