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

    private struct State {
        var origins: Set<Origin> = []
        /// The origin last noted open, which is in ``origins``: calls to one origin, one after
        /// another, find it here and do not hash it again (about 1,100 instructions a call, callgrind).
        var lastOpen: Origin?
    }

    private let state = Mutex(State())

    /// Notes whether `head`, the answer to `request`, left its connection open.
    func note(_ head: HTTPResponseHead, answering request: HTTPClient.Request) {
        let origin = Origin(request)
        let open = head.isKeepAlive
        state.withLock { state in
            if open {
                guard state.lastOpen != origin else { return }
                state.origins.insert(origin)
                state.lastOpen = origin
            } else {
                state.origins.remove(origin)
                if state.lastOpen == origin { state.lastOpen = nil }
            }
        }
    }

    /// Forgets the origin of `request`; whether its last answer had left a connection open.
    func forget(_ request: HTTPClient.Request) -> Bool {
        let origin = Origin(request)
        return state.withLock { state in
            if state.lastOpen == origin { state.lastOpen = nil }
            return state.origins.remove(origin) != nil
        }
    }
}
