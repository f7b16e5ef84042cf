import Targets

/// Evaluates a query against a root value. Segments are applied in a loop and descendant
/// segments walk the document with an explicit stack: nothing recurses along the document's depth
/// (only along the query's, which the parser bounds). Every node touched counts against
/// ``JSONPath/stepLimit``, and every 16,384th asks `shouldStop` whether to give up (Ctrl-C).
struct JSONPathEvaluator {
    let root: JSONValue
    private let stepLimit: Int
    private let shouldStop: () -> Bool
    private var steps = 0
    /// Patterns taken from the document (not literals in the query), compiled once per evaluation.
    private var patterns: [[UInt8]: JSONPathCompiledPattern] = [:]
    private static let patternCacheSize = 256

    init(root: JSONValue, stepLimit: Int = JSONPath.stepLimit, shouldStop: @escaping () -> Bool = { false }) {
        self.root = root
        self.stepLimit = stepLimit
        self.shouldStop = shouldStop
    }

    /// The nodelist `query` selects, from the root (`$`) or from `current` (`@`).
    mutating func select(_ query: JSONPathQuery, current: JSONValue) throws(JSONPathError) -> [JSONValue] {
        var nodes = [query.isAbsolute ? root : current]
        for segment in query.segments {
            nodes = try apply(segment, to: nodes)
            if nodes.isEmpty { break }
        }
        return nodes
    }

    /// The nodes `segment` selects from each of `nodes`, in order.
    mutating func apply(_ segment: JSONPathSegment, to nodes: [JSONValue]) throws(JSONPathError) -> [JSONValue] {
        var next: [JSONValue] = []
        for node in nodes {
            if segment.isDescendant {
                try descend(from: node, applying: segment.selectors, into: &next)
            } else {
                for selector in segment.selectors {
                    try apply(selector, to: node, into: &next)
                }
            }
        }
        return next
    }

    /// The selectors applied to `node` and to each of its descendants, parents before children and
    /// children in order: a pre-order walk kept on a stack of its own.
    private mutating func descend(
        from node: JSONValue, applying selectors: [JSONPathSelector], into output: inout [JSONValue]
    ) throws(JSONPathError) {
        var pending = [node]
        while let visited = pending.popLast() {
            try spend()
            for selector in selectors {
                try apply(selector, to: visited, into: &output)
            }
            switch visited {
            case .array(let elements): pending.append(contentsOf: elements.reversed())
            case .object(let members): pending.append(contentsOf: members.reversed().lazy.map(\.value))
            case .null, .bool, .number, .string: break
            }
        }
    }

    private mutating func apply(
        _ selector: JSONPathSelector, to node: JSONValue, into output: inout [JSONValue]
    ) throws(JSONPathError) {
        switch selector {
        case .name(let name):
            guard case .object(let members) = node else { return }
            // Keys compare by scalars (no Unicode normalization); a repeated key gives its last value.
            if let member = members.last(where: { $0.key.utf8.elementsEqual(name.utf8) }) {
                try emit(member.value, into: &output)
            }
        case .wildcard:
            switch node {
            case .array(let elements):
                for element in elements { try emit(element, into: &output) }
            case .object(let members):
                for member in members { try emit(member.value, into: &output) }
            case .null, .bool, .number, .string:
                break
            }
        case .index(let index):
            guard case .array(let elements) = node else { return }
            let position = index < 0 ? elements.count + index : index
            if elements.indices.contains(position) { try emit(elements[position], into: &output) }
        case .slice(let start, let end, let step):
            guard case .array(let elements) = node else { return }
            for position in JSONPathSlice.indices(start: start, end: end, step: step, count: elements.count) {
                try emit(elements[position], into: &output)
            }
        case .filter(let logical):
            switch node {
            case .array(let elements):
                for element in elements {
                    try spend()
                    if try test(logical, current: element) { try emit(element, into: &output) }
                }
            case .object(let members):
                for member in members {
                    try spend()
                    if try test(logical, current: member.value) { try emit(member.value, into: &output) }
                }
            case .null, .bool, .number, .string:
                break
            }
        }
    }

    private mutating func emit(_ value: JSONValue, into output: inout [JSONValue]) throws(JSONPathError) {
        try spend()
        output.append(value)
    }

    private mutating func spend() throws(JSONPathError) {
        steps += 1
        if steps & 0x3FFF == 0, shouldStop() { throw .interrupted }
        if steps > stepLimit {
            throw JSONPathError(message: "the query visits more than \(stepLimit) nodes of this document; narrow it down")
        }
    }

    // MARK: Filters

    /// Whether the filter expression holds for `current`.
    mutating func test(_ logical: JSONPathLogical, current: JSONValue) throws(JSONPathError) -> Bool {
        switch logical {
        case .or(let items):
            for item in items where try test(item, current: current) { return true }
            return false
        case .and(let items):
            for item in items where try !test(item, current: current) { return false }
            return true
        case .not(let operand):
            return try !test(operand, current: current)
        case .exists(let query):
            return try !select(query, current: current).isEmpty
        case .function(let call):
            switch try evaluate(call, current: current) {
            case .logical(let result): return result
            case .nodes(let nodes): return !nodes.isEmpty
            case .value: return false
            }
        case .comparison(let left, let comparison, let right):
            let leftValue = try value(of: left, current: current)
            let rightValue = try value(of: right, current: current)
            return JSONPathComparison.holds(leftValue, comparison, rightValue)
        }
    }

    /// One side of a comparison: its value, or nil for Nothing.
    mutating func value(of comparable: JSONPathComparable, current: JSONValue) throws(JSONPathError) -> JSONValue? {
        switch comparable {
        case .literal(let value):
            return value
        case .query(let query):
            let nodes = try select(query, current: current)
            return nodes.count == 1 ? nodes.first : nil
        case .function(let call):
            if case .value(let value) = try evaluate(call, current: current) { return value }
            return nil
        }
    }

    /// A pattern found in the document, compiled (or found invalid) once per evaluation.
    mutating func compiled(_ pattern: String, wholeString: Bool) -> LinearRegex? {
        let key = [wholeString ? 1 : 0] + Array(pattern.utf8)
        if let known = patterns[key] { return known.regex }
        let compiled = JSONPathCompiledPattern(regex: JSONPathIRegexp.compile(pattern, wholeString: wholeString))
        if patterns.count < Self.patternCacheSize { patterns[key] = compiled }
        return compiled.regex
    }
}

/// Array slices (RFC 9535 section 2.3.4.2.2): bounds normalized and clamped, negative steps counting down.
enum JSONPathSlice {
    /// The positions `start:end:step` selects in an array of `count` elements, in selection order.
    static func indices(start: Int?, end: Int?, step: Int?, count: Int) -> [Int] {
        let step = step ?? 1
        guard step != 0, count > 0 else { return [] }
        func normalized(_ index: Int) -> Int { index >= 0 ? index : count + index }
        var positions: [Int] = []
        if step > 0 {
            let lower = min(max(normalized(start ?? 0), 0), count)
            let upper = min(max(normalized(end ?? count), 0), count)
            var position = lower
            while position < upper {
                positions.append(position)
                position += step
            }
        } else {
            let upper = min(max(start.map(normalized) ?? count - 1, -1), count - 1)
            let lower = min(max(end.map(normalized) ?? -1, -1), count - 1)
            var position = upper
            while lower < position {
                positions.append(position)
                position += step
            }
        }
        return positions
    }
}
