import Checks
import Targets

/// What the mock server answers from, replaced whole when the session's declarations change:
/// the routes, how to mask the request log, and the latency to add.
public struct MockRoutes: Sendable {
    /// Every route, in declaration order.
    public let routes: [MockRoute]
    /// Masks secrets in the request log as the logger plugin does.
    public let redaction: Redaction
    /// Latency added before each answer; nil for none.
    public let delay: Duration?
    /// The seed of answers made up from schemas: with the request, it fixes the answer.
    public let seed: UInt64

    /// A table of routes, with the log's masking, the latency to add and the seed of made-up answers.
    public init(routes: [MockRoute], redaction: Redaction = Redaction(), delay: Duration? = nil, seed: UInt64 = 0) {
        self.routes = routes
        self.redaction = redaction
        self.delay = delay
        self.seed = seed
    }

    /// How a request's method and path fit the routes.
    enum Match {
        /// A route answers; the values of its path placeholders.
        case found(MockRoute, pathValues: [String: String])
        /// The path is known, with other methods.
        case wrongMethod(allowed: [String])
        /// No route has this path; the routes nearest to it, nearest first.
        case notFound(nearest: [MockRoute])
    }

    /// The route for `method`, `path` and `query`: among the routes whose path fits, the one of
    /// that method with the most literal segments; among those, the one whose declared query the
    /// request fits best (two targets may share a path and differ by query, as Open-Meteo's
    /// `current` and `hourly` do); then one with an answer to give (a sample or a schema) over one
    /// without; then the first declared. GET routes answer HEAD too.
    func match(method: String, path: Substring, query: Substring = "") -> Match {
        let requestSegments = MockRoute.decodedSegments(of: path)
        var candidates: [(route: MockRoute, values: [String: String])] = []
        var allowed: [String] = []
        for route in routes {
            guard let values = route.match(requestSegments) else { continue }
            if !allowed.contains(route.method) { allowed.append(route.method) }
            guard route.method == method || (method == "HEAD" && route.method == "GET") else { continue }
            candidates.append((route, values))
        }
        let mostLiteral = candidates.map(\.route.literalCount).max() ?? 0
        candidates.removeAll { $0.route.literalCount < mostLiteral }
        if candidates.count > 1 {
            let items = FormItems.items(in: query)
            let scores = candidates.map { $0.route.queryFit(items) }
            let best = scores.max() ?? 0
            // Among those the query fits best, one with nothing to answer with gives way to one that
            // has (a Postman collection's request beside its saved example).
            let fitting = candidates.indices.filter { scores[$0] == best }
            if let index = fitting.first(where: { candidates[$0].route.canAnswer }) ?? fitting.first {
                return .found(candidates[index].route, pathValues: candidates[index].values)
            }
        }
        if let only = candidates.first { return .found(only.route, pathValues: only.values) }
        if !allowed.isEmpty {
            if allowed.contains("GET"), !allowed.contains("HEAD") { allowed.append("HEAD") }
            return .wrongMethod(allowed: allowed)
        }
        return .notFound(nearest: nearest(to: path))
    }

    /// Up to three routes whose paths are fewest edits from `path`, nearest first.
    private func nearest(to path: Substring, limit: Int = 3) -> [MockRoute] {
        // A hostile path thousands of characters long would make each distance slow: compare a prefix.
        let wanted = Array(path.utf8.prefix(256))
        let segments = MockRoute.segments(of: path)
        let ranked = routes.map { route in (route, EditDistance.between(wanted, Array(route.path(filledFrom: segments).utf8.prefix(256)))) }
        return ranked.sorted { $0.1 < $1.1 }.prefix(limit).map(\.0)
    }
}
