import Checks
import Targets

/// Writes values a schema refuses, each for one reason (a wrong type, a bound crossed, a required
/// property left out, a value outside its enum, a pattern or format broken, a property the schema
/// forbids), confirmed by ``JSONSchemaValidator``: the invalid inputs of `wsh fuzz`.
struct SchemaMutator {
    let sampler: SchemaSampler

    /// A value `schema` refuses (the validator says so); nil when no mutation was refused (a
    /// schema that accepts anything). Why it is refused is said of the input as sent, by
    /// ``CaseGenerator/expectation(of:)``.
    func invalidValue(for schema: JSONValue, using generator: inout some RandomNumberGenerator) -> JSONValue? {
        for _ in 0..<8 {
            guard let candidate = mutation(of: schema, depth: 0, using: &generator) else { return nil }
            if sampler.violation(of: candidate, against: schema) != nil { return candidate }
        }
        return nil
    }

    private func mutation(of schema: JSONValue, depth: Int, using generator: inout some RandomNumberGenerator) -> JSONValue? {
        let schema = sampler.resolved(schema)
        guard case .object = schema, depth < 8 else { return nil }
        var choices: [(inout SeededRandom) -> JSONValue?] = []
        let types = SchemaSampler.types(schema)
        if !types.isEmpty {
            choices.append { generator in
                let others: [JSONValue] = [.string("wsh"), .number("12345"), .number("1.5"), .bool(true), .array([]), .object([]), .null]
                return others.filter { value in !types.contains { Self.matches(value, type: $0) } }.randomElement(using: &generator)
            }
        }
        if case .array(let values)? = schema["enum"], !values.isEmpty {
            choices.append { _ in values.first?.string.map { .string($0 + "-unlisted") } ?? .number("987654321") }
        }
        if let low = schema["minimum"]?.double { choices.append { _ in .number(NumberSampler.literal(schema["exclusiveMinimum"] == .bool(true) ? low : low - 1)) } }
        if let low = schema["exclusiveMinimum"]?.double { choices.append { _ in .number(NumberSampler.literal(low)) } }
        if let high = schema["maximum"]?.double { choices.append { _ in .number(NumberSampler.literal(schema["exclusiveMaximum"] == .bool(true) ? high : high + 1)) } }
        if let high = schema["exclusiveMaximum"]?.double { choices.append { _ in .number(NumberSampler.literal(high)) } }
        if let low = schema["minLength"]?.int, low > 0, low <= 100_000 { choices.append { _ in .string(String(repeating: "a", count: low - 1)) } }
        if let high = schema["maxLength"]?.int, high >= 0, high < 100_000 { choices.append { _ in .string(String(repeating: "a", count: high + 1)) } }
        if schema["pattern"] != nil { choices.append { generator in .string(["", "!", " ", "0", "aaaa", "\u{1F642}"].randomElement(using: &generator) ?? "") } }
        if let format = schema["format"]?.string { choices.append { _ in .string("not-a-" + format) } }
        if let low = schema["minItems"]?.int, low > 0 { choices.append { _ in .array([]) } }
        if let high = schema["maxItems"]?.int, high >= 0, high < 1000, let items = schema["items"] {
            choices.append { generator in
                .array((0...high).map { _ in sampler.value(for: items, depth: depth + 1, using: &generator) })
            }
        }
        if types.contains("object") || (types.isEmpty && schema["properties"] != nil) {
            let valid = sampler.value(for: schema, depth: depth, using: &generator)
            if case .object(let members) = valid {
                // A required property left out: each one a choice, the commonest contract broken.
                for name in SchemaSampler.requiredNames(schema) {
                    choices.append { _ in .object(members.filter { $0.key != name }) }
                }
                if schema["additionalProperties"] == .bool(false) {
                    choices.append { _ in .object(members + [JSONMember(key: "wsh-unexpected", value: .number("1"))]) }
                }
                if case .object(let properties)? = schema["properties"], !properties.isEmpty {
                    choices.append { generator in
                        guard let property = properties.randomElement(using: &generator),
                              let bad = mutation(of: property.value, depth: depth + 1, using: &generator) else { return nil }
                        return .object(members.filter { $0.key != property.key } + [JSONMember(key: property.key, value: bad)])
                    }
                }
            }
        }
        if types.contains("array"), let items = schema["items"] {
            choices.append { generator in mutation(of: items, depth: depth + 1, using: &generator).map { .array([$0]) } }
        }
        var random = SeededRandom(seed: generator.next())
        guard let choice = choices.randomElement(using: &random) else { return nil }
        return choice(&random)
    }

    static func matches(_ value: JSONValue, type: String) -> Bool {
        let name = JSONSchemaValidator.typeName(value)
        return name == type || (type == "number" && name == "integer")
    }
}
