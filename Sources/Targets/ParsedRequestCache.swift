import AsyncHTTPClient
import NIOHTTP1
import Synchronization

/// AsyncHTTPClient requests already parsed, by method and URL, so that calling the same URL again
/// (a script polling an endpoint, a loop over a few targets) does not parse the URL again: with
/// Foundation's parser that was about a tenth of a loopback call. Only the method and URL are kept;
/// headers and body are set on a copy for each call.
final class ParsedRequestCache: Sendable {
    /// How many URLs are kept; past this the cache starts over, which is cheaper than tracking use.
    static let capacity = 64

    private struct Key: Hashable {
        var method: String
        var url: String
    }

    private struct Entries {
        var byKey: [Key: HTTPClient.Request] = [:]
        /// The last one used, checked first: comparing a URL is cheaper than hashing it.
        var last: (key: Key, request: HTTPClient.Request)?

        mutating func cached(_ key: Key) -> HTTPClient.Request? {
            if let last, last.key == key { return last.request }
            guard let request = byKey[key] else { return nil }
            last = (key, request)
            return request
        }

        mutating func store(_ request: HTTPClient.Request, for key: Key) {
            if byKey.count >= ParsedRequestCache.capacity { byKey.removeAll(keepingCapacity: true) }
            byKey[key] = request
            last = (key, request)
        }
    }

    private let entries = Mutex(Entries())

    /// A request for `url` with `method`, `headers` and `body`; throws as `HTTPClient.Request` does
    /// for a URL it cannot send to.
    func request(
        url: String, method: NIOHTTP1.HTTPMethod, headers: HTTPHeaders, body: HTTPClient.Body?
    ) throws -> HTTPClient.Request {
        // Only ASCII URLs (all that Endpoint makes): for them String equality is byte equality.
        guard url.allBytes({ $0 < 0x80 }) else {
            var request = try HTTPClient.Request(url: url, method: method)
            request.headers = headers
            request.body = body
            return request
        }
        let key = Key(method: method.rawValue, url: url)
        var request: HTTPClient.Request
        if let cached = entries.withLock({ $0.cached(key) }) {
            request = cached
        } else {
            request = try HTTPClient.Request(url: url, method: method)
            entries.withLock { $0.store(request, for: key) }
        }
        request.headers = headers
        request.body = body
        return request
    }
}

