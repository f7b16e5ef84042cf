import AsyncHTTPClient
import NIOPosix
@testable import Targets
import Testing

/// Which proxy a request takes, from the settings and the environment, as curl decides.
@Suite struct ProxyRulesTests {
    private func server(_ choice: ProxyRules.Choice) -> ProxyServer? {
        if case .server(let server) = choice { server } else { nil }
    }

    @Test func httpTakesOnlyTheLowercaseVariable() {
        let upper = ProxyRules(.environment, environment: ["HTTP_PROXY": "http://proxy.example:3128"])
        #expect(upper.http == .direct)
        #expect(upper.isDirect)
        let lower = ProxyRules(.environment, environment: ["http_proxy": "http://proxy.example:3128"])
        #expect(server(lower.choice(scheme: "http", host: "api.example", port: 80))?.description == "proxy.example:3128")
        #expect(lower.choice(scheme: "https", host: "api.example", port: 443) == .direct)
    }

    @Test func httpsTakesEitherCaseTheLowercaseFirst() {
        let upper = ProxyRules(.environment, environment: ["HTTPS_PROXY": "upper.example:1"])
        #expect(server(upper.https)?.host == "upper.example")
        let both = ProxyRules(.environment, environment: ["HTTPS_PROXY": "upper.example:1", "https_proxy": "lower.example:2"])
        #expect(server(both.https)?.host == "lower.example")
    }

    @Test func allProxyIsTheFallbackOfBoth() {
        let rules = ProxyRules(.environment, environment: ["ALL_PROXY": "all.example:8", "https_proxy": "tls.example:9"])
        #expect(server(rules.http)?.host == "all.example")
        #expect(server(rules.https)?.host == "tls.example")
    }

    @Test func emptyVariablesCountAsUnset() {
        let rules = ProxyRules(.environment, environment: ["http_proxy": "", "ALL_PROXY": " ", "https_proxy": ""])
        #expect(rules.isDirect)
    }

    @Test func noProxySendsMatchingHostsDirectly() {
        let rules = ProxyRules(.environment, environment: ["http_proxy": "p.example:1", "no_proxy": "internal.example"])
        #expect(rules.choice(scheme: "http", host: "a.internal.example", port: 80) == .direct)
        #expect(server(rules.choice(scheme: "http", host: "public.example", port: 80)) != nil)
    }

    @Test func offAndURLIgnoreTheEnvironment() {
        let environment = ["http_proxy": "env.example:1", "NO_PROXY": "*"]
        #expect(ProxyRules(.off, environment: environment).isDirect)
        let set = ProxyRules(.url("http://set.example:2"), environment: environment)
        #expect(server(set.choice(scheme: "http", host: "a.example", port: 80))?.host == "set.example")
        #expect(server(set.choice(scheme: "https", host: "a.example", port: 443))?.host == "set.example")
    }

    @Test func aProxyURLIsReadAsCurlReadsIt() throws {
        let plain = try ProxyServer.parse("proxy.example", source: "test")
        #expect(plain.kind == .http && plain.port == 1080 && plain.username == nil)
        let full = try ProxyServer.parse("HTTP://us%40er:p%3Ass@Proxy.Example:3128/ignored", source: "test")
        #expect(full.host == "proxy.example" && full.port == 3128)
        #expect(full.username == "us@er" && full.password == "p:ss")
        #expect(full.description == "proxy.example:3128")
        #expect(try ProxyServer.parse("socks5h://[::1]:9050", source: "test").description == "[::1]:9050")
        #expect(try ProxyServer.parse("socks5://s.example", source: "test").kind == .socks5)
    }

    @Test func anUnusableProxyURLIsSaidWithoutItsPassword() throws {
        #expect(throws: TransportSettingsError("set proxy: 'ftp' proxies are not supported; use http://, socks5:// or socks5h://")) {
            try ProxyServer.parse("ftp://p.example", source: "set proxy")
        }
        #expect(throws: TransportSettingsError("HTTPS_PROXY: a proxy reached over https:// is not supported; use http://u:***@p.example")) {
            try ProxyServer.parse("https://u:secret@p.example", source: "HTTPS_PROXY")
        }
        #expect(throws: TransportSettingsError("set proxy: the port of proxy p.example is not a number from 1 to 65535")) {
            try ProxyServer.parse("http://u:secret@p.example:99999", source: "set proxy")
        }
        #expect(throws: TransportSettingsError("set proxy: credentials for a SOCKS proxy are not supported")) {
            try ProxyServer.parse("socks5://u:secret@p.example", source: "set proxy")
        }
        // A bracket left open, or text after the closing one that is no port, is no host.
        for text in ["http://[::1", "http://u:secret@[::1]x", "http://::1]:3128"] {
            let shown = text.replacingOccurrences(of: "secret", with: "***")
            #expect(throws: TransportSettingsError(
                "set proxy: '\(shown)' is not a proxy URL: an IPv6 address goes whole in brackets, as in http://[::1]:3128")) {
                try ProxyServer.parse(text, source: "set proxy")
            }
        }
        #expect(try ProxyServer.parse("http://[::1]", source: "set proxy").description == "[::1]:1080")
    }

    @Test func aProxySettingPrintsWithItsPasswordMasked() {
        let setting = TransportSettings.Proxy.url("http://me:secret@p.example:3128")
        #expect("\(setting)" == "http://me:***@p.example:3128")
        #expect(String(reflecting: setting) == "http://me:***@p.example:3128")
        #expect(!"\(TransportSettings(proxy: setting))".contains("secret"))
    }

    @Test func withoutAProxyEveryRequestTakesTheOneClient() {
        let owner = HTTPClientOwner(
            configuration: .init(), settings: TransportSettings(), environment: ["HTTP_PROXY": "ignored.example:1"],
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
        #expect(owner.proxied == nil)
    }
}
