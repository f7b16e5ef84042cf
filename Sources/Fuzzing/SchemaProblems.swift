import Checks
import Targets

extension FuzzOperation {
    /// What in the operation's schemas no input can satisfy or wsh cannot use, each said in the
    /// user's terms with where it is: a pattern the regular expression engine refuses, a lower
    /// bound above its upper one, an empty enum. Empty when every schema can be fuzzed.
    public var schemaProblems: [String] {
        var problems: [String] = []
        let sampler = SchemaSampler(root: root, style: .plain)
        for parameter in parameters {
            Self.collect(in: parameter.schema, sampler: sampler, at: "\(parameter.location.rawValue) parameter '\(parameter.name)'", depth: 0, into: &problems)
        }
        if let bodySchema { Self.collect(in: bodySchema, sampler: sampler, at: "the body", depth: 0, into: &problems) }
        return problems
    }

    private static func propertyNames(_ schema: JSONValue) -> [String] {
        guard case .object(let properties)? = schema["properties"] else { return [] }
        return properties.map(\.key)
    }

    private static func collect(in schema: JSONValue, sampler: SchemaSampler, at place: String, depth: Int, into problems: inout [String]) {
        guard depth < 12, problems.count < 10 else { return }
        // The allOf trap: a part that forbids other properties, beside a part that declares some.
        if case .array(let parts)? = sampler.dereferenced(schema)["allOf"], parts.count > 1 {
            let resolvedParts = parts.map { sampler.resolved($0) }
            for (index, part) in resolvedParts.enumerated() where part["additionalProperties"] == .bool(false) {
                let own = Set(Self.propertyNames(part))
                let others = resolvedParts.enumerated().filter { $0.offset != index }.flatMap { Self.propertyNames($0.element) }
                if let foreign = others.first(where: { !own.contains($0) }) {
                    problems.append("\(place): no value fits: part \(index + 1) of its allOf forbids other properties (additionalProperties: false), and another part declares '\(foreign)'")
                }
            }
        }
        let schema = sampler.resolved(schema)
        guard case .object = schema else { return }
        if let pattern = schema["pattern"]?.string {
            do {
                _ = try RegexSampler(pattern)
                _ = try LinearRegex(pattern)
            } catch {
                problems.append("\(place): the pattern \(JSONValue.quoted(pattern)) cannot be used: \(error.description)")
            }
        }
        for (low, high, what) in [("minimum", "maximum", "a number"), ("minLength", "maxLength", "a length"), ("minItems", "maxItems", "a count of items")] {
            if let lower = schema[low]?.double, let upper = schema[high]?.double, lower > upper {
                problems.append("\(place): no value fits: \(what) at least \(NumberSampler.literal(lower)) and at most \(NumberSampler.literal(upper))")
            }
        }
        if case .array(let values)? = schema["enum"], values.isEmpty {
            problems.append("\(place): no value fits: its enum lists nothing")
        }
        if case .object(let properties)? = schema["properties"] {
            for property in properties {
                Self.collect(in: property.value, sampler: sampler, at: "\(place), property '\(property.key)'", depth: depth + 1, into: &problems)
            }
        }
        if let items = schema["items"] { Self.collect(in: items, sampler: sampler, at: "\(place), its items", depth: depth + 1, into: &problems) }
        for key in ["oneOf", "anyOf"] {
            if case .array(let parts)? = schema[key] {
                for part in parts { Self.collect(in: part, sampler: sampler, at: place, depth: depth + 1, into: &problems) }
            }
        }
    }
}
