import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Why a proxy refused to open a tunnel: AsyncHTTPClient fails a CONNECT answered with anything but
/// a 2xx or a 407 without its status, so the CONNECT is sent once more, by ``ProxyForwarding``,
/// to read the status (as ``TLSDiagnosis`` makes a second handshake to say why a certificate failed).
enum ConnectRefusal {
    /// `the proxy at H:P refused to open a tunnel (CONNECT) to T: it answered 403 Forbidden`, with
    /// a hint for the 403 that a port policy gives; without the status when the second CONNECT
    /// got no refusal by 5 s from now or by the request's `deadline`, whichever comes first.
    static func message(proxy: ProxyServer, target: ProxyServer, group: any EventLoopGroup, deadline: NIODeadline?) async -> String {
        let refusal = "the proxy at \(proxy) refused to open a tunnel (CONNECT) to \(target)"
        let budget = NIODeadline.now() + .seconds(5)
        guard let status = await status(proxy: proxy, target: target, group: group, until: deadline.map { min($0, budget) } ?? budget),
              status.code >= 300 else { return refusal }
        let answer = "\(refusal): it answered \(status.code) \(status.reasonPhrase)"
        guard status == .forbidden, target.port != 443 else { return answer }
        return answer + " (many proxies open tunnels only to port 443)"
    }

    /// The status the proxy answers a CONNECT to `target` with, nil when it gave none by `deadline`.
    private static func status(
        proxy: ProxyServer, target: ProxyServer, group: any EventLoopGroup, until deadline: NIODeadline
    ) async -> HTTPResponseStatus? {
        var headers = HTTPHeaders([("Host", target.description)])
        if let authorization = proxy.authorization { headers.add(name: "Proxy-Authorization", value: authorization.headerValue) }
        let plan = ProxyForwarding.Plan(
            proxy: proxy, head: HTTPRequestHead(version: .http1_1, method: .CONNECT, uri: target.description, headers: headers), body: nil)
        let delegate = ResponseBodyDelegate(sink: nil, decodes: false, followsRedirects: false, limit: 64 * 1024)
        _ = try? await ProxyForwarding.send(
            plan, delegate: delegate, deadline: deadline, connectTimeout: .seconds(5), group: group)
        return delegate.status
    }
}
