import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOHTTP1

/// AsyncHTTPClient requests already parsed, by method and URL, so that calling the same URL again
/// (a script polling an endpoint, a loop over a few targets) does not parse the URL again: with
/// Foundation's parser that was about a tenth of a loopback call. Only the method and URL are kept;
/// headers and body are set on a copy for each call.
final class ParsedRequestCache: Sendable {
    /// How many URLs are kept; past this the cache starts over, which is cheaper than tracking use.
    static let capacity = 64

    private let entries = NIOLockedValueBox([String: HTTPClient.Request]())

    /// A request for `url` with `method`, `headers` and `body`; throws as `HTTPClient.Request` does
    /// for a URL it cannot send to.
    func request(
        url: String, method: NIOHTTP1.HTTPMethod, headers: HTTPHeaders, body: HTTPClient.Body?
    ) throws -> HTTPClient.Request {
        let key = method.rawValue + " " + url
        var request: HTTPClient.Request
        if let cached = entries.withLockedValue({ $0[key] }) {
            request = cached
        } else {
            request = try HTTPClient.Request(url: url, method: method)
            entries.withLockedValue { entries in
                if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
                entries[key] = request
            }
        }
        request.headers = headers
        request.body = body
        return request
    }
}
