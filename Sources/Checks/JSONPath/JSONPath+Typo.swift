import Targets

extension JSONPath {
    /// Why the query found nothing in `root`, when a typo most likely made its nodelist empty, as
    /// the path walk says it for `.items[*].nmae` and `.items[? .stauts == "x"]`: the segment
    /// where the nodelist became empty is a name none of the values reached has (`$.a[*].idd`),
    /// at any depth (`$..idd`), or a filter whose first key (`@.idd`) no element has, while one
    /// has a key close to it. `key` is that key, `inFilter` whether a filter read it. Nil
    /// otherwise: an optional key none has and none is close to, or a filter that asks whether
    /// the key exists (`[?@.deleted]`), may rightly keep nothing.
    public func typo(in root: JSONValue) -> (text: String, key: String, inFilter: Bool)? {
        var evaluator = JSONPathEvaluator(root: root)
        var nodes = [root]
        for segment in query.segments {
            var next: [JSONValue] = []
            for node in nodes {
                guard let selected = try? evaluator.select(JSONPathQuery(isAbsolute: false, segments: [segment]), current: node) else { return nil }
                next += selected
            }
            guard next.isEmpty else {
                nodes = next
                continue
            }
            guard !nodes.isEmpty, segment.selectors.count == 1, let selector = segment.selectors.first else { return nil }
            let reason: JSONWalk.NoKey
            switch (segment.isDescendant, selector) {
            case (false, .name(let key)): reason = JSONWalk.noKeyReason(key, in: nodes)
            case (true, .name(let key)): reason = JSONWalk.noKeyReason(key, below: nodes)
            case (false, .filter(let logical)):
                guard let (key, asksWhetherItExists) = Self.firstKeyRead(logical), !asksWhetherItExists else { return nil }
                reason = JSONWalk.noKeyReason(key, filtering: nodes)
            default: return nil
            }
            return reason.typo.map { (reason.text, $0.key, $0.inFilter) }
        }
        return nil
    }

    /// The first key a filter reads from its element (`idd` of `@.idd == 'x'`), and whether it
    /// only asks whether that key exists (`?@.idd`, `?!@.idd`).
    static func firstKeyRead(_ logical: JSONPathLogical) -> (key: String, asksWhetherItExists: Bool)? {
        func key(of query: JSONPathQuery) -> String? {
            guard !query.isAbsolute, let first = query.segments.first, !first.isDescendant, first.selectors.count == 1,
                  case .name(let name)? = first.selectors.first else { return nil }
            return name
        }
        func read(_ comparable: JSONPathComparable) -> (key: String, asksWhetherItExists: Bool)? {
            switch comparable {
            case .literal: nil
            case .query(let query): key(of: query).map { ($0, false) }
            case .function(let call): read(call)
            }
        }
        func read(_ call: JSONPathFunctionCall) -> (key: String, asksWhetherItExists: Bool)? {
            for argument in call.arguments {
                let found: (key: String, asksWhetherItExists: Bool)? = switch argument {
                case .value(let comparable): read(comparable)
                case .nodes(let query): key(of: query).map { ($0, false) }
                case .nodesFunction(let inner): read(inner)
                case .logical(let inner): firstKeyRead(inner)
                }
                if let found { return found }
            }
            return nil
        }
        switch logical {
        case .or(let parts), .and(let parts):
            for part in parts { if let found = firstKeyRead(part) { return found } }
            return nil
        case .not(let inner): return firstKeyRead(inner)
        case .exists(let query): return key(of: query).map { ($0, true) }
        case .function(let call): return read(call)
        case .comparison(let left, _, let right): return read(left) ?? read(right)
        }
    }
}
