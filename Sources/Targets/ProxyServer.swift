import AsyncHTTPClient
import Foundation

/// A proxy named by URL as curl reads one: `[http://][user[:password]@]host[:port]` or
/// `socks5://host[:port]` (`socks5h` too), port 1080 when none is given.
///
/// Printing it shows `host:port` only: credentials never reach a message or a log.
struct ProxyServer: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Sendable, Hashable {
        case http
        /// SOCKS version 5; AsyncHTTPClient sends it host names, so `socks5` and `socks5h` behave alike.
        case socks5
    }

    var kind: Kind
    var host: String
    var port: Int
    var username: String?
    var password: String?

    /// `host:port`, with brackets around an IPv6 address.
    var description: String {
        (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }

    /// The proxy as AsyncHTTPClient's configuration takes it; credentials become Proxy-Authorization Basic.
    var configuration: HTTPClient.Configuration.Proxy {
        switch kind {
        case .socks5:
            return .socksServer(host: host, port: port)
        case .http:
            return .server(host: host, port: port, authorization: authorization)
        }
    }

    /// The credentials as Proxy-Authorization Basic, for a CONNECT and for a request sent in absolute form.
    var authorization: HTTPClient.Authorization? {
        username.map { HTTPClient.Authorization.basic(username: $0, password: password ?? "") }
    }

    /// Reads `text`; `source` names where it came from for the error (`set proxy`, `HTTPS_PROXY`).
    static func parse(_ text: String, source: String) throws(TransportSettingsError) -> ProxyServer {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var rest = Substring(trimmed)
        var kind = Kind.http
        if let separator = rest.range(of: "://") {
            switch rest[..<separator.lowerBound].lowercased() {
            case "http": kind = .http
            case "socks5", "socks5h": kind = .socks5
            case "https":
                throw TransportSettingsError(
                    "\(source): a proxy reached over https:// is not supported; use http://\(masked(rest[separator.upperBound...]))")
            case let scheme:
                throw TransportSettingsError(
                    "\(source): '\(scheme)' proxies are not supported; use http://, socks5:// or socks5h://")
            }
            rest = rest[separator.upperBound...]
        }
        // The path of a proxy URL means nothing (curl ignores it too).
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var hostAndPort = authority
        var username: String?, password: String?
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            hostAndPort = authority[authority.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                username = decoded(userInfo[..<colon])
                password = decoded(userInfo[userInfo.index(after: colon)...])
            } else {
                username = decoded(userInfo)
            }
            if kind == .socks5 {
                throw TransportSettingsError("\(source): credentials for a SOCKS proxy are not supported")
            }
        }
        let (host, portText) = splitHostAndPort(hostAndPort)
        guard !host.isEmpty else {
            throw TransportSettingsError("\(source): '\(masked(Substring(trimmed)))' names no proxy host")
        }
        // A bracket left open (`http://[::1`), or text after the closing one that is no port.
        guard !host.contains(where: { $0 == "[" || $0 == "]" }),
              !hostAndPort.hasPrefix("[") || portText != nil || hostAndPort.hasSuffix("]") else {
            throw TransportSettingsError(
                "\(source): '\(masked(Substring(trimmed)))' is not a proxy URL: an IPv6 address goes whole in brackets, as in http://[::1]:3128")
        }
        var port = 1080
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw TransportSettingsError("\(source): the port of proxy \(host) is not a number from 1 to 65535")
            }
            port = number
        }
        return ProxyServer(kind: kind, host: host.lowercased(), port: port, username: username, password: password)
    }

    /// `host` and the text after its `:`; an IPv6 address comes in brackets, which are dropped.
    static func splitHostAndPort(_ text: Substring) -> (host: String, port: Substring?) {
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let host = String(text[text.index(after: text.startIndex)..<close])
            let after = text[text.index(after: close)...]
            return (host, after.hasPrefix(":") ? after.dropFirst() : nil)
        }
        // More than one colon without brackets: a bare IPv6 address, no port.
        if let colon = text.firstIndex(of: ":"), text[text.index(after: colon)...].contains(":") == false {
            return (String(text[..<colon]), text[text.index(after: colon)...])
        }
        return (String(text), nil)
    }

    /// The proxy URL with any password replaced by `***`, for messages.
    static func masked(_ text: Substring) -> String {
        let start = text.range(of: "://")?.upperBound ?? text.startIndex
        let authorityEnd = text[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
        guard let at = text[start..<authorityEnd].lastIndex(of: "@") else { return String(text) }
        let userInfo = text[start..<at]
        let user = userInfo.firstIndex(of: ":").map { userInfo[..<$0] + ":***" } ?? userInfo
        return String(text[..<start] + user + text[at...])
    }

    /// The password of a proxy URL as written (percent-encoded), or nil when it has none.
    static func writtenPassword(_ text: Substring) -> Substring? {
        let start = text.range(of: "://")?.upperBound ?? text.startIndex
        let authorityEnd = text[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
        guard let at = text[start..<authorityEnd].lastIndex(of: "@"), let colon = text[start..<at].firstIndex(of: ":") else { return nil }
        return text[text.index(after: colon)..<at]
    }

    private static func decoded(_ text: Substring) -> String {
        String(text).removingPercentEncoding ?? String(text)
    }
}
