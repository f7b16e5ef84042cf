import Foundation
import Synchronization

/// Secret values with every form of each (``SecretForms/of(_:)``), ready to mask text: the one
/// masking routine behind ``Redaction`` and the shell's mask. The forms are computed when a value
/// is added, so masking a text costs one pass over its bytes however many forms there are.
public struct SecretSet: Sendable {
    /// The values as given, in the order they were added; shorter ones than
    /// ``SecretForms/minimumLength`` and repeats are left out.
    public private(set) var values: [String] = []
    private var valueSet: Set<String> = []
    /// The forms of all values as bytes, each once.
    private var forms: [[UInt8]] = []
    private var formSet: Set<[UInt8]> = []
    private var finder = LazyFinder([])

    /// A set holding `values`.
    public init(_ values: [String] = []) {
        for value in values { _ = insert(value) }
        finder = LazyFinder(forms)
    }

    /// Whether nothing is masked.
    public var isEmpty: Bool { values.isEmpty }

    /// Adds `value` and its forms, unless it is too short or already there.
    public mutating func add(_ value: String) {
        if insert(value) { finder = LazyFinder(forms) }
    }

    /// This set with `more` values added; without their base64 forms when `base64` is false (the
    /// many credentials one answer can issue, which a server does not echo encoded).
    public func adding(_ more: [String], base64: Bool = true) -> SecretSet {
        var set = self
        var changed = false
        for value in more where set.insert(value, base64: base64) { changed = true }
        if changed { set.finder = LazyFinder(set.forms) }
        return set
    }

    /// Adds `value` and its forms, but not to the finder; whether it was new.
    private mutating func insert(_ value: String, base64: Bool = true) -> Bool {
        guard value.count >= SecretForms.minimumLength, valueSet.insert(value).inserted else { return false }
        values.append(value)
        for form in SecretForms.of(value, base64: base64) {
            let bytes = Array(form.utf8)
            if formSet.insert(bytes).inserted { forms.append(bytes) }
        }
        return true
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
        let ranges = finder.built.covered(in: bytes)
        guard !ranges.isEmpty else { return nil }
        var output: [UInt8] = []
        var copied = 0
        for range in ranges { Self.flush(range, of: bytes, copied: &copied, into: &output) }
        output.append(contentsOf: bytes[copied...])
        return output
    }

    /// Copies what comes before `range`, then `***` for it.
    private static func flush(_ range: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>, copied: inout Int, into output: inout [UInt8]) {
        output.append(contentsOf: bytes[copied..<range.lowerBound])
        output.append(contentsOf: Redaction.placeholder.utf8)
        copied = range.upperBound
    }
}

/// The finder of a set's forms, built when a text is first masked after values were added: values
/// added one at a time (an environment file's, a collection's, a secret JSON value's parts) cost
/// one build, not one each.
private final class LazyFinder: Sendable {
    private let forms: [[UInt8]]
    private let finder = Mutex<ManyStringsFinder?>(nil)

    init(_ forms: [[UInt8]]) {
        self.forms = forms
    }

    var built: ManyStringsFinder {
        finder.withLock { finder in
            if let finder { return finder }
            let made = ManyStringsFinder(forms)
            finder = made
            return made
        }
    }
}
