import AsyncHTTPClient
import NIOCore
import Synchronization

/// What a transport does beyond sending every request directly: proxies chosen per request
/// (``ProxyRules``), and TLS settings that failed to load. AsyncHTTPClient sets its proxy per
/// client, so each proxy gets a client of its own, made when a request first needs it.
final class ProxiedClients: Sendable {
    let rules: ProxyRules
    /// Why https:// requests cannot be sent: the TLS settings named a file that is gone or malformed
    /// since ``TransportSettings/check(environment:)``.
    let tlsFailure: TransportSettingsError?
    private let configuration: HTTPClient.Configuration
    private let eventLoopGroup: any EventLoopGroup
    private let clients = Mutex<[ProxyServer: HTTPClient]>([:])

    init(rules: ProxyRules, tlsFailure: TransportSettingsError?, configuration: HTTPClient.Configuration,
         eventLoopGroup: any EventLoopGroup) {
        self.rules = rules
        self.tlsFailure = tlsFailure
        self.configuration = configuration
        self.eventLoopGroup = eventLoopGroup
    }

    /// The client that sends through `server`, made now if no request used it before.
    func client(for server: ProxyServer) -> HTTPClient {
        clients.withLock { clients in
            if let client = clients[server] { return client }
            var configuration = configuration
            configuration.proxy = server.configuration
            let client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
            clients[server] = client
            return client
        }
    }

    /// Every client made so far, for shutting them down.
    var made: [HTTPClient] {
        clients.withLock { Array($0.values) }
    }

    deinit {
        for client in made {
            client.shutdown { _ in }
        }
    }
}
