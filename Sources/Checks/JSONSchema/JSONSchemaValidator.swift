import Foundation
import Targets

/// Checks a JSON value against a JSON Schema as OpenAPI 3.0 and 3.1 write them: `type`,
/// `properties`, `required`, `items`, `enum`, `const`, `oneOf`, `anyOf`, `allOf`, `$ref`
/// (local, `#/...`), `nullable`, and the formats `date-time`, `uuid` and `email`. Other keywords
/// are not checked. Work is bounded: schemas nest at most ``maxDepth`` levels (a `$ref` cycle
/// that never reaches the value's end stops there), and a `$ref` that names nothing checks nothing.
public struct JSONSchemaValidator: Sendable {
    /// The document `$ref`s point into.
    public let root: JSONValue
    /// How deep schema checks may nest (each `$ref`, combinator and property is a level).
    public var maxDepth = 256
    /// How many (value, schema) checks one call may make: `anyOf` inside a `$ref` cycle could
    /// otherwise double the work at each level.
    public var maxSteps = 20_000_000

    /// What one call to ``violations(of:against:at:)`` has found and spent.
    private struct Progress {
        var found: [SchemaViolation] = []
        var steps = 0
        var stopped = false
    }

    public init(root: JSONValue) {
        self.root = root
    }

    /// Every way `value` differs from `schema`, in document order; empty when it conforms.
    /// `pointer` is where the schema is in ``root``, for refs relative to nothing (unused today).
    public func violations(of value: JSONValue, against schema: JSONValue, at pointer: String = "") -> [SchemaViolation] {
        var progress = Progress()
        check(value, schema, at: "", depth: 0, into: &progress)
        if progress.stopped {
            progress.found.append(SchemaViolation(pointer: "", expected: "a check of at most \(maxSteps) steps", actual: "more: the check stopped there"))
        }
        return progress.found
    }

    /// The JSON type name of a value: `null`, `boolean`, `integer`, `number`, `string`, `array`, `object`.
    public static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number(let literal): ExactNumber(literal)?.isInteger == true ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    private func check(_ value: JSONValue, _ schema: JSONValue, at pointer: String, depth: Int, into progress: inout Progress) {
        progress.steps += 1
        if progress.steps > maxSteps { progress.stopped = true }
        guard !progress.stopped, depth < maxDepth, case .object = schema else {
            // `false` as a schema accepts nothing (3.1); `true`, anything else or too deep: no check.
            if schema == .bool(false) { progress.found.append(SchemaViolation(pointer: pointer, expected: "nothing (the schema is false)", actual: SchemaViolation.show(value))) }
            return
        }
        if case .string(let ref)? = schema["$ref"] {
            if ref.hasPrefix("#"), let target = Self.resolve(String(ref.dropFirst()), in: root) {
                check(value, target, at: pointer, depth: depth + 1, into: &progress)
            }
            // In 3.0 a $ref's siblings are ignored; in 3.1 they apply, and are rarely there: check them too.
        }
        if value == .null, schema["nullable"] == .bool(true) { return }
        if let types = Self.types(schema), !types.isEmpty, !types.contains(where: { Self.matches(value, type: $0) }) {
            progress.found.append(SchemaViolation(pointer: pointer, expected: types.joined(separator: " or "), actual: SchemaViolation.show(value)))
            return
        }
        if case .array(let allowed)? = schema["enum"], !allowed.contains(where: { Self.equal($0, value) }) {
            let list = allowed.prefix(10).map(\.compactText).joined(separator: ", ") + (allowed.count > 10 ? ", …" : "")
            progress.found.append(SchemaViolation(pointer: pointer, expected: "one of \(list)", actual: SchemaViolation.show(value)))
        }
        if let constant = schema["const"], !Self.equal(constant, value) {
            progress.found.append(SchemaViolation(pointer: pointer, expected: constant.compactText, actual: SchemaViolation.show(value)))
        }
        if case .string(let format)? = schema["format"], case .string(let text) = value, let valid = SchemaFormats.check(format, text), !valid {
            progress.found.append(SchemaViolation(pointer: pointer, expected: "\(format == "email" ? "an" : "a") \(format) string", actual: SchemaViolation.show(value)))
        }
        checkObject(value, schema, at: pointer, depth: depth, into: &progress)
        if case .array(let elements) = value, let items = schema["items"] {
            if case .array(let tuple) = items {
                for (index, element) in elements.enumerated() where index < tuple.count {
                    check(element, tuple[index], at: pointer + "/\(index)", depth: depth + 1, into: &progress)
                }
            } else {
                for (index, element) in elements.enumerated() {
                    check(element, items, at: pointer + "/\(index)", depth: depth + 1, into: &progress)
                }
            }
        }
        checkCombinators(value, schema, at: pointer, depth: depth, into: &progress)
    }

    private func checkObject(_ value: JSONValue, _ schema: JSONValue, at pointer: String, depth: Int, into progress: inout Progress) {
        guard case .object(let members) = value else { return }
        if case .array(let required)? = schema["required"] {
            for case .string(let name) in required where !members.contains(where: { $0.key == name }) {
                progress.found.append(SchemaViolation(pointer: pointer, expected: "a property \(JSONValue.quoted(name))", actual: "none"))
            }
        }
        guard case .object(let properties)? = schema["properties"] else { return }
        for member in members {
            guard let propertySchema = properties.last(where: { $0.key == member.key })?.value else { continue }
            check(member.value, propertySchema, at: pointer + "/" + Self.escape(member.key), depth: depth + 1, into: &progress)
        }
    }

    private func checkCombinators(_ value: JSONValue, _ schema: JSONValue, at pointer: String, depth: Int, into progress: inout Progress) {
        if case .array(let parts)? = schema["allOf"] {
            for part in parts { check(value, part, at: pointer, depth: depth + 1, into: &progress) }
        }
        if case .array(let parts)? = schema["anyOf"], !parts.isEmpty {
            if !parts.contains(where: { conforms(value, $0, at: pointer, depth: depth + 1, progress: &progress) }) {
                progress.found.append(SchemaViolation(pointer: pointer, expected: "a value matching any of \(parts.count) schemas (anyOf)",
                                             actual: SchemaViolation.show(value) + ", which matches none"))
            }
        }
        if case .array(let parts)? = schema["oneOf"], !parts.isEmpty {
            var matching = 0
            for part in parts where conforms(value, part, at: pointer, depth: depth + 1, progress: &progress) { matching += 1 }
            if matching != 1 {
                progress.found.append(SchemaViolation(pointer: pointer, expected: "a value matching exactly one of \(parts.count) schemas (oneOf)",
                                             actual: SchemaViolation.show(value) + ", which matches \(matching == 0 ? "none" : "\(matching)")"))
            }
        }
    }

    private func conforms(_ value: JSONValue, _ schema: JSONValue, at pointer: String, depth: Int, progress: inout Progress) -> Bool {
        var inner = Progress(steps: progress.steps, stopped: progress.stopped)
        check(value, schema, at: pointer, depth: depth, into: &inner)
        progress.steps = inner.steps
        progress.stopped = inner.stopped
        return inner.found.isEmpty
    }

    /// `type` as a list of names; a name that is not a JSON type is left out (the importer warned).
    private static func types(_ schema: JSONValue) -> [String]? {
        var names: [String]
        switch schema["type"] {
        case .string(let name)?: names = [name]
        case .array(let list)?: names = list.compactMap(\.string)
        default: return nil
        }
        names = names.filter { ["null", "boolean", "object", "array", "number", "string", "integer"].contains($0) }
        if schema["nullable"] == .bool(true), !names.isEmpty { names.append("null") }
        return names
    }

    private static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object), ("number", .number): true
        case ("integer", .number(let literal)): ExactNumber(literal)?.isInteger == true
        default: false
        }
    }

    /// JSON equality: numbers by value (`1.0` is `1`), objects whatever their members' order.
    static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.number(let a), .number(let b)):
            guard let x = ExactNumber(a), let y = ExactNumber(b) else { return a == b }
            return x == y
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { member in b.contains { $0.key == member.key && equal($0.value, member.value) } }
        default:
            return left == right
        }
    }

    private static func escape(_ key: String) -> String {
        guard key.contains("~") || key.contains("/") else { return key }
        var result = ""
        for char in key {
            switch char {
            case "~": result += "~0"
            case "/": result += "~1"
            default: result.append(char)
            }
        }
        return result
    }

    /// The value a local JSON pointer names (percent-decoding left to the importer's bundling).
    private static func resolve(_ pointer: String, in root: JSONValue) -> JSONValue? {
        if pointer.isEmpty { return root }
        guard pointer.hasPrefix("/") else { return nil }
        var current = root
        for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var key = String(token)
            if key.contains("~") { key = key.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }
            switch current {
            case .object: guard let next = current[key] else { return nil }; current = next
            case .array(let elements): guard let index = Int(key), elements.indices.contains(index) else { return nil }; current = elements[index]
            default: return nil
            }
        }
        return current
    }
}
