/// One redirect on the way to a ``Response``: the request that was sent and the redirect that answered
/// it, without its body (as AsyncHTTPClient's `HTTPClientRequestResponse` keeps the history).
public struct ResponseHop: Sendable, Equatable {
    /// The request that was answered with the redirect, as sent on this hop.
    public var request: Request
    /// The redirect's status code: 301, 302, 303, 307 or 308.
    public var status: Int
    /// The reason phrase for the status, as in `Found`.
    public var reason: String
    /// The redirect's header fields as received, in order.
    public var headers: [Header]

    /// Makes a hop.
    public init(request: Request, status: Int, reason: String, headers: [Header] = []) {
        self.request = request
        self.status = status
        self.reason = reason
        self.headers = headers
    }

    /// The URL that answered with the redirect.
    public var url: String {
        request.url
    }

    /// The value of the first header named `name`, compared without regard to case.
    public func header(_ name: String) -> String? {
        headers.value(named: name)
    }

    /// The values of every header named `name`, compared without regard to case, one per field line
    /// in the order received; empty when there is none.
    public func headers(named name: String) -> [String] {
        headers.values(named: name)
    }
}
