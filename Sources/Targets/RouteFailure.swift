import AsyncHTTPClient
import NIOCore
import NIOPosix

/// A failure of a request's route, already in a user's words: the proxy's, or the server
/// certificate's (``TLSDiagnosis``). Proxy credentials never appear in it.
struct RouteFailure: Error {
    /// The whole sentence.
    var message: String
    /// `the proxy at HOST:PORT` when no connection to the proxy could be made, which callers (the
    /// retry plugin) treat as any connection failure; `message` is then the reason.
    var unreachableProxy: String?

    init(message: String, unreachableProxy: String? = nil) {
        self.message = message
        self.unreachableProxy = unreachableProxy
    }

    func providerError(targetName: String) -> ProviderError {
        if let unreachableProxy {
            return .connectionFailure(address: unreachableProxy, reason: message, targetName: targetName)
        }
        return .other(message, step: .transport, targetName: targetName)
    }

    /// `error` said as a failure of `proxy`, when it is one; nil otherwise.
    static func proxy(_ error: any Error, proxy: ProxyServer, request: HTTPClient.Request) -> RouteFailure? {
        let name = "the proxy at \(proxy)"
        let target = ProxyServer(kind: .http, host: request.host, port: request.port).description
        if let error = error as? HTTPClientError {
            switch error {
            case .proxyAuthenticationRequired:
                return RouteFailure(message: proxy.username == nil
                    ? "\(name) asks for credentials (407): give them in the proxy URL, as http://USER:PASSWORD@\(proxy)"
                    : "\(name) refused the credentials in the proxy URL (407)")
            case .httpProxyHandshakeTimeout, .socksHandshakeTimeout:
                return RouteFailure(message: "\(name) did not answer in time")
            case .connectTimeout:
                return RouteFailure(message: "connection timed out", unreachableProxy: name)
            default:
                return nil
            }
        }
        // The SOCKS library's errors, told by their module so that its type names stay out of the message.
        let type = String(reflecting: Swift.type(of: error))
        if type.hasPrefix("NIOSOCKS.") {
            return RouteFailure(message: type.hasSuffix("ConnectionFailed")
                ? "\(name) could not connect to \(target)"
                : "\(name) did not answer as a SOCKS5 proxy (is it one?)")
        }
        switch error {
        case let error as NIOConnectionError:
            return RouteFailure(message: TransportFailure.connectionReason(error), unreachableProxy: name)
        case let error as IOError where TransportFailure.isConnectErrno(error.errnoCode):
            return RouteFailure(message: TransportFailure.reason(errno: error.errnoCode), unreachableProxy: name)
        default:
            return nil
        }
    }
}
