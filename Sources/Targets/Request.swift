import Foundation

/// What is sent: built by ``Endpoint`` from a target and a call's arguments, then changed by plugins' `prepare`.
public struct Request: Sendable, Equatable {
    /// The HTTP method.
    public var method: HTTPMethod
    /// The full URL, query string included, already percent-encoded.
    public var url: String
    /// The header fields in the order they are sent.
    public var headers: [Header]
    /// The body, if any.
    public var body: Data?
    /// How long the whole exchange may take, body included; `nil` for no limit.
    public var timeout: Duration?
    /// The largest body the answer may have once decoded, in bytes; `nil` leaves it to the transport's limit.
    public var bodyLimit: Int? = nil
    /// Whether a `Content-Encoding` of the answer (gzip, deflate, br) is decoded (`set compress`).
    public var decodesContent: Bool = true
    /// A file the answer's body (decoded) is written to as it arrives, with no size limit and in
    /// bounded memory, instead of being kept (`call ... > FILE`); `nil` keeps it in memory.
    public var responseBodyFile: String? = nil
    /// Where the answer's body goes as it arrives when there is no ``responseBodyFile``: the sink
    /// decides from the answer's head whether it takes the body (a streamed answer printed as it comes).
    public var responseBodySink: (any ResponseBodySink)? {
        get { sinkReference?.sink }
        set { sinkReference = newValue.map(ResponseBodySinkReference.init) }
    }
    /// Where the transport counts the answer's body bytes as they arrive, for a display of
    /// progress; `nil` counts nothing.
    public var receivedBytes: ReceivedBytes? {
        get { receivedBytesReference?.counter }
        set { receivedBytesReference = newValue.map(ReceivedBytesReference.init) }
    }
    /// Whether a redirect answering this request will be followed: its body is then kept in memory,
    /// never written to ``responseBodyFile`` or a sink. The provider sets it for each hop.
    public var followsRedirects: Bool = false
    /// Names of headers that carry a credential a plugin added (an auth plugin's `X-API-Key`), lowercased:
    /// dropped, with Authorization and Cookie, on a redirect to another origin.
    public var credentialHeaderNames: [String] = []
    /// A redirect took this request to another origin than its chain's first request's: no
    /// credential is sent to it, nor a Digest challenge answered there (``Redirect``).
    public var leftFirstOrigin: Bool = false

    // Compared by identity (equality is every field's).
    private var sinkReference: ResponseBodySinkReference? = nil
    private var receivedBytesReference: ReceivedBytesReference? = nil

    /// Makes a request.
    public init(method: HTTPMethod, url: String, headers: [Header] = [], body: Data? = nil, timeout: Duration? = nil) {
        (self.method, self.url, self.headers, self.body, self.timeout) = (method, url, headers, body, timeout)
    }

    /// The value of the first header named `name`, compared without regard to case.
    public func header(_ name: String) -> String? {
        headers.value(named: name)
    }

    /// Sets a header, replacing any of the same name in place, or adding it at the end.
    public mutating func setHeader(_ name: String, _ value: String) {
        headers.replaceOrAppend(Header(name: name, value: value))
    }
}
