import AsyncHTTPClient
import Foundation

/// Where a plain `http://` request goes and what its request line and Host header say, worked out
/// from the URL as AsyncHTTPClient does (Foundation's `URL`, the same path, query and port rules),
/// so that both clients send the same bytes.
struct PlainHTTPOrigin: Hashable, Sendable {
    var host: String
    var port: Int
    /// The request target: the percent-encoded path (`/` when empty) and `?query`.
    var uri: String
    /// The Host header: the host, with the port when it is not 80.
    var hostHeader: String

    /// The origin of `request` when the plain client can send it: `http`, a host name or IPv4
    /// address (an IPv6 literal and a URL with credentials are left to AsyncHTTPClient).
    init?(_ request: HTTPClient.Request) {
        let url = request.url
        guard request.scheme == "http", url.user == nil, url.password == nil,
              let host = url.host, !host.isEmpty, !host.contains(":"), !host.contains("[") else { return nil }
        self.host = host
        port = url.port ?? 80
        let path = url.path.isEmpty ? "/" : URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        uri = url.query.map { path + "?" + $0 } ?? path
        hostHeader = url.port.map { $0 == 80 ? host : "\(host):\($0)" } ?? host
    }

    /// Where connections are kept: host and port.
    var connectionKey: String { "\(host):\(port)" }
}

