/// Sends one request and gives back its response: the network, or a stub.
public protocol Transport: Sendable {
    /// Sends `request` for `target`. Failures are ``ProviderError``s at step `.transport` (or `.stub`);
    /// any status, 500 included, is a response, as validation is the provider's job.
    func send<T: TargetType>(_ request: Request, for target: T) async throws(ProviderError) -> Response
}

/// The rest of the send as a plugin's `intercept` sees it: call it to send (again), or don't.
public typealias SendClosure = @Sendable (Request) async throws(ProviderError) -> Response
