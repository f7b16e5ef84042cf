import Checks
import Targets

/// Makes the inputs of one operation, valid and (for an OpenAPI contract) invalid, and says of
/// any input whether the declaration accepts it.
public struct CaseGenerator: Sendable {
    /// The operation whose inputs it makes.
    public let operation: FuzzOperation
    let sampler: SchemaSampler
    private let mutator: SchemaMutator

    /// A generator of inputs for `operation`, at the edges of its schemas.
    public init(operation: FuzzOperation) {
        self.operation = operation
        sampler = SchemaSampler(root: operation.root, style: .edges, direction: .request)
        mutator = SchemaMutator(sampler: sampler)
    }

    /// The next input: a third of them invalid when the schemas are a contract.
    public func next(using generator: inout some RandomNumberGenerator) -> FuzzCase {
        if operation.schemasAreContract, Int.random(in: 0..<3, using: &generator) == 0,
           let invalid = invalidCase(using: &generator) {
            return invalid
        }
        return validCase(using: &generator)
    }

    func validCase(using generator: inout some RandomNumberGenerator) -> FuzzCase {
        var values: [FuzzCase.Value] = []
        for parameter in operation.parameters where !parameter.fixed {
            guard parameter.required || parameter.alwaysSent || parameter.location == .path || Bool.random(using: &generator) else { continue }
            values.append(.init(name: parameter.name, location: parameter.location, value: value(for: parameter, using: &generator)))
        }
        var body: JSONValue?
        if operation.bodyKind != nil, let schema = operation.bodySchema,
           operation.bodyRequired || Int.random(in: 0..<5, using: &generator) != 0 {
            body = sampler.validValue(for: schema, using: &generator) ?? sampler.value(for: schema, depth: 0, using: &generator)
            if case .object(var members)? = body, !operation.bodyFieldsAlwaysSent.isEmpty {
                let properties = sampler.resolved(schema)["properties"]
                for name in operation.bodyFieldsAlwaysSent where !members.contains(where: { $0.key == name }) {
                    members.append(JSONMember(key: name, value: sampler.value(for: properties?[name] ?? .object([]), depth: 1, using: &generator)))
                }
                body = .object(members)
            }
        }
        return FuzzCase(parameters: values, body: body)
    }

    /// A value for a parameter; a path segment is never empty, which would name another route.
    private func value(for parameter: FuzzOperation.Parameter, using generator: inout some RandomNumberGenerator) -> JSONValue {
        for _ in 0..<6 {
            let value = sampler.validValue(for: parameter.schema, using: &generator) ?? sampler.value(for: parameter.schema, depth: 0, using: &generator)
            if parameter.location != .path || !FuzzCase.texts(value, in: .path)[0].isEmpty { return value }
        }
        return .string("1")
    }

    /// One way of breaking the contract, chosen at random among those the operation allows.
    func invalidCase(using generator: inout some RandomNumberGenerator) -> FuzzCase? {
        var base = validCase(using: &generator)
        // Parameters the input may change, and those of them it may leave out.
        let changeable = operation.parameters.filter { !$0.fixed }
        let omittable = changeable.filter { $0.required && $0.location != .path }
        var ways: [String] = []
        if !omittable.isEmpty { ways.append("missing") }
        if !changeable.isEmpty { ways.append("parameter") }
        if operation.bodySchema != nil, operation.bodySchemaIsContract { ways += ["body", "body"] }
        if operation.bodyRequired { ways.append("no-body") }
        if operation.bodyKind == .json { ways.append("malformed") }
        for _ in 0..<4 {
            guard let way = ways.randomElement(using: &generator) else { return nil }
            var candidate = base
            switch way {
            case "missing":
                guard let name = omittable.randomElement(using: &generator)?.name else { continue }
                candidate.parameters.removeAll { $0.name == name }
            case "parameter":
                guard let parameter = changeable.randomElement(using: &generator),
                      let bad = mutator.invalidValue(for: parameter.schema, using: &generator) else { continue }
                // An empty path segment names another route, not this one with a bad value.
                if parameter.location == .path, FuzzCase.texts(bad, in: .path)[0].isEmpty { continue }
                candidate.parameters.removeAll { $0.name == parameter.name && $0.location == parameter.location }
                candidate.parameters.append(.init(name: parameter.name, location: parameter.location, value: bad))
            case "body":
                guard let schema = operation.bodySchema, let bad = mutator.invalidValue(for: schema, using: &generator) else { continue }
                candidate.body = bad
            case "no-body":
                candidate.body = nil
            default:
                let text = (base.body ?? .object([])).compactText
                candidate.body = nil
                candidate.rawBody = [String(text.dropLast()), "{", "{\"a\":}", "[1,]", "nul", text + "}"].randomElement(using: &generator) ?? "{"
            }
            if case .invalid = expectation(of: candidate) { return candidate }
            base = validCase(using: &generator)
        }
        return nil
    }

    /// Whether the declaration accepts `input`, judged on the texts it sends (a query value is
    /// read back as the number or boolean its schema asks for).
    public func expectation(of input: FuzzCase) -> Expectation {
        guard operation.schemasAreContract else { return .unknown }
        for parameter in operation.parameters where !parameter.fixed && !parameter.schemaIsGuess {
            // An empty list sends no query item: the parameter is left out.
            let given = input.parameters.first { $0.name == parameter.name && $0.location == parameter.location }
            let texts = given.map { FuzzCase.texts($0.value, in: parameter.location) } ?? []
            guard !texts.isEmpty else {
                if parameter.required { return .invalid("the required \(parameter.location.rawValue) parameter '\(parameter.name)' is left out") }
                continue
            }
            let read = readBack(texts, schema: parameter.schema)
            if let why = sampler.violation(of: read, against: parameter.schema) {
                return .invalid("\(parameter.location.rawValue) parameter '\(parameter.name)': \(why)")
            }
        }
        if input.rawBody != nil { return .invalid("the body is not JSON") }
        guard let body = input.body else {
            return operation.bodyRequired ? .invalid("the required body is left out") : .valid
        }
        guard let schema = operation.bodySchema, operation.bodySchemaIsContract else { return .valid }
        var sent = body
        if operation.bodyKind != .json, case .object(let members) = body {
            let properties = sampler.resolved(schema)["properties"]
            sent = .object(members.map { member in
                let fieldSchema = properties?[member.key] ?? .object([])
                return JSONMember(key: member.key, value: readBack(FuzzCase.texts(member.value, in: .query), schema: fieldSchema))
            })
        }
        if let why = sampler.violation(of: sent, against: schema) { return .invalid("body: \(why)") }
        return .valid
    }

    /// Texts as a server reads them for `schema`: numbers and booleans where it asks for them, an
    /// array of each text where it asks for an array.
    func readBack(_ texts: [String], schema: JSONValue) -> JSONValue {
        let resolved = sampler.resolved(schema)
        let types = SchemaSampler.types(resolved)
        if types.contains("array") {
            let items = resolved["items"] ?? .object([])
            let parts = texts.count == 1 && !texts[0].isEmpty ? texts[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init) : texts
            return .array((texts.count > 1 ? texts : parts).map { readBack([$0], schema: items) })
        }
        let text = texts.first ?? ""
        if types.contains("integer") || types.contains("number"), Double(text) != nil, !text.contains(where: { $0.isLetter && $0 != "e" && $0 != "E" }) {
            return .number(text)
        }
        if types.contains("boolean"), text == "true" || text == "false" { return .bool(text == "true") }
        if types.contains("null"), text == "null" { return .null }
        return .string(text)
    }
}

extension CaseGenerator {
    /// Inputs that each change one thing of a valid input to a value at an edge of its schema
    /// (empty, long and Unicode strings, each bound and one past it, zero and negative numbers,
    /// each enum value, two list items) or leave out one required parameter or body property:
    /// sent first, so the commonest defects are found whatever the seed.
    public func edgeCases(using generator: inout some RandomNumberGenerator) -> [FuzzCase] {
        let base = validCase(using: &generator)
        var cases: [FuzzCase] = []
        for parameter in operation.parameters where !parameter.fixed {
            for value in sampler.edgeValues(for: parameter.schema) {
                var input = base
                input.parameters.removeAll { $0.name == parameter.name && $0.location == parameter.location }
                input.parameters.append(.init(name: parameter.name, location: parameter.location, value: value))
                if parameter.location == .path, FuzzCase.texts(value, in: .path)[0].isEmpty { continue }
                cases.append(input)
            }
            if parameter.required, parameter.location != .path {
                var input = base
                input.parameters.removeAll { $0.name == parameter.name && $0.location == parameter.location }
                cases.append(input)
            }
        }
        if let schema = operation.bodySchema, case .object(let members)? = base.body {
            let resolved = sampler.resolved(schema)
            if case .object(let properties)? = resolved["properties"] {
                for property in properties {
                    for value in sampler.edgeValues(for: property.value) {
                        cases.append(FuzzCase(parameters: base.parameters,
                                              body: .object(members.filter { $0.key != property.key } + [JSONMember(key: property.key, value: value)])))
                    }
                }
            }
            for name in SchemaSampler.requiredNames(resolved) {
                cases.append(FuzzCase(parameters: base.parameters, body: .object(members.filter { $0.key != name })))
            }
        } else if let schema = operation.bodySchema, base.body != nil {
            // A body that is no object (a list, a string, a number): the edges of its schema, whole.
            for value in sampler.edgeValues(for: schema) {
                cases.append(FuzzCase(parameters: base.parameters, body: value))
            }
        }
        var seen: [FuzzCase] = []
        for input in cases where !seen.contains(input) { seen.append(input) }
        return seen
    }
}
