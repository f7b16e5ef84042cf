import Checks
import Targets

/// A shell variable; values that came from `env` are secrets.
struct Variable {
    var value: String
    var isSecret: Bool
    /// The environment variable it came from, shown by `vars`.
    var environmentName: String?
    /// How a secret was written, so that `save` can write it again without its value.
    var secretSource: SecretSource?
    /// The value with its type (LANGUAGE.md, "Values and types"): a number, a list...; nil when it was given as text.
    var typed: JSONValue?

    /// A variable holding `value` with its type; its text is the raw text of a string, else JSON text.
    init(typed value: JSONValue) {
        self.value = Run.text(value)
        self.isSecret = false
        self.typed = value
    }

    init(value: String, isSecret: Bool, environmentName: String? = nil, secretSource: SecretSource? = nil) {
        self.value = value
        self.isSecret = isSecret
        self.environmentName = environmentName
        self.secretSource = secretSource
    }

    /// Set from `bytes` (its `hex:` text): `expect bytes == $name` reads it back as bytes.
    var holdsBytes = false
    /// The environment file it came from (`set env NAME`), which `vars` names; `save` writes
    /// `set env NAME` rather than the value.
    var environmentFile: String?

    /// The value as `let` would write it to give it back with its type: a string that reads as a
    /// number, `true`, `false` or `null` is quoted (`"3"`), a number is bare (`3`). A list or
    /// object is its JSON text, which `let` reads back as a string: the language has no JSON literal.
    var writtenValue: String {
        // A list of plain values as JSON, which reads back as the list: `["a","b"]`.
        if case .array? = typed, let json = typed?.compactText, !json.contains(where: { " \t;#{}'$\\".contains($0) }) { return json }
        guard case .string(let text)? = typed, Run.quoted(text) == text else { return Run.quoted(value) }
        if case .string = TypedValues.literal(text, quoted: false) { return text }
        return "\"" + text.map(Run.escaped).joined() + "\""
    }

    /// The value as `save` writes it, so that it reads back with its type: as ``writtenValue``,
    /// but an object, or a list that cannot be bare (`[{"a":1}]`), as quoted JSON that
    /// `jsonpath "$"` reads back as the value (a `{` would open a block).
    var savedValue: String {
        guard let typed, typed.isObjectOrArray, writtenValue.first != "[" else { return writtenValue }
        return Run.quoted(typed.compactText) + " | jsonpath \"$\""
    }

    /// The value with its type; text given no type (an action's parameter, `$error`) is typed as a bare word would be.
    var typedValue: JSONValue { typed ?? TypedValues.literal(value, quoted: false) }
}

/// A secret variable's value as written (`env KEY or "demo"`, `"Bearer $token"`): `save` writes
/// this text, never the value, when it still gives the same value.
struct SecretSource {
    /// The value expression's text in its file.
    var text: String
    /// The expression, evaluated again by `save` to check that the text still gives the value.
    var expression: ValueExpression
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

/// Hides secret values in text shown to the user: `***` in their place, in every form a request
/// gives them (``SecretForms``). A value that has been a secret stays masked for the rest of the
/// session, even after its variable is unset or set again: another variable, a credential or the
/// history may still hold it.
struct SecretMask: Sendable {
    /// The values and their forms, computed once when a value is added.
    private(set) var secrets = SecretSet()

    /// The values masked, without their forms.
    var values: [String] { secrets.values }

    /// The values ``add(_:)`` added, without those ``addDerived(_:)`` added.
    private(set) var sources = SecretSet()

    /// Masks `value` from now on; values shorter than ``SecretForms/minimumLength`` are not masked.
    mutating func add(_ value: String) {
        secrets.add(value)
        sources.add(value)
    }

    /// Masks `values` from now on, as ``add(_:)`` each: the parts of a secret JSON value, in one go.
    mutating func add(contentsOf values: [String]) {
        secrets = secrets.adding(values)
        sources = sources.adding(values)
    }

    /// Masks `value` from now on, as a filter made it from the echo of a secret (`appid=k3y` of
    /// `.query | split "-"`): not among ``sources``, with which the next filter's input is read,
    /// so that what such a value holds beside the secret (`appid`) is not taken for one.
    mutating func addDerived(_ value: String) {
        secrets.add(value)
    }

    /// ``addDerived(_:)`` of each of `values`, in one go.
    mutating func addDerived(contentsOf values: [String]) {
        secrets = secrets.adding(values)
    }

    func callAsFunction(_ text: String) -> String {
        secrets.mask(text)
    }
}
