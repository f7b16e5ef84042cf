import Foundation

/// What is sent: built by ``Endpoint`` from a target and a call's arguments, then changed by plugins' `prepare`.
public struct Request: Sendable, Equatable {
    /// The HTTP method.
    public var method: HTTPMethod {
        get { box.fields.method }
        _modify { makeUnique(); yield &box.fields.method }
    }
    /// The full URL, query string included, already percent-encoded.
    public var url: String {
        get { box.fields.url }
        _modify { makeUnique(); yield &box.fields.url }
    }
    /// The header fields in the order they are sent.
    public var headers: [Header] {
        get { box.fields.headers }
        _modify { makeUnique(); yield &box.fields.headers }
    }
    /// The body, if any.
    public var body: Data? {
        get { box.fields.body }
        _modify { makeUnique(); yield &box.fields.body }
    }
    /// How long the whole exchange may take, body included; `nil` for no limit.
    public var timeout: Duration? {
        get { box.fields.timeout }
        _modify { makeUnique(); yield &box.fields.timeout }
    }
    /// The largest body the answer may have once decoded, in bytes; `nil` leaves it to the transport's limit.
    public var bodyLimit: Int? {
        get { box.fields.bodyLimit }
        _modify { makeUnique(); yield &box.fields.bodyLimit }
    }
    /// Whether a `Content-Encoding` of the answer (gzip, deflate, br) is decoded (`set compress`).
    public var decodesContent: Bool {
        get { box.fields.decodesContent }
        _modify { makeUnique(); yield &box.fields.decodesContent }
    }
    /// A file the answer's body (decoded) is written to as it arrives, with no size limit and in
    /// bounded memory, instead of being kept (`call ... > FILE`); `nil` keeps it in memory.
    public var responseBodyFile: String? {
        get { box.fields.responseBodyFile }
        _modify { makeUnique(); yield &box.fields.responseBodyFile }
    }
    /// Where the answer's body goes as it arrives when there is no ``responseBodyFile``: the sink
    /// decides from the answer's head whether it takes the body (a streamed answer printed as it comes).
    public var responseBodySink: (any ResponseBodySink)? {
        get { box.fields.sinkReference?.sink }
        set { makeUnique(); box.fields.sinkReference = newValue.map(ResponseBodySinkReference.init) }
    }
    /// Where the transport counts the answer's body bytes as they arrive, for a display of
    /// progress; `nil` counts nothing.
    public var receivedBytes: ReceivedBytes? {
        get { box.fields.receivedBytesReference?.counter }
        set { makeUnique(); box.fields.receivedBytesReference = newValue.map(ReceivedBytesReference.init) }
    }
    /// Whether a redirect answering this request will be followed: its body is then kept in memory,
    /// never written to ``responseBodyFile`` or a sink. The provider sets it for each hop.
    public var followsRedirects: Bool {
        get { box.fields.followsRedirects }
        _modify { makeUnique(); yield &box.fields.followsRedirects }
    }
    /// Names of headers that carry a credential a plugin added (an auth plugin's `X-API-Key`), lowercased:
    /// dropped, with Authorization and Cookie, on a redirect to another origin.
    public var credentialHeaderNames: [String] {
        get { box.fields.credentialHeaderNames }
        _modify { makeUnique(); yield &box.fields.credentialHeaderNames }
    }

    /// The fields, in one box that copies share until one of them changes: a request is copied
    /// several times a call (into the response, the transport's checks, the history), and a copy
    /// of the fields themselves retained each of them.
    private var box: Box

    private struct Fields: Equatable, Sendable {
        var method: HTTPMethod
        var url: String
        var headers: [Header]
        var body: Data?
        var timeout: Duration?
        var bodyLimit: Int? = nil
        var decodesContent: Bool = true
        var responseBodyFile: String? = nil
        var sinkReference: ResponseBodySinkReference? = nil
        var receivedBytesReference: ReceivedBytesReference? = nil
        var followsRedirects: Bool = false
        var credentialHeaderNames: [String] = []
    }

    private final class Box: @unchecked Sendable {
        // Unchecked: a box is changed only through a `Request` that holds the only reference (``makeUnique()``).
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
    }

    /// Equal when every field is (a sink and a byte counter by identity).
    public static func == (lhs: Request, rhs: Request) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    /// Makes a request.
    public init(method: HTTPMethod, url: String, headers: [Header] = [], body: Data? = nil, timeout: Duration? = nil) {
        box = Box(Fields(method: method, url: url, headers: headers, body: body, timeout: timeout))
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
