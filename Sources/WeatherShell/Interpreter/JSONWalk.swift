import Targets

/// Follows a query's path through a JSON value: the one walker for queries, `expect` and the
/// weather commands' readings.
enum JSONWalk {
    /// Follows path steps; on a miss says where and what was there instead.
    static func walk(_ root: JSONValue, _ steps: [Query.PathStep]) -> (value: JSONValue?, missing: String) {
        var current = root
        var path = ""
        for step in steps {
            switch step {
            case .key(let key):
                guard case .object(let members) = current else {
                    return (nil, "\(path.isEmpty ? "the body" : path) is \(kind(current)), not an object")
                }
                guard let next = members.last(where: { $0.key == key })?.value else {
                    let keys = members.map(\.key)
                    let guess = Suggestion.closest(to: key, in: keys).map { " (did you mean '\($0)'?)" } ?? ""
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
            }
        }
        return (current, "")
    }

    /// What kind of value this is, for messages: `a string`, `an array`.
    static func kind(_ value: JSONValue) -> String {
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
