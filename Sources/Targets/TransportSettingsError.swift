/// Settings of the transport that cannot be used, said for the person who gave them: the file
/// they named and what is wrong with it, or the proxy URL with its password masked.
public struct TransportSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The whole sentence, as in `cannot read CA certificates from 'ca.pem': no such file or directory`.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String {
        message
    }
}
