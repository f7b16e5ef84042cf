import AsyncHTTPClient
import NIOHTTP1
import Synchronization

/// The origins whose last answer left its connection open for the next request: only a request to
/// one of them can go out on a kept-alive connection that the server has closed meanwhile, which
/// is when a request that met a closed connection is sent again (``NetworkTransport``).
final class KeptAliveOrigins: Sendable {
    private struct Origin: Hashable {
        var scheme: String
        var host: String
        var port: Int

        init(_ request: HTTPClient.Request) {
            (scheme, host, port) = (request.scheme, request.host, request.port)
        }
    }

    private let origins = Mutex<Set<Origin>>([])

    /// Notes whether `head`, the answer to `request`, left its connection open.
    func note(_ head: HTTPResponseHead, answering request: HTTPClient.Request) {
        let origin = Origin(request)
        let open = head.isKeepAlive
        origins.withLock { origins in
            if open {
                origins.insert(origin)
            } else {
                origins.remove(origin)
            }
        }
    }

    /// Forgets the origin of `request`; whether its last answer had left a connection open.
    func forget(_ request: HTTPClient.Request) -> Bool {
        let origin = Origin(request)
        return origins.withLock { $0.remove(origin) != nil }
    }
}
