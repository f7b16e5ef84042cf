import Targets

/// A parsed, well-typed query: `$` or `@`, then segments.
struct JSONPathQuery: Sendable {
    /// `$` (from the root) rather than `@` (from the current node of a filter).
    var isAbsolute: Bool
    var segments: [JSONPathSegment]

    /// Whether the query selects at most one node: only child segments of one name or index each.
    var isSingular: Bool {
        segments.allSatisfy { segment in
            guard !segment.isDescendant, segment.selectors.count == 1, let selector = segment.selectors.first else {
                return false
            }
            switch selector {
            case .name, .index: return true
            case .wildcard, .slice, .filter: return false
            }
        }
    }
}

/// A child segment (`.name`, `[...]`) or a descendant segment (`..name`, `..[...]`).
struct JSONPathSegment: Sendable {
    var isDescendant: Bool
    var selectors: [JSONPathSelector]
}

/// One selector of a segment.
enum JSONPathSelector: Sendable {
    case name(String)
    case wildcard
    case index(Int)
    case slice(start: Int?, end: Int?, step: Int?)
    case filter(JSONPathLogical)
}

/// A filter's logical expression, after type checking.
indirect enum JSONPathLogical: Sendable {
    case or([JSONPathLogical])
    case and([JSONPathLogical])
    case not(JSONPathLogical)
    /// A query as a test: true when it selects at least one node.
    case exists(JSONPathQuery)
    /// A function giving a logical result or nodes (true when there are some).
    case function(JSONPathFunctionCall)
    case comparison(JSONPathComparable, JSONPathComparisonOperator, JSONPathComparable)
}

/// One side of a comparison: a value, or Nothing when a query selects no node.
enum JSONPathComparable: Sendable {
    case literal(JSONValue)
    /// A singular query.
    case query(JSONPathQuery)
    /// A function giving a value.
    case function(JSONPathFunctionCall)
}

enum JSONPathComparisonOperator: String, Sendable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
}

/// A call of a function extension, its arguments checked against the parameters' types.
struct JSONPathFunctionCall: Sendable {
    var function: JSONPathFunction
    var arguments: [JSONPathArgument]
    /// For `match()` and `search()` with a literal pattern: the pattern compiled once at parse time.
    var pattern: JSONPathCompiledPattern?
}

/// A function argument, by the type of its parameter.
enum JSONPathArgument: Sendable {
    case value(JSONPathComparable)
    case nodes(JSONPathQuery)
    case nodesFunction(JSONPathFunctionCall)
    case logical(JSONPathLogical)
}

/// An I-Regexp compiled for the linear-time engine; `regex` is nil when the pattern is not a valid
/// I-Regexp (then `match()` and `search()` are false, as the RFC says).
struct JSONPathCompiledPattern: Sendable {
    var regex: LinearRegex?
}
