import Foundation

/// What came back for one call.
///
/// A value, cheap to copy: copies share the body's bytes and its one parse as JSON (``json()``,
/// ``serverMessage`` and the logger's masking read the same parse, made when first needed).
public struct Response: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The reason phrase for the status, as in `Not Found`.
    public var reason: String
    /// The header fields as received, in order.
    public var headers: [Header]
    /// The body as it came over the wire, before any content decoding. Empty for a body decoded on
    /// its way to a file, or past the body limit to a sink (``streamedBodyBytes``): its coded bytes were not kept.
    public var rawBody: Data
    /// From handing the request to the transport until the whole body was in.
    public var elapsed: Duration
    /// From the request's head written to the answer's last byte, as k6's `http_req_duration`
    /// and wrk measure: without connecting, or wsh's own work on the request and the answer;
    /// after redirects, the sum of each hop's. `nil` when the transport does not say (a stub).
    public var latency: Duration?
    /// When the answer's last byte was read, which may be well before the caller gets to it on a
    /// busy event loop (`wsh load` counts a call in the second its answer came). `nil` when the
    /// transport does not say (a stub).
    public var answeredAt: ContinuousClock.Instant?
    /// The request this answers (after plugins' `prepare`; after a redirect, the request sent to its `Location`).
    public var request: Request
    /// The name of the target that was called, for messages.
    public var targetName: String
    /// The redirects that led to this response, in order; empty when the first answer was the final one.
    public var hops: [ResponseHop]
    /// How many bytes of body went to the request's ``Request/responseBodyFile`` or
    /// ``Request/responseBodySink`` as they arrived; `nil` when the body was only kept in ``body``. A
    /// sink's copy is in ``body`` unless it passed the body limit.
    public var streamedBodyBytes: Int? = nil
    /// The upload the server answered early and then stopped reading (or the timeout passed), whose
    /// rest was not sent; `nil` when the body was sent whole, or refused by the answer.
    public var uploadCut: UploadCut? = nil
    /// The request met a kept-alive connection the server had closed before answering, and was
    /// sent again on a new one (``NetworkTransport``): a POST the server did read may have been
    /// done twice.
    public var sentAgain = false

    /// What the user is told of a POST or PATCH ``sentAgain``; nil for any other request.
    public var sentAgainNote: String? {
        guard sentAgain, !request.method.isIdempotent else { return nil }
        return "\(request.summary) met a kept-alive connection the server had closed without answering, "
            + "and was sent again on a new one (as curl does): had the server read it, it was done twice"
    }
    /// The HTTP version that answered: `HTTP/1.1`, `HTTP/2` (or `HTTP/1.0`).
    public var httpVersion: String
    /// The decoded body and its parse, shared by copies.
    private var content: ResponseBody

    /// Makes a response. `rawBody` is the body as received; `nil` means the same bytes as `body`.
    public init(
        status: Int, reason: String, headers: [Header] = [], body: Data = Data(), rawBody: Data? = nil,
        elapsed: Duration = .zero, request: Request, targetName: String = "", hops: [ResponseHop] = [],
        httpVersion: String = "HTTP/1.1"
    ) {
        (self.status, self.reason, self.headers, self.rawBody, self.elapsed) = (status, reason, headers, rawBody ?? body, elapsed)
        (self.request, self.targetName, self.hops, self.httpVersion) = (request, targetName, hops, httpVersion)
        content = ResponseBody(body)
    }

    /// The body as callers read it, decoded from its content coding.
    ///
    /// The transport decodes gzip, deflate and br when the request asks for that, leaving ``rawBody``
    /// as received. Setting it drops the parse of the previous body.
    public var body: Data {
        get { content.bytes }
        set { content = ResponseBody(newValue) }
    }

    /// The URL that produced this answer: the request's URL, which after redirects is where the last one led.
    public var url: String {
        request.url
    }

    /// The request the caller made: after redirects, the first hop's (``request`` is the last one sent).
    public var firstRequest: Request {
        hops.first?.request ?? request
    }

    /// The URLs that answered with a redirect before this response, in order: each hop's ``ResponseHop/url``.
    public var redirects: [String] {
        hops.map(\.url)
    }

    /// The value of the first header named `name`, compared without regard to case.
    public func header(_ name: String) -> String? {
        headers.value(named: name)
    }

    /// The values of every header named `name`, compared without regard to case, one per field line
    /// in the order received (`Set-Cookie` twice gives two values); empty when there is none.
    public func headers(named name: String) -> [String] {
        headers.values(named: name)
    }

    /// The body as text, decoded from the charset its Content-Type names (``CharsetDecoding``), else
    /// as UTF-8; bytes that are not text in it become U+FFFD.
    public var text: String {
        String(decoding: CharsetDecoding.utf8(body, contentType: header("Content-Type")) ?? body, as: UTF8.self)
    }

    /// The message an API put in its JSON error body, looked for at `message`, `error` (a string),
    /// `error.message`, `detail` and, for Open-Meteo, `reason`; `nil` when the body has none.
    public var serverMessage: String? {
        guard case .success(let json) = parsedBody else { return nil }
        let candidates = [json["message"], json["error"], json["error"]?["message"], json["detail"], json["reason"]]
        return candidates.lazy.compactMap { $0?.string }.first { !$0.isEmpty }
    }

    /// The body parsed as JSON, keeping member order and number literals; parsed on the first call
    /// (by this or any copy) and remembered.
    /// Throws a ``ProviderError`` at step `.decoding` that says where the body stopped being JSON.
    public func json() throws(ProviderError) -> JSONValue {
        switch parsedBody {
        case .success(let json):
            return json
        case .failure(let error):
            throw ProviderError(.invalidJSONBody(error), step: .decoding, targetName: targetName, response: self)
        }
    }

    /// The body's one parse as JSON, made now if nobody asked before.
    var parsedBody: Result<JSONValue, JSONParseError> {
        content.json(contentType: header("Content-Type"))
    }

    /// How many times this body was parsed as JSON: 0 or 1. For tests of the at-most-once rule.
    var bodyParseCount: Int {
        content.parseCount
    }
}
