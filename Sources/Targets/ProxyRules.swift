import Foundation

/// Which proxy a request takes, decided once per transport from ``TransportSettings/Proxy`` and
/// the environment.
///
/// From the environment, with curl's meaning: `http_proxy` for http:// (lowercase only, since
/// `HTTP_PROXY` can be set by a CGI request's `Proxy:` header), `https_proxy` or `HTTPS_PROXY` for
/// https://, else `all_proxy` or `ALL_PROXY`; `no_proxy` or `NO_PROXY` lists hosts reached
/// directly (``NoProxyList``). An empty variable counts as unset. The lowercase name wins.
struct ProxyRules: Sendable, Hashable {
    /// What one scheme's requests do.
    enum Choice: Sendable, Hashable {
        case direct
        case server(ProxyServer)
        /// The proxy named cannot be used; requests of this scheme fail with this error rather than
        /// quietly going around the proxy the user asked for.
        case unusable(TransportSettingsError)
    }

    var http: Choice = .direct
    var https: Choice = .direct
    var noProxy = NoProxyList("")

    /// Whether every request goes directly, so that no per-request look is needed.
    var isDirect: Bool {
        http == .direct && https == .direct
    }

    /// Nothing through a proxy.
    static let direct = ProxyRules()

    /// The rules for `setting`, reading `environment` for `.environment`.
    init(_ setting: TransportSettings.Proxy, environment: [String: String]) {
        switch setting {
        case .off:
            return
        case .url(let text):
            let choice = Self.choice(text, source: "set proxy")
            http = choice
            https = choice
        case .environment:
            let all = Self.value(environment, "all_proxy", "ALL_PROXY")
            if case let (name, text)? = Self.value(environment, "http_proxy") ?? all {
                http = Self.choice(text, source: name)
            }
            if case let (name, text)? = Self.value(environment, "https_proxy", "HTTPS_PROXY") ?? all {
                https = Self.choice(text, source: name)
            }
            if case let (_, text)? = Self.value(environment, "no_proxy", "NO_PROXY") {
                noProxy = NoProxyList(text)
            }
        }
    }

    private init() {}

    /// The choice for a request to `scheme://host:port`; `scheme` in lowercase, as AsyncHTTPClient gives it.
    func choice(scheme: String, host: String, port: Int) -> Choice {
        let choice = scheme == "https" ? https : http
        if choice == .direct || noProxy.bypasses(host: host, port: port) { return .direct }
        return choice
    }

    /// The first variable among `names` that is set and not empty, with its name.
    private static func value(_ environment: [String: String], _ names: String...) -> (String, String)? {
        for name in names {
            if let text = environment[name], !text.trimmingCharacters(in: .whitespaces).isEmpty { return (name, text) }
        }
        return nil
    }

    private static func choice(_ text: String, source: String) -> Choice {
        do {
            return .server(try ProxyServer.parse(text, source: source))
        } catch {
            return .unusable(error)
        }
    }
}
