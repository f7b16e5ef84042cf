import AsyncHTTPClient
import NIOCore
import NIOPosix

/// The client one request goes through, and the proxy on the way if any.
struct Route {
    let client: HTTPClient
    let proxy: ProxyServer?

    /// `error` as the people who chose this route need it: a failure of the proxy names the proxy
    /// (never its credentials), a certificate that failed verification says why, by a second
    /// handshake that reads the certificate without judging it, a refused tunnel with the proxy's
    /// status, by a second CONNECT (``ConnectRefusal``) that waits no later than the request's
    /// `deadline`. Other errors come back unchanged.
    func explained(_ error: any Error, for request: HTTPClient.Request, deadline: NIODeadline?) async -> any Error {
        if let proxy, (error as? HTTPClientError) == .invalidProxyResponse {
            // An IPv6 host comes in brackets, which ProxyServer adds itself.
            let host = request.host.hasPrefix("[") ? String(request.host.dropFirst().dropLast()) : request.host
            let target = ProxyServer(kind: .http, host: host, port: request.port)
            return RouteFailure(message: await ConnectRefusal.message(
                proxy: proxy, target: target, group: client.eventLoopGroup, deadline: deadline))
        }
        if let proxy, let failure = RouteFailure.proxy(error, proxy: proxy, request: request) {
            return failure
        }
        guard request.useTLS, TLSDiagnosis.isVerificationFailure(error) else { return error }
        let host = request.host
        guard proxy == nil else {
            return RouteFailure(message: TLSDiagnosis.untrusted(host: host))
        }
        return RouteFailure(message: await TLSDiagnosis.explain(host: host, port: request.port, group: client.eventLoopGroup))
    }
}

extension HTTPClientOwner {
    /// The route of `request`: the direct client unless ``proxied`` sends it through a proxy.
    /// Throws what makes the request impossible: a proxy named but unusable, TLS settings that did not load.
    func route(for request: HTTPClient.Request) throws(TransportSettingsError) -> Route {
        guard let proxied else { return Route(client: client, proxy: nil) }
        if request.useTLS, let failure = proxied.tlsFailure { throw failure }
        let scheme = request.scheme
        guard scheme == "http" || scheme == "https" else { return Route(client: client, proxy: nil) }
        switch proxied.rules.choice(scheme: scheme, host: request.host, port: request.port) {
        case .direct:
            return Route(client: client, proxy: nil)
        case .server(let server):
            return Route(client: proxied.client(for: server), proxy: server)
        case .unusable(let error):
            throw error
        }
    }
}
