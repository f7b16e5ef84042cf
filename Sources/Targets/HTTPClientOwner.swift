import AsyncHTTPClient
import NIOCore

/// Owns one `HTTPClient` and shuts it down when the last transport using it goes away, because
/// AsyncHTTPClient stops a debug process whose client is deinitialised without a shutdown.
/// The client of ``NetworkTransport/shared`` lives in a global and is never deinitialised.
final class HTTPClientOwner: Sendable {
    let client: HTTPClient
    /// Proxies and unusable TLS settings; nil when every request goes through ``client`` as it is.
    let proxied: ProxiedClients?
    /// Where the last answer left a connection open (for resending on a connection found closed).
    let keptAlive = KeptAliveOrigins()
    /// How long connecting may take, for the requests ``ProxyForwarding`` sends.
    let connectTimeout: TimeAmount

    init(configuration: HTTPClient.Configuration, eventLoopGroup: any EventLoopGroup, proxied: ProxiedClients? = nil) {
        client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
        self.proxied = proxied
        connectTimeout = configuration.timeout.connect ?? .seconds(10)
    }

    deinit {
        // The client keeps itself alive until its shutdown completes; an error here means it was
        // already shut down by `NetworkTransport.shutdown()`.
        client.shutdown { _ in }
    }
}
