/// Moya's `PluginType` plus `intercept` around the send, so that retry can be a plugin.
/// Every hook has a default that does nothing, so a plugin writes only the hooks it needs.
///
/// For one call, ``Provider/request(_:arguments:)`` runs the hooks in this order:
/// 1. `prepare` of each plugin in list order, each given the previous one's request;
/// 2. `intercept` as a chain, the first plugin outermost; calling `next` goes one plugin in;
/// 3. innermost, for every attempt: `willSend` of each plugin, the transport, `didReceive` of each plugin;
/// 4. after the chain returns: validation against the target's `validationType`;
/// 5. `process` of each plugin in list order, each given the previous one's result.
public protocol Plugin: Sendable {
    /// The name `plugins` lists.
    var name: String { get }
    /// Changes the request before it is sent, as in adding an Authorization header. May throw to stop the call.
    func prepare(_ request: Request, target: any TargetType) async throws(ProviderError) -> Request
    /// Sees the request just before each attempt goes to the transport.
    func willSend(_ request: Request, target: any TargetType) async
    /// Wraps the send: call `next` once to pass through, more often to retry, or not at all to answer itself.
    func intercept(_ request: Request, target: any TargetType, next: SendClosure) async throws(ProviderError) -> Response
    /// Sees what the transport gave back for each attempt, before validation.
    func didReceive(_ result: Result<Response, ProviderError>, target: any TargetType) async
    /// Changes the final result, after validation.
    func process(_ result: Result<Response, ProviderError>, target: any TargetType) async -> Result<Response, ProviderError>
}

extension Plugin {
    /// The type's name.
    public var name: String { String(describing: Self.self) }
    /// The request unchanged.
    public func prepare(_ request: Request, target: any TargetType) async throws(ProviderError) -> Request { request }
    /// Nothing.
    public func willSend(_ request: Request, target: any TargetType) async {}
    /// Sends once.
    public func intercept(
        _ request: Request, target: any TargetType, next: SendClosure
    ) async throws(ProviderError) -> Response {
        try await next(request)
    }
    /// Nothing.
    public func didReceive(_ result: Result<Response, ProviderError>, target: any TargetType) async {}
    /// The result unchanged.
    public func process(
        _ result: Result<Response, ProviderError>, target: any TargetType
    ) async -> Result<Response, ProviderError> {
        result
    }
}
