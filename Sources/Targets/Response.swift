import Foundation

/// What came back for one call.
public struct Response: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The reason phrase for the status, as in `Not Found`.
    public var reason: String
    /// The header fields as received, in order.
    public var headers: [Header]
    /// The whole body.
    public var body: Data
    /// From handing the request to the transport until the whole body was in.
    public var elapsed: Duration
    /// The request this answers (after plugins' `prepare`; after a redirect, the request sent to its `Location`).
    public var request: Request
    /// The name of the target that was called, for messages.
    public var targetName: String
    /// The redirects that led to this response, in order; empty when the first answer was the final one.
    public var hops: [ResponseHop]

    /// Makes a response.
    public init(
        status: Int, reason: String, headers: [Header] = [], body: Data = Data(),
        elapsed: Duration = .zero, request: Request, targetName: String = "", hops: [ResponseHop] = []
    ) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
        self.elapsed = elapsed
        self.request = request
        self.targetName = targetName
        self.hops = hops
    }

    /// The URL that produced this answer: the request's URL, which after redirects is where the last one led.
    public var url: String {
        request.url
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

    /// The body as text; bytes that are not UTF-8 become U+FFFD.
    public var text: String {
        String(decoding: body, as: UTF8.self)
    }

    /// The message an API put in its JSON error body, looked for at `message`, `error` (a string),
    /// `error.message`, `detail` and, for Open-Meteo, `reason`; `nil` when the body has none.
    public var serverMessage: String? {
        guard let json = try? JSONValue.parse(body) else { return nil }
        let candidates = [json["message"], json["error"], json["error"]?["message"], json["detail"], json["reason"]]
        return candidates.lazy.compactMap { $0?.string }.first { !$0.isEmpty }
    }

    /// The body parsed as JSON, keeping member order and number literals.
    /// Throws a ``ProviderError`` at step `.decoding` that says where the body stopped being JSON.
    public func json() throws(ProviderError) -> JSONValue {
        do {
            return try JSONValue.parse(body)
        } catch {
            throw ProviderError(.invalidJSONBody(error), step: .decoding, targetName: targetName, response: self)
        }
    }
}
