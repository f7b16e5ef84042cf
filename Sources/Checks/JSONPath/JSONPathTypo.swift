import Targets

/// Why a JSONPath found nothing, when a name in it is most likely a typo (`nmae` where the values
/// reached have `name`): the error its wsh-path spelling (`.items[? .id == 1].nmae`) is.
public struct JSONPathMiss: Sendable {
    /// What is missing where, with the name close to it (`no key 'nmae' in the value reached (did you mean 'name'?)`).
    public var reason: String
    /// The key, and whether a filter's condition read it (`[?@.nmae == "a"]`); nil for a key missing
    /// before the query fans out (`$.itmes[*].name`): nothing is there, as `.itmes[*].name` finds nothing.
    public var typo: (key: String, inFilter: Bool)?
}

extension JSONPath {
    /// Why the query finds nothing in `root`, when the segment that left its nodelist empty names
    /// a key that none of the values it went over has, while one has a key close to it (not its
    /// singular or plural: `errors` beside `error` is an answer); nil otherwise, and when it finds some.
    /// A name, a key a filter's condition reads or `..name` can be such a typo, after
    /// any selectors: `[*]`, a union, a slice with a step, a filter.
    public func typo(in root: JSONValue) throws(JSONPathError) -> JSONPathMiss? {
        var evaluator = JSONPathEvaluator(root: root)
        var nodes = [root]
        var path = ""
        var fannedOut = false
        for segment in query.segments {
            let next = try evaluator.apply(segment, to: nodes)
            guard next.isEmpty else {
                nodes = next
                if !fannedOut, let step = segment.singleStep { path += step } else { fannedOut = true }
                continue
            }
            return Self.miss(segment, from: nodes, fannedOut: fannedOut, at: path, pluralIsNoTypo: !walksAsAPath)
        }
        return nil
    }

    /// Why `segment` reached nothing from `nodes`, when by a typo.
    /// A name or `..name` in a query that walks as a path (0.4.9 checked those: `$.items[*].tag`
    /// where items have `tags` is an error) is a typo when a key close to it is there; elsewhere
    /// (after a filter, a union or a stepped slice, in a filter) its singular or plural is no typo.
    private static func miss(_ segment: JSONPathSegment, from nodes: [JSONValue], fannedOut: Bool, at path: String,
                             pluralIsNoTypo: Bool) -> JSONPathMiss? {
        for selector in segment.selectors {
            switch (segment.isDescendant, selector) {
            case (true, .name(let key)):
                if let miss = miss(.descendants(key), from: nodes, pluralIsNoTypo: false) { return miss }
            case (false, .name(let key)):
                // One object before any fan-out (`$.itmes[*]`): the key step's miss, as a path says it.
                if !fannedOut, nodes.count == 1, case .object(let members)? = nodes.first {
                    let keys = members.map(\.key)
                    guard EditDistance.typo(of: key, in: keys) != nil else { continue }
                    return JSONPathMiss(reason: JSONWalk.noKeyText(key, at: path, keys: keys), typo: nil)
                }
                if let miss = miss(.key(key), from: nodes, pluralIsNoTypo: pluralIsNoTypo) { return miss }
            case (false, .filter(let logical)):
                for key in logical.keysRead {
                    if let miss = miss(.filter(key), from: nodes, pluralIsNoTypo: true) { return miss }
                }
            default: continue
            }
        }
        return nil
    }

    private static func miss(_ read: JSONWalk.KeyRead, from nodes: [JSONValue], pluralIsNoTypo: Bool) -> JSONPathMiss? {
        let reason = JSONWalk.noKey(read, from: nodes, pluralIsNoTypo: pluralIsNoTypo)
        return reason.typo.map { JSONPathMiss(reason: reason.text, typo: $0) }
    }

    /// Whether each segment is one name, index, `*` or step-less slice, or `..name`: a query
    /// 0.4.9 walked as a path to find a typo in.
    var walksAsAPath: Bool {
        query.segments.allSatisfy { segment in
            guard segment.selectors.count == 1, let selector = segment.selectors.first else { return false }
            switch (segment.isDescendant, selector) {
            case (true, .name), (false, .name), (false, .index), (false, .wildcard): return true
            case (false, .slice(_, _, let step)): return step == nil || step == 1
            default: return false
            }
        }
    }
}

extension JSONPathSegment {
    /// The segment as a path's step (`.name`, `[0]`) when it is a child segment of one name or
    /// index; nil when it may reach several values.
    var singleStep: String? {
        guard !isDescendant, selectors.count == 1, let selector = selectors.first else { return nil }
        switch selector {
        case .name(let name): return JSONWalk.keyStep(name)
        case .index(let index): return "[\(index)]"
        case .wildcard, .slice, .filter: return nil
        }
    }
}

extension JSONPathLogical {
    /// The keys of the current node a filter reads, in order (`id` and `nmae` of `?@.id == 1 &&
    /// @.nmae == "a"`, `nmae` of `?match(@.nmae, "a")`); none where it asks whether one exists
    /// (`?@.deleted`, `?!@.x`).
    var keysRead: [String] {
        switch self {
        case .or(let items), .and(let items): items.flatMap(\.keysRead)
        case .not, .exists: []
        case .function(let call): call.keyRead.map { [$0] } ?? []
        case .comparison(let left, _, let right): [left.keyRead, right.keyRead].compactMap { $0 }
        }
    }
}

extension JSONPathComparable {
    var keyRead: String? {
        switch self {
        case .literal: nil
        case .query(let query): query.firstKey
        case .function(let call): call.keyRead
        }
    }
}

extension JSONPathFunctionCall {
    /// The key its first argument reads (`length(@.tags)`).
    var keyRead: String? {
        switch arguments.first {
        case .value(let comparable)?: comparable.keyRead
        case .nodes(let query)?: query.firstKey
        default: nil
        }
    }
}

extension JSONPathQuery {
    /// The key of `@.key...`: a relative query's first segment, one name.
    var firstKey: String? {
        guard !isAbsolute, let first = segments.first, !first.isDescendant, first.selectors.count == 1,
              case .name(let key)? = first.selectors.first else { return nil }
        return key
    }
}
