import Foundation

/// Settings of the HTTP client that are not per request: the proxy, what TLS trusts and presents,
/// and the HTTP version. ``NetworkTransport/init(settings:environment:bodyLimit:maxRedirects:connectTimeout:eventLoopGroup:)``
/// takes them; ``check(environment:)`` reads every file they name, for a shell to report a bad
/// file when the user names it rather than at the next request.
public struct TransportSettings: Sendable, Hashable {
    /// Where requests go first.
    ///
    /// Printing one masks a password in its URL.
    public enum Proxy: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
        /// From `http_proxy`, `HTTPS_PROXY`, `ALL_PROXY` and `NO_PROXY`, upper or lower case, as curl
        /// reads them (see ``ProxyRules``); the default.
        case environment
        /// Every request goes directly, whatever the environment says.
        case off
        /// Every request goes through this proxy: `http://[user:password@]host[:port]` (credentials
        /// sent as Proxy-Authorization Basic) or `socks5://host[:port]`; port 1080 when none is given.
        /// https:// requests go through a CONNECT tunnel, and so do http:// ones (AsyncHTTPClient
        /// tunnels every request), so the proxy must allow CONNECT to the ports used.
        case url(String)

        /// `env`, `off` or the URL with its password masked, as the shell's `set proxy` shows it.
        public var description: String {
            switch self {
            case .environment: "env"
            case .off: "off"
            case .url(let text): ProxyServer.masked(Substring(text))
            }
        }

        public var debugDescription: String { description }
    }

    /// Which HTTP version requests use.
    public enum HTTPVersion: Sendable, Hashable {
        /// HTTP/1.1 only, even where the server offers HTTP/2.
        case http1
        /// HTTP/2 where TLS's ALPN offers it, else HTTP/1.1: the same as ``automatic``, because
        /// HTTP/2 without TLS (prior-knowledge h2c) is not something AsyncHTTPClient speaks.
        case http2
        /// HTTP/2 where TLS's ALPN offers it, else HTTP/1.1; the default.
        case automatic
    }

    /// Where requests go first; default ``Proxy/environment``.
    public var proxy: Proxy
    /// A PEM file of CA certificates trusted in addition to the system's (and to those of
    /// `SSL_CERT_FILE` and `SSL_CERT_DIR`, which replace the system's as in OpenSSL).
    public var caCertificateFile: String?
    /// No verification of the server's certificate at all: anyone on the path can read and change
    /// the traffic. Default off.
    public var insecure: Bool
    /// A PEM file with the client certificate (and the chain to send with it), offered when a
    /// server asks for one. The private key is in the same file unless ``clientKeyFile`` names one.
    public var clientCertificateFile: String?
    /// A PEM file with the private key of ``clientCertificateFile``, not encrypted.
    public var clientKeyFile: String?
    /// Which HTTP version requests use; default ``HTTPVersion/automatic``.
    public var httpVersion: HTTPVersion

    /// Settings with the defaults: proxy from the environment, system trust, verification on, no
    /// client certificate, HTTP/2 where TLS offers it.
    public init(
        proxy: Proxy = .environment, caCertificateFile: String? = nil, insecure: Bool = false,
        clientCertificateFile: String? = nil, clientKeyFile: String? = nil, httpVersion: HTTPVersion = .automatic
    ) {
        self.proxy = proxy
        self.caCertificateFile = caCertificateFile
        self.insecure = insecure
        self.clientCertificateFile = clientCertificateFile
        self.clientKeyFile = clientKeyFile
        self.httpVersion = httpVersion
    }

    /// What the proxy these settings choose (`set proxy`, or `HTTP_PROXY`...) sends as credentials:
    /// each one's password and `user:password` (whose forms hold the base64 of Proxy-Authorization
    /// Basic, ``SecretForms``), for the mask. An origin or a proxy that echoes the header shows them.
    /// A user without a password gives nothing: a user name alone is not a secret.
    public func proxyCredentials(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String] {
        let rules = ProxyRules(proxy, environment: environment)
        return [rules.http, rules.https].flatMap { choice -> [String] in
            guard case .server(let server) = choice, let user = server.username,
                let password = server.password, !password.isEmpty
            else { return [] }
            return [password, user + ":" + password]
        }
    }

    /// Reads every file these settings name and the proxy they choose, as a transport made with them
    /// would, and throws what a person must fix: an unreadable or malformed CA file, a client
    /// certificate without its key or with another's, a proxy URL that cannot be used.
    ///
    /// Returns a warning to show once when the settings are valid but unsafe (``insecure``), else nil.
    public func check(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(TransportSettingsError) -> String? {
        let rules = ProxyRules(proxy, environment: environment)
        for choice in [rules.http, rules.https] {
            if case .unusable(let error) = choice { throw error }
        }
        try TLSSettings.validate(self, environment: environment)
        return insecure
            ? "certificates are not verified: anyone between wsh and the server can read and change the traffic"
            : nil
    }
}
