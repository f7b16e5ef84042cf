import AsyncHTTPClient
import NIOHTTP1
import Synchronization

/// The last request a transport sent, as checked and made for the clients. Calling a target
/// again sends the same URL, method and headers; checking them, making NIO's headers of them and
/// finding the parsed URL again cost about 8,000 instructions a call (callgrind). Only a request
/// with the same URL, method and headers, byte for byte, takes them all from here; one whose header
/// values alone differ takes what the URL made. Its body is always its own.
final class LastSentRequest: Sendable {
    /// What a request's URL, method and headers make, once they were found sendable.
    struct Made {
        /// The headers as both clients take them.
        var headers: HTTPHeaders
        /// AsyncHTTPClient's request, with those headers and no body.
        var outgoing: HTTPClient.Request
    }

    private struct Entry {
        var url: String
        var method: HTTPMethod
        var headers: [Header]
        var made: Made
    }

    private let last = Mutex<Entry?>(nil)

    /// What the last request made, when `request` has its URL and method, and headers of the same
    /// names in the same order. `sameHeaders` when their values are the same too, byte for byte: all
    /// of it holds. Else the values differ (a cookie that changed since), and only what the URL and
    /// method made holds: the URL's checks and parse, and the names' check.
    func made(for request: Request) -> (made: Made, sameHeaders: Bool)? {
        last.withLock { last in
            guard let last, last.url.hasSameBytes(as: request.url), last.method == request.method,
                  last.headers.count == request.headers.count else {
                return nil
            }
            var sameValues = true
            for (old, new) in zip(last.headers, request.headers) {
                guard old.name.hasSameBytes(as: new.name) else { return nil }
                if sameValues, !old.value.hasSameBytes(as: new.value) { sameValues = false }
            }
            return (last.made, sameValues)
        }
    }

    /// Keeps what `request`, found sendable, made.
    func keep(_ made: Made, for request: Request) {
        last.withLock { $0 = Entry(url: request.url, method: request.method, headers: request.headers, made: made) }
    }
}
