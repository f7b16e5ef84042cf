import AsyncHTTPClient
import NIOCore

extension HTTPClientOwner {
    /// An owner whose clients are made with `configuration` changed by `settings`: the HTTP
    /// version and TLS on every client, and a client per proxy when the proxy rules name one.
    /// With no proxy in the rules and TLS settings that loaded, ``proxied`` is nil and every request
    /// takes ``client`` without a further look.
    convenience init(
        configuration: HTTPClient.Configuration, settings: TransportSettings, environment: [String: String],
        eventLoopGroup: any EventLoopGroup
    ) {
        var configuration = configuration
        // `.http2` too is automatic: HTTP/2 is offered by ALPN over TLS; AsyncHTTPClient has no h2c.
        configuration.httpVersion = settings.httpVersion == .http1 ? .http1Only : .automatic
        var tlsFailure: TransportSettingsError?
        do {
            if let tls = try TLSSettings.configuration(settings, environment: environment) {
                configuration.tlsConfiguration = tls
            }
        } catch {
            tlsFailure = error
        }
        let rules = ProxyRules(settings.proxy, environment: environment)
        let proxied = rules.isDirect && tlsFailure == nil
            ? nil
            : ProxiedClients(rules: rules, tlsFailure: tlsFailure, configuration: configuration, eventLoopGroup: eventLoopGroup)
        self.init(configuration: configuration, eventLoopGroup: eventLoopGroup, proxied: proxied)
    }
}
