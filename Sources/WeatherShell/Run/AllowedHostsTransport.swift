import Foundation
import Fuzzing
import Targets

/// The transport of `wsh load`'s users and of `wsh fuzz`'s calls: `next` for loopback hosts and
/// those `--allow-host` names; any other is refused before a byte is sent. Every hop of a
/// redirect goes through it, so a Location elsewhere is refused too. The files `wsh fuzz` and
/// `wsh serve` run first send their calls through it as well (``Session/callGuard``), with
/// writes refused unless `writeRefusal` is nil.
struct AllowedHostsTransport: Transport {
    let allowed: [String]
    /// What is refused, as the refusal says it: `will not fuzz 192.0.2.2`, `will not call ...`
    /// for a file's own call.
    let action: String
    var next: any Transport = SessionEventLoop.transport
    /// Why a method other than GET, HEAD and OPTIONS is refused unsent; nil sends it.
    var writeRefusal: String?
    /// What the refusal of another host advises; nil: to give `--allow-host` (`wsh serve` has none).
    var otherHostAdvice: String?

    func send<T: TargetType>(_ request: Request, for target: T) async throws(ProviderError) -> Response {
        if let host = Run.refusedHost(request.url, allowed: allowed) {
            let name = host.isEmpty ? request.url : host
            let advice = otherHostAdvice ?? "give --allow-host \(host) if it is yours to test"
            throw ProviderError.other("will not \(action) \(name): it is not a loopback address; \(advice)", step: .transport, targetName: target.name)
        }
        if let writeRefusal, let method = Self.methods(of: request).first(where: { !FuzzOperation.readMethods.contains($0) }) {
            // The URL without its query, where a key may be.
            let url = request.url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.url
            throw ProviderError.other("will not send \(method) \(url): \(writeRefusal)", step: .transport, targetName: target.name)
        }
        return try await next.send(request, for: target)
    }

    /// The methods a server may act on: the request's, and one an override names
    /// (`X-HTTP-Method-Override: DELETE`, `?_method=DELETE`, as Rails, Laravel and many gateways honour).
    static func methods(of request: Request) -> [String] {
        let overrides = ["x-http-method-override", "x-http-method", "x-method-override"]
        var methods = [request.method.rawValue]
        methods += request.headers.filter { overrides.contains($0.name.lowercased()) }.map { $0.value.trimmingCharacters(in: .whitespaces).uppercased() }
        if let query = URLComponents(string: request.url)?.queryItems {
            methods += query.filter { $0.name == "_method" }.compactMap { $0.value?.uppercased() }
        }
        return methods.filter { !$0.isEmpty }
    }

    /// This guard in front of `transport`.
    func sending(through transport: any Transport) -> AllowedHostsTransport {
        var guarded = self
        guarded.next = transport
        return guarded
    }
}
