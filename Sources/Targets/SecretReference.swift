/// A secret's value and the environment variable it came from: a printed command names the
/// variable (`"Bearer $GITHUB_TOKEN"`) where the request holds the value.
public struct SecretReference: Sendable, Equatable {
    /// The value as the request carries it.
    public var value: String
    /// The environment variable that holds it, a valid sh name.
    public var environmentName: String

    /// A reference; `environmentName` must satisfy ``ShellWord/isVariableName(_:)``.
    public init(value: String, environmentName: String) {
        self.value = value
        self.environmentName = environmentName
    }
}
