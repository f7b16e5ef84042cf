import Checks
import Targets

/// Writes JSON values that a JSON Schema (as OpenAPI writes it) accepts: the valid inputs of
/// `wsh fuzz` and the answers `wsh serve` makes up for an operation with no example. Each value is
/// checked with ``JSONSchemaValidator`` before it is given; a schema no attempt satisfies (an
/// impossible constraint) gives nil.
public struct SchemaSampler: Sendable {
    /// What kind of values to prefer.
    public enum Style: Sendable {
        /// Readable, ordinary values: words, small numbers, one to three items (mock answers).
        case plain
        /// Values at the edges: empty and long strings, Unicode, percent signs, bounds, zero,
        /// negative and large numbers, empty arrays (fuzzing).
        case edges
    }

    /// The document `$ref`s point into.
    public let root: JSONValue
    /// What kind of values it prefers.
    public let style: Style
    /// Which way the values go: a request leaves out `readOnly` properties, an answer `writeOnly` ones.
    public let direction: JSONSchemaValidator.Direction
    private let validator: JSONSchemaValidator
    /// Objects nest at most this deep; deeper, only required properties are written.
    static let maximumDepth = 6

    /// A sampler over the schemas of `root` (an OpenAPI document, or any JSON for a schema without `$ref`s).
    public init(root: JSONValue, style: Style, direction: JSONSchemaValidator.Direction = .response) {
        self.root = root
        self.style = style
        self.direction = direction
        var validator = JSONSchemaValidator(root: root)
        validator.direction = direction
        self.validator = validator
    }

    /// A value `schema` accepts, or nil when a dozen attempts all break it.
    public func validValue(for schema: JSONValue, using generator: inout some RandomNumberGenerator) -> JSONValue? {
        for _ in 0..<12 {
            let value = self.value(for: schema, depth: 0, using: &generator)
            if validator.violations(of: value, against: schema).isEmpty { return value }
        }
        return nil
    }

    /// The first way `value` breaks `schema`, in words; nil when it conforms.
    public func violation(of value: JSONValue, against schema: JSONValue) -> String? {
        validator.violations(of: value, against: schema).first?.description
    }

    // MARK: - Resolving

    /// The schema a `$ref` chain ends at (local refs only), merged with its `allOf` parts.
    func resolved(_ schema: JSONValue, depth: Int = 0) -> JSONValue {
        let current = dereferenced(schema)
        guard case .array(let parts)? = current["allOf"], case .object(var members) = current, depth < 16 else { return current }
        members.removeAll { $0.key == "allOf" }
        for part in parts { members = Self.merge(members, resolved(part, depth: depth + 1)) }
        return .object(members)
    }

    /// The schema a `$ref` chain ends at (local refs only), its `allOf` left as it is.
    func dereferenced(_ schema: JSONValue) -> JSONValue {
        var current = schema
        for _ in 0..<32 {
            guard case .string(let ref)? = current["$ref"], ref.hasPrefix("#"),
                  let target = JSONPointer.resolve(fragment: String(ref.dropFirst()), in: root) else { break }
            current = target
        }
        return current
    }

    /// `base` with `part`'s keywords: properties and required joined, other keywords kept from `base` when it has them.
    static func merge(_ base: [JSONMember], _ part: JSONValue) -> [JSONMember] {
        guard case .object(let extra) = part else { return base }
        var members = base
        for member in extra {
            guard let index = members.firstIndex(where: { $0.key == member.key }) else {
                members.append(member)
                continue
            }
            switch (member.key, members[index].value, member.value) {
            case ("properties", .object(let mine), .object(let theirs)):
                members[index].value = .object(mine + theirs.filter { other in !mine.contains { $0.key == other.key } })
            case ("required", .array(let mine), .array(let theirs)):
                members[index].value = .array(mine + theirs.filter { !mine.contains($0) })
            default:
                break
            }
        }
        return members
    }

    /// The names an object schema's `required` lists.
    static func requiredNames(_ schema: JSONValue) -> [String] {
        guard case .array(let names)? = schema["required"] else { return [] }
        return names.compactMap(\.string)
    }

    /// The type names a schema allows (with `null` for `nullable`), guessed from its keywords when it has no `type`.
    static func types(_ schema: JSONValue) -> [String] {
        var names: [String] = switch schema["type"] {
        case .string(let name)?: [name]
        case .array(let list)?: list.compactMap(\.string)
        default: []
        }
        if names.isEmpty {
            if schema["properties"] != nil || schema["additionalProperties"] != nil || schema["required"] != nil { names = ["object"] }
            else if schema["items"] != nil { names = ["array"] }
            else if schema["minLength"] != nil || schema["maxLength"] != nil || schema["pattern"] != nil || schema["format"] != nil { names = ["string"] }
            else if schema["minimum"] != nil || schema["maximum"] != nil { names = ["number"] }
        }
        if schema["nullable"] == .bool(true), !names.isEmpty { names.append("null") }
        return names
    }

    // MARK: - Values

    func value(for schema: JSONValue, depth: Int, using generator: inout some RandomNumberGenerator) -> JSONValue {
        // A schema that requires itself has no finite value: this one breaks it, and validValue says nil.
        guard depth < Self.maximumDepth * 4 else { return .null }
        let schema = resolved(schema)
        guard case .object = schema else { return schema == .bool(false) ? .null : anyValue(using: &generator) }
        if let constant = schema["const"] { return constant }
        // The declaration's own example now and then: a value the API is known to take.
        if let example = schema["example"] ?? schema["default"], Int.random(in: 0..<4, using: &generator) == 0 { return example }
        if case .array(let values)? = schema["enum"], let chosen = values.randomElement(using: &generator) { return chosen }
        for key in ["oneOf", "anyOf"] {
            if case .array(let parts)? = schema[key], let part = parts.randomElement(using: &generator), case .object(var members) = schema {
                members.removeAll { $0.key == key }
                return value(for: .object(Self.merge(members, resolved(part))), depth: depth, using: &generator)
            }
        }
        var types = Self.types(schema)
        if types.count > 1, types.contains("null"), Int.random(in: 0..<6, using: &generator) != 0 { types.removeAll { $0 == "null" } }
        switch types.randomElement(using: &generator) ?? "" {
        case "null": return .null
        case "boolean": return .bool(Bool.random(using: &generator))
        case "integer": return .number(NumberSampler(schema: schema, style: style).integer(using: &generator))
        case "number": return .number(NumberSampler(schema: schema, style: style).number(using: &generator))
        case "string": return .string(StringSampler(schema: schema, style: style).string(using: &generator))
        case "array": return array(schema, depth: depth, using: &generator)
        case "object": return object(schema, depth: depth, using: &generator)
        default: return anyValue(using: &generator)
        }
    }

    private func anyValue(using generator: inout some RandomNumberGenerator) -> JSONValue {
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: .string(StringSampler(schema: .object([]), style: style).string(using: &generator))
        case 1: .number(String(Int.random(in: -5...100, using: &generator)))
        default: .bool(Bool.random(using: &generator))
        }
    }

    private func array(_ schema: JSONValue, depth: Int, using generator: inout some RandomNumberGenerator) -> JSONValue {
        let minimum = min(max(0, schema["minItems"]?.int ?? 0), 1000)
        let maximum = max(minimum, min(schema["maxItems"]?.int ?? (minimum + (style == .plain ? 3 : 5)), minimum + 1000))
        // Past the depth for optional parts, lists are as short as allowed: a schema whose items
        // hold itself ends there.
        let count: Int = if depth >= Self.maximumDepth {
            minimum
        } else {
            switch style {
            case .plain: Int.random(in: min(max(minimum, 1), maximum)...min(minimum + 3, maximum), using: &generator)
            case .edges: [minimum, minimum, min(maximum, minimum + 1), min(maximum, minimum + 5)].randomElement(using: &generator) ?? minimum
            }
        }
        let items = schema["items"] ?? .object([])
        let tuple: [JSONValue]? = if case .array(let list) = items { list } else { nil }
        var elements: [JSONValue] = []
        for index in 0..<min(count, 64) {
            let itemSchema = tuple.map { index < $0.count ? $0[index] : .object([]) } ?? items
            let element = value(for: itemSchema, depth: depth + 1, using: &generator)
            if schema["uniqueItems"] == .bool(true), elements.contains(element) { continue }
            elements.append(element)
        }
        return .array(elements)
    }

    private func object(_ schema: JSONValue, depth: Int, using generator: inout some RandomNumberGenerator) -> JSONValue {
        let required = Set(Self.requiredNames(schema))
        var members: [JSONMember] = []
        if case .object(let properties)? = schema["properties"] {
            for property in properties {
                let resolvedProperty = resolved(property.value)
                if direction == .request, resolvedProperty["readOnly"] == .bool(true) { continue }
                if direction == .response, resolvedProperty["writeOnly"] == .bool(true) { continue }
                if !required.contains(property.key) {
                    if depth >= Self.maximumDepth { continue }
                    let keep = style == .plain ? Int.random(in: 0..<10, using: &generator) < 8 : Bool.random(using: &generator)
                    if !keep { continue }
                }
                members.append(JSONMember(key: property.key, value: value(for: property.value, depth: depth + 1, using: &generator)))
            }
        }
        // Required names with no schema of their own still need a value.
        for name in required.sorted() where !members.contains(where: { $0.key == name }) {
            var additional = JSONValue.object([])
            if case .object? = schema["additionalProperties"], let given = schema["additionalProperties"] { additional = given }
            members.append(JSONMember(key: name, value: value(for: additional, depth: depth + 1, using: &generator)))
        }
        // A map (`additionalProperties: {schema}`) gets members of its own up to `minProperties`, or one or two.
        // Not where names are ruled (`propertyNames`, `patternProperties`, `dependentRequired`): `key1` may not fit.
        let namesRuled = ["propertyNames", "patternProperties", "dependentRequired", "dependencies"].contains { schema[$0] != nil }
        if case .object? = schema["additionalProperties"], let additional = schema["additionalProperties"], depth < Self.maximumDepth, !namesRuled {
            let least = schema["minProperties"].flatMap { Int($0.plainText) } ?? 0
            let most = schema["maxProperties"].flatMap { Int($0.plainText) } ?? max(least, 2)
            // A map alone gets one or two members; beside declared properties, only what `minProperties` asks.
            let some = schema["properties"] == nil ? Int.random(in: 1...2, using: &generator) : 0
            let wanted = min(max(least, some), max(most, least), 64)
            var index = 1
            while members.count < wanted {
                let key = "key\(index)"
                index += 1
                if members.contains(where: { $0.key == key }) { continue }
                members.append(JSONMember(key: key, value: value(for: additional, depth: depth + 1, using: &generator)))
            }
        }
        return .object(members)
    }
}

extension SchemaSampler {
    /// The values at the edges of a schema, valid and one step past: for a string the empty one,
    /// one character, the longest allowed and one longer (or 1,000 characters), Unicode; for a
    /// number each bound and one past it, zero, one and minus one, a large one; each enum value
    /// and one not listed; for a list none and two items.
    func edgeValues(for schema: JSONValue) -> [JSONValue] {
        let schema = resolved(schema)
        var values: [JSONValue] = []
        if case .array(let options)? = schema["enum"] {
            return Array(options.prefix(8)) + [options.first?.string.map { .string($0 + "-unlisted") } ?? .number("987654321")]
        }
        let types = Self.types(schema)
        if types.contains("string") || types.isEmpty {
            let maximum = schema["maxLength"]?.int.map { min(max($0, 0), 100_000) }
            values += [.string(""), .string("a"), .string(String(repeating: "a", count: maximum ?? 1000)), .string("é日本🙂\u{202E}")]
            if let maximum { values.append(.string(String(repeating: "a", count: maximum + 1))) }
            if let minimum = schema["minLength"]?.int, minimum > 1, minimum <= 100_000 { values.append(.string(String(repeating: "a", count: minimum - 1))) }
        }
        if types.contains("integer") || types.contains("number") {
            var numbers: [Double] = [0, 1, -1, 2_147_483_648]
            if let low = schema["minimum"]?.double { numbers += [low, low - 1] }
            if let high = schema["maximum"]?.double { numbers += [high, high + 1] }
            values += numbers.map { .number(NumberSampler.literal($0)) }
        }
        if types.contains("boolean") { values += [.bool(true), .bool(false)] }
        if types.contains("array") {
            var generator = SeededRandom(seed: 1)
            let item = schema["items"].map { value(for: $0, depth: 1, using: &generator) } ?? .string("a")
            let other = schema["items"].map { value(for: $0, depth: 1, using: &generator) } ?? .string("b")
            values += [.array([]), .array([item, other])]
        }
        return values
    }
}
