import NIOHTTP1
import Synchronization

/// Decides the answer to each request: a static route for its exact path, else a built-in route.
/// Counts requests per path and attempts per flaky key.
final class Router: Sendable {
    private struct Counters {
        var hits: [String: Int] = [:]
        var flakyAttempts: [String: Int] = [:]
        var received: [TestServer.LoggedRequest] = []
    }

    private let routes: [String: StaticRoute]
    private let counters = Mutex(Counters())
    private let gate = ReleaseGate()

    init(routes: [String: StaticRoute]) {
        self.routes = routes
    }

    func hits(_ path: String) -> Int {
        counters.withLock { $0.hits[path, default: 0] }
    }

    func recordHit(_ path: String) {
        counters.withLock { $0.hits[path, default: 0] += 1 }
    }

    /// Every request answered so far, in the order they came.
    var received: [TestServer.LoggedRequest] {
        counters.withLock { $0.received }
    }

    func reply(to request: ReceivedRequest) -> ServerReply {
        counters.withLock {
            $0.received.append(TestServer.LoggedRequest(method: request.method, path: request.path, query: request.query,
                                                        body: String(decoding: request.body, as: UTF8.self)))
        }
        if let route = routes[request.path] {
            return .respond(status: route.status, headers: route.headers, body: route.body)
        }
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        switch segments.first {
        case "status" where segments.count == 2:
            guard let code = Int(segments.last ?? ""), (100...599).contains(code) else { return notFound }
            return statusReply(code)
        case "echo":
            return .json(200, echo(request))
        case "slow" where segments.count == 1:
            let milliseconds = max(0, request.intQuery("ms") ?? 0)
            return .after(milliseconds: milliseconds, .json(200, "{\"slept_ms\":\(milliseconds)}"))
        case "never" where segments.count == 1:
            return .never
        case "close-mid-body" where segments.count == 1:
            return .closeMidBody
        case "stall-mid-body" where segments.count == 1:
            return .stallMidBody
        case "large" where segments.count == 1:
            return .stream(byteCount: max(0, request.intQuery("bytes") ?? 1024))
        case "flaky" where segments.count == 2:
            return flaky(key: String(segments.last ?? ""), request)
        case "redirect" where segments.count == 1:
            let remaining = request.intQuery("n") ?? 1
            guard remaining > 0 else { return .json(200, "{\"redirected\":true}") }
            return .respond(status: 302, headers: [("Location", "/redirect?n=\(remaining - 1)")], body: [])
        case "redirect-to" where segments.count == 1:
            // httpbin's: `?url=` (percent-encoded) is the Location, `?status=` the code (302).
            guard let location = request.queryValue("url")?.removingPercentEncoding else { return notFound }
            return .respond(status: request.intQuery("status") ?? 302, headers: [("Location", location)], body: [])
        case "pages" where segments.count == 2:
            return PageRoutes.reply(segments[segments.index(after: segments.startIndex)], request) ?? notFound
        case "held" where segments.count == 1:
            // `?type=json|octets` chooses another Content-Type than server-sent events; `?whole`
            // holds the whole answer, head included, until the release.
            let type = switch request.queryValue("type") {
            case "json": "application/json"
            case "octets": "application/octet-stream"
            default: "text/event-stream"
            }
            return .held(contentType: type, first: "data: one\n\n", rest: "data: two\n\n", gate: gate,
                         whole: request.queryValue("whole") != nil)
        case "held" where segments.last == "release":
            gate.open()
            return .json(200, "{\"released\":true}")
        case "invalid-json" where segments.count == 1:
            return .json(200, "{not json")
        default:
            return notFound
        }
    }

    private var notFound: ServerReply { statusReply(404) }

    /// `{"status":CODE,"message":"<reason phrase>"}`; no body where HTTP allows none.
    private func statusReply(_ code: Int) -> ServerReply {
        if code < 200 || code == 204 || code == 304 {
            return .respond(status: code, headers: [], body: [])
        }
        let reason = HTTPResponseStatus(statusCode: code).reasonPhrase
        return .json(code, "{\"status\":\(code),\"message\":\(JSONText.string(reason))}")
    }

    private func echo(_ request: ReceivedRequest) -> String {
        let headers = request.headers.map { "[\(JSONText.string($0.0)),\(JSONText.string($0.1))]" }
        return "{\"method\":\(JSONText.string(request.method)),\"path\":\(JSONText.string(request.path)),"
            + "\"query\":\(JSONText.string(request.query)),\"headers\":[\(headers.joined(separator: ","))],"
            + "\"body\":\(JSONText.string(String(decoding: request.body, as: UTF8.self))),"
            + "\"bodyHex\":\"\(Self.hex(request.body))\"}"
    }

    /// The bytes as lowercase hexadecimal, two digits each.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes { out += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
        return String(decoding: out, as: UTF8.self)
    }

    /// The first `fail` requests for a key get `status` (503 unless given), with Retry-After when asked, as an
    /// HTML page as a proxy's (nginx's) with `html`; then 200.
    private func flaky(key: String, _ request: ReceivedRequest) -> ServerReply {
        let attempt = counters.withLock { counters -> Int in
            counters.flakyAttempts[key, default: 0] += 1
            return counters.flakyAttempts[key, default: 0]
        }
        guard attempt <= request.intQuery("fail") ?? 1 else {
            return .json(200, "{\"ok\":true,\"attempts\":\(attempt)}")
        }
        let status = request.intQuery("status") ?? 503
        let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
        let retryAfter = request.queryValue("retry-after").map { [("Retry-After", $0)] } ?? []
        if request.queryValue("html") != nil {
            return .respond(status: status, headers: [("Content-Type", "text/html")] + retryAfter,
                            body: Array("<html><body><h1>\(status) \(reason)</h1></body></html>\n".utf8))
        }
        return .json(
            status, "{\"status\":\(status),\"message\":\(JSONText.string(reason)),\"attempt\":\(attempt)}",
            headers: retryAfter)
    }
}
