import Targets

/// Follows a query's path through a JSON value: the one walker for queries, `expect` and the
/// weather commands' readings.
public enum JSONWalk {
    /// Follows path steps; on a miss says where and what was there instead. After `[*]`, a slice
    /// or `..name`, the rest of the path goes over each value found, and the result is the list of
    /// what it found (values the rest does not reach are left out, as JSONPath leaves them).
    /// `holds` decides `[? EXPR]` for each element.
    public static func walk<Condition>(
        _ root: JSONValue, _ steps: [QueryStep<Condition>], where holds: (Condition, JSONValue) throws -> Bool
    ) rethrows -> (value: JSONValue?, missing: String) {
        var current = root
        var path = ""
        for (position, step) in steps.enumerated() {
            switch step {
            case .key(let key):
                guard case .object(let members) = current else {
                    return (nil, "\(path.isEmpty ? "the body" : path) is \(kind(current)), not an object")
                }
                guard let next = members.last(where: { $0.key == key })?.value else {
                    let keys = members.map(\.key)
                    let guess = EditDistance.closest(to: key, in: keys).map { " (did you mean '\($0)'?)" } ?? ""
                    return (nil, "no key '\(key)' at \(path.isEmpty ? "the top" : path)\(guess); keys: \(keys.prefix(12).joined(separator: ", "))")
                }
                current = next
                path += key.contains(" ") || key.isEmpty ? ".\(JSONValue.quoted(key))" : ".\(key)"
            case .index(let index):
                guard case .array(let elements) = current else {
                    return (nil, "\(path.isEmpty ? "the body" : path) is \(kind(current)), not an array")
                }
                let position = index < 0 ? elements.count + index : index
                guard elements.indices.contains(position) else {
                    return (nil, "index \(index) is outside \(path.isEmpty ? "the array" : path) of \(elements.count) elements")
                }
                current = elements[position]
                path += "[\(index)]"
            case .all, .slice, .descendants, .filter:
                let found: [JSONValue]
                switch (step, current) {
                case (.all, .array(let elements)): found = elements
                case (.all, .object(let members)): found = members.map(\.value)
                case (.filter(let filter), .array(let elements)): found = try elements.filter { try holds(filter, $0) }
                case (.filter(let filter), .object(let members)): found = try members.map(\.value).filter { try holds(filter, $0) }
                case (.slice(let from, let to), .array(let elements)): found = slice(elements, from, to)
                case (.descendants(let key), _): found = descendants(named: key, in: current)
                default:
                    return (nil, "\(path.isEmpty ? "the body" : path) is \(kind(current)), not an array")
                }
                let rest = Array(steps[(position + 1)...])
                return (.array(try found.compactMap { try walk($0, rest, where: holds).value }), "")
            }
        }
        return (current, "")
    }

    /// `elements[from..<to]`, Python's way: negative bounds count from the end, bounds past the ends are clamped.
    private static func slice(_ elements: [JSONValue], _ from: Int?, _ to: Int?) -> [JSONValue] {
        func bound(_ value: Int?, _ otherwise: Int) -> Int {
            guard let value else { return otherwise }
            return min(elements.count, max(0, value < 0 ? elements.count + value : value))
        }
        let start = bound(from, 0), end = bound(to, elements.count)
        return start < end ? Array(elements[start..<end]) : []
    }

    /// Every value of a member named `key`, at any depth (an object's own before its children's);
    /// iterative, so depth costs no stack.
    private static func descendants(named key: String, in root: JSONValue) -> [JSONValue] {
        var found: [JSONValue] = []
        var pending: [JSONValue] = [root]
        while let value = pending.popLast() {
            switch value {
            case .object(let members):
                for member in members where member.key == key { found.append(member.value) }
                pending.append(contentsOf: members.reversed().map(\.value))
            case .array(let elements):
                pending.append(contentsOf: elements.reversed())
            default:
                break
            }
        }
        return found
    }

    /// What kind of value this is, for messages: `a string`, `an array`.
    public static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

}
