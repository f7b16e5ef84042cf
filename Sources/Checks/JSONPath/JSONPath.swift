import Targets

/// A JSONPath query (RFC 9535), parsed once and evaluated against any number of JSON values.
///
/// ```swift
/// let cheap = try JSONPath("$.store.book[?@.price < 10].title")
/// let titles = try cheap.values(in: document)
/// ```
///
/// Parsing checks the whole query, the RFC's well-typedness rules for function extensions
/// included, so a query that parses can only fail at evaluation by exceeding a work limit.
/// Evaluation never recurses along the document: a deeply nested answer cannot exhaust the stack.
public struct JSONPath: Sendable {
    /// The query as written.
    public let expression: String
    let query: JSONPathQuery

    /// Parses an RFC 9535 query such as `$.store.book[?@.price < 10].title`.
    ///
    /// Throws a ``JSONPathError`` naming what is wrong and the offset where parsing stopped.
    public init(_ expression: String) throws(JSONPathError) {
        var parser = JSONPathParser(expression)
        query = try parser.parseQuery()
        self.expression = expression
    }

    /// The nodelist's values, in document order as the RFC defines it.
    ///
    /// Throws a ``JSONPathError`` (without an offset) only when evaluation exceeds a work limit:
    /// ``JSONPath/stepLimit`` nodes visited, or a regular expression's step budget.
    /// `shouldStop` is asked every few thousand nodes; when it says yes, the error thrown is
    /// ``JSONPathError/isInterrupted``.
    public func values(in root: JSONValue, shouldStop: @escaping () -> Bool = { false }) throws(JSONPathError) -> [JSONValue] {
        try values(in: root, stepLimit: Self.stepLimit, shouldStop: shouldStop)
    }

    /// The values, with a limit of its own on the nodes visited (for tests).
    func values(in root: JSONValue, stepLimit: Int, shouldStop: @escaping () -> Bool = { false }) throws(JSONPathError) -> [JSONValue] {
        var evaluator = JSONPathEvaluator(root: root, stepLimit: stepLimit, shouldStop: shouldStop)
        return try evaluator.select(query, current: root)
    }

    /// Whether the query names at most one node (only name and index selectors, RFC 9535 2.3.5.1):
    /// its result is that value, not a list.
    public var isSingular: Bool { query.isSingular }

    /// Whether its last segment is a child segment of one name or index (`$.users[?@.id==1].tags`):
    /// it reads a value of each node reached, rather than making a list (`[*]`, a filter, `..name`).
    public var endsOnANameOrIndex: Bool { query.segments.last?.singleStep != nil }

    /// Whether its nodes come from filters alone (`$.users[?@.id==1].name`): child segments of one
    /// name, index or filter each, and a filter among them.
    public var picksByFilter: Bool {
        var filtered = false
        for segment in query.segments {
            guard !segment.isDescendant, segment.selectors.count == 1, let selector = segment.selectors.first else { return false }
            switch selector {
            case .name, .index: continue
            case .filter: filtered = true
            case .wildcard, .slice: return false
            }
        }
        return filtered
    }

    /// The most nodes one evaluation visits (selected, descended into or filtered) before it gives up.
    public static let stepLimit = 50_000_000
}
