/// The values of every parameter of a target for one call: the call's arguments, else the declared defaults.
///
/// A name the call gives is sent with each of the call's values, in the order given, where it is
/// first declared in each place (query, body); a name it does not give sends each declaration's
/// default, so `query tag=a tag=b` sends both. A declaration without a default (a composite's
/// `json id` beside `query id=1`) takes the first default declared for its name. A name declared
/// in both the query and the body that the call gives as `name==value` takes the query's values
/// from those items and the body's from `name=value` (an OpenAPI operation's `name` query
/// parameter beside a `name` field).
struct ParameterBinding {
    private let arguments: CallArguments
    /// Names declared in the query and the body that the call gives as `name==value`.
    let queryOwnNames: Set<String>
    private let given: [String: [ParameterValue]]
    private let fallback: [String: ParameterValue]

    /// Binds `arguments` to `target`'s parameters. Throws for an argument that names no parameter
    /// (checked first, in the order given), for a path parameter given twice, for a body field
    /// given with a body that replaces the target's, and for a required parameter without an
    /// argument (in parameter order); the errors list the target's parameters.
    init(target: some TargetType, arguments: CallArguments) throws(ProviderError) {
        let parameters = target.parameters
        let names = parameters.map(\.name)
        let known = Set(names)
        if let unknown = arguments.values.first(where: { !known.contains($0.name) }) {
            throw ProviderError(
                .unknownParameter(unknown.name), step: .endpoint, targetName: target.name, parameters: names)
        }
        var given: [String: [ParameterValue]] = [:]
        for (name, value) in arguments.values { given[name, default: []].append(value) }
        let pathNames = PathTemplate(target.path).names
        if let repeated = pathNames.first(where: { (given[$0]?.count ?? 0) > 1 }) {
            throw ProviderError(.repeatedPathParameter(repeated), step: .endpoint, targetName: target.name, parameters: names)
        }
        // A body given whole replaces the declared one: its fields are neither required nor accepted.
        var bodyOnly: Set<String> = []
        if arguments.body != nil {
            bodyOnly = Set(target.task.bodyParameters.map(\.name)).subtracting(pathNames + target.task.queryParameters.map(\.name))
            if let field = arguments.values.first(where: { bodyOnly.contains($0.name) }) {
                throw ProviderError(.bodyFieldWithRawBody(field.name), step: .endpoint, targetName: target.name, parameters: names)
            }
        }
        let multipartNames: Set<String> = if case .multipart(let fields) = target.task.bodyTask, arguments.body == nil {
            Set(fields.map(\.name))
        } else {
            []
        }
        if let file = arguments.values.first(where: { $0.value.isFile && !multipartNames.contains($0.name) }) {
            throw ProviderError(.fileOutsideMultipart(parameter: file.name), step: .endpoint, targetName: target.name, parameters: names)
        }
        var fallback: [String: ParameterValue] = [:]
        for declaration in target.parameters.filter({ pathNames.contains($0.name) }) + target.task.queryParameters + target.task.bodyParameters {
            if fallback[declaration.name] == nil, let value = declaration.defaultValue { fallback[declaration.name] = value }
        }
        let queryOwnNames = Set(arguments.queryItems.map(\.name)).intersection(target.task.queryParameters.map(\.name))
            .intersection(target.task.bodyParameters.map(\.name))
        for listed in parameters where given[listed.name] == nil && fallback[listed.name] == nil && !bodyOnly.contains(listed.name) {
            // The query's value is given by `name==`: the body's declaration says whether one is needed.
            let parameter = queryOwnNames.contains(listed.name)
                ? target.task.bodyParameters.first { $0.name == listed.name } ?? listed : listed
            guard !parameter.isOptional else { continue }
            throw ProviderError(
                .missingParameter(parameter.name), step: .endpoint, targetName: target.name, parameters: names)
        }
        self.arguments = arguments
        self.queryOwnNames = queryOwnNames
        self.given = given
        self.fallback = fallback
        for parameter in target.task.queryParameters + target.task.bodyParameters {
            guard let style = parameter.style, let separator = Self.separator(of: style) else { continue }
            for case .json(let raw) in given[parameter.name] ?? fallback[parameter.name].map({ [$0] }) ?? [] {
                guard let json = try? JSONValue.parse(raw), let text = Self.pairs(parameter.name, json, style: style).first?.value else { continue }
                let parts: [JSONValue] = switch json {
                case .array(let elements): elements
                case .object(let members): members.flatMap { [.string($0.key), $0.value] }
                default: []
                }
                // `["a", "b,c"]` in comma style is `a,b,c`: three values to the server.
                if parts.contains(where: { Self.text($0).contains(separator) }) {
                    throw ProviderError(.separatorInStyledValue(parameter: parameter.name, separator: separator, text: text),
                                        step: .endpoint, targetName: target.name, parameters: names)
                }
            }
        }
    }

    /// What `comma`, `pipes` and `spaces` write between values; nil for the styles that mark each value.
    private static func separator(of style: ParameterStyle) -> String? {
        switch style {
        case .comma: ","
        case .pipes: "|"
        case .spaces: " "
        case .deepObject, .json: nil
        }
    }

    /// Whether the call gives a value for one of `parameters`.
    func givesAny(of parameters: [Parameter]) -> Bool {
        parameters.contains { given[$0.name] != nil }
    }

    /// The bound value of a path parameter: the call's one, else the first default declared.
    func value(_ name: String) -> ParameterValue {
        // Every parameter was bound in init; the empty text only guards against a name from elsewhere.
        given[name]?.first ?? fallback[name] ?? .text("")
    }

    /// What one place (the query, a body) sends for its `parameters`, in order (``CallArguments/placed(_:)``),
    /// a declaration without a default taking the first default declared for its name.
    func values(_ parameters: [Parameter]) -> [(name: String, value: ParameterValue)] {
        values(parameters, from: arguments)
    }

    private func values(_ parameters: [Parameter], from arguments: CallArguments) -> [(name: String, value: ParameterValue)] {
        arguments.placed(parameters).map { ($0.name, $0.value ?? value($0.name)) }
    }

    /// The query's `name=value` pairs (``textPairs(_:)``), a name of ``queryOwnNames`` with the
    /// values of its `name==` items.
    func queryPairs(_ parameters: [Parameter]) -> [(name: String, value: String)] {
        guard !queryOwnNames.isEmpty else { return textPairs(parameters) }
        var query = arguments
        query.values = arguments.values.filter { !queryOwnNames.contains($0.name) }
            + arguments.queryItems.filter { queryOwnNames.contains($0.name) }.map { ($0.name, .text($0.value)) }
        return textPairs(parameters, from: query)
    }

    /// `name=value` pairs for the query or a form: ``values(_:)`` as text, a JSON array
    /// (`tag:=["a","b"]`) as the key repeated for each element; a parameter's ``ParameterStyle``
    /// writes its JSON lists and objects its way.
    func textPairs(_ parameters: [Parameter]) -> [(name: String, value: String)] {
        textPairs(parameters, from: arguments)
    }

    private func textPairs(_ parameters: [Parameter], from arguments: CallArguments) -> [(name: String, value: String)] {
        var styles: [String: ParameterStyle] = [:]
        for parameter in parameters where styles[parameter.name] == nil { styles[parameter.name] = parameter.style }
        return values(parameters, from: arguments).flatMap { name, value -> [(name: String, value: String)] in
            guard case .json(let raw) = value, let json = try? JSONValue.parse(raw) else { return [(name, value.text)] }
            guard let style = styles[name] else {
                guard case .array(let elements) = json, raw.utf8.first == UInt8(ascii: "[") else { return [(name, value.text)] }
                return elements.map { (name, Self.text($0)) }
            }
            return Self.pairs(name, json, style: style)
        }
    }

    /// A string as it is, anything else as compact JSON.
    private static func text(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return value.compactText
    }

    /// `value` for the key `name` written in `style` (OpenAPI 3.1, "Style Examples").
    static func pairs(_ name: String, _ value: JSONValue, style: ParameterStyle) -> [(name: String, value: String)] {
        let separator = Self.separator(of: style) ?? ","
        switch (style, value) {
        case (.json, _):
            return [(name, value.compactText)]
        case (.deepObject, .object(let members)):
            return members.flatMap { pairs(name + "[" + $0.key + "]", $0.value, style: .deepObject) }
        case (.deepObject, .array(let elements)):
            return elements.flatMap { pairs(name + "[]", $0, style: .deepObject) }
        case (_, .array(let elements)):
            return [(name, elements.map(text).joined(separator: separator))]
        case (_, .object(let members)):
            return [(name, members.flatMap { [$0.key, text($0.value)] }.joined(separator: separator))]
        default:
            return [(name, text(value))]
        }
    }
}
