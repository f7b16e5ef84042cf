import AsyncHTTPClient
import NIOHTTP1
import Synchronization

/// The last request a transport sent, as checked and made for the clients. Calling a target
/// again sends the same URL, method and headers; checking them, making NIO's headers of them and
/// finding the parsed URL again cost about 8,000 instructions a call (callgrind). Only a request
/// with the same URL, method and headers, byte for byte, takes them from here; its body is its own.
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

    /// What the last request made, when `request` has its URL, method and headers.
    func made(for request: Request) -> Made? {
        last.withLock { last in
            guard let last, last.url.hasSameBytes(as: request.url), last.method == request.method,
                  Header.haveSameBytes(last.headers, request.headers) else {
                return nil
            }
            return last.made
        }
    }

    /// Keeps what `request`, found sendable, made.
    func keep(_ made: Made, for request: Request) {
        last.withLock { $0 = Entry(url: request.url, method: request.method, headers: request.headers, made: made) }
    }
}
