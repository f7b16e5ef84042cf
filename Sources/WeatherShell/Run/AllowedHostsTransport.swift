import Targets

/// The transport of `wsh load`'s users and of `wsh fuzz`'s calls: `next` for loopback hosts and
/// those `--allow-host` names; any other is refused before a byte is sent. Every hop of a
/// redirect goes through it, so a Location elsewhere is refused too.
struct AllowedHostsTransport: Transport {
    let allowed: [String]
    /// `load` or `fuzz`, as the refusal says it: `will not fuzz 192.0.2.2`.
    let action: String
    var next: any Transport = SessionEventLoop.transport

    func send<T: TargetType>(_ request: Request, for target: T) async throws(ProviderError) -> Response {
        if let host = Run.refusedHost(request.url, allowed: allowed) {
            throw ProviderError.other("will not \(action) \(host.isEmpty ? request.url : host): it is not a loopback address; give --allow-host \(host) if it is yours to test",
                                      step: .transport, targetName: target.name)
        }
        return try await next.send(request, for: target)
    }
}
