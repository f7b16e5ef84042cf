import Foundation
import Targets

extension Interpreter {
    /// The value a query finds in the last response, or nil with the reason it found nothing.
    func lookUp(_ query: Query) throws -> (value: JSONValue?, missing: String) {
        guard let response = lastResponse else {
            throw failure("no response yet: call a target first", at: query.span)
        }
        var value: JSONValue?
        var missing = ""
        switch query.source {
        case .status: value = .number(String(response.status))
        case .time: value = .number(String(Int(response.elapsed.milliseconds)))
        case .body: value = .string(response.text)
        case .header(let name):
            value = response.header(name).map(JSONValue.string)
            if value == nil { missing = "no header '\(name)' in the response" }
        case .path(let steps):
            let root: JSONValue
            do {
                root = try response.json()
            } catch {
                throw failure("the response body is not JSON, so '\(currentFile.text(query.span.start..<query.span.end))' has nothing to read",
                              at: query.span, notes: [mask(error.description)])
            }
            (value, missing) = Self.walk(root, steps)
        }
        for filter in query.filters {
            guard let current = value else { break }
            switch (filter, current) {
            case (.length, .array(let elements)): value = .number(String(elements.count))
            case (.length, .object(let members)): value = .number(String(members.count))
            case (.length, .string(let text)): value = .number(String(text.count))
            case (.keys, .object(let members)): value = .array(members.map { .string($0.key) })
            default:
                throw failure("'| \(filter.rawValue)' needs \(filter == .keys ? "an object" : "an array, object or string"), found \(Self.kind(current))",
                              at: query.span)
            }
        }
        return (value, missing)
    }

    /// Follows path steps; on a miss says where and what was there instead.
    static func walk(_ root: JSONValue, _ steps: [Query.PathStep]) -> (JSONValue?, String) {
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

    /// A JSON value as text: strings without quotes, everything else as compact JSON.
    static func text(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return value.compactText
    }

    /// The text of a query, for `let` and `print`; a miss is an error.
    func evaluateQuery(_ query: Query) throws -> String {
        let (value, missing) = try lookUp(query)
        guard let value else {
            throw failure("'\(currentFile.text(query.span.start..<query.span.end))' found nothing", at: query.span, notes: [missing])
        }
        return Self.text(value)
    }
}
