/// A shell variable; values that came from `env` are secrets.
struct Variable {
    var value: String
    var isSecret: Bool
    /// The environment variable it came from, shown by `vars`.
    var environmentName: String?
}

/// The variables of a session, in the order they were first set.
struct Variables {
    private(set) var names: [String] = []
    private var storage: [String: Variable] = [:]

    subscript(name: String) -> Variable? {
        get { storage[name] }
        set {
            if storage[name] == nil, newValue != nil { names.append(name) }
            if newValue == nil, storage[name] != nil { names.removeAll { $0 == name } }
            storage[name] = newValue
        }
    }

    /// Every secret value, for masking.
    var secretValues: [String] { names.compactMap { storage[$0].flatMap { $0.isSecret ? $0.value : nil } } }
}

/// Hides secret values in text shown to the user: `***` in their place. A value that has been
/// a secret stays masked for the rest of the session, even after its variable is unset or set
/// again: another variable, a credential or the history may still hold it.
struct SecretMask: Sendable {
    /// Values shorter than this are not masked by value: masking every "a" would garble all output.
    static let minimumLength = 3
    private(set) var values: [String] = []

    mutating func add(_ value: String) {
        guard value.count >= Self.minimumLength, !values.contains(value) else { return }
        values.append(value)
        values.sort { $0.count > $1.count }
    }

    func callAsFunction(_ text: String) -> String {
        guard !values.isEmpty else { return text }
        var result = text
        for value in values where result.contains(value) {
            result = result.replacingAll(value, with: "***")
        }
        return result
    }
}

extension String {
    /// Replaces every occurrence of `target` (without Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}
