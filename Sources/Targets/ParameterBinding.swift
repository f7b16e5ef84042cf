/// The value of every parameter of a target for one call: the call's argument, else the declared default.
struct ParameterBinding {
    private let values: [String: ParameterValue]

    /// Binds `arguments` to `target`'s parameters. Throws for an argument that names no parameter
    /// (checked first, in the order given) and for a required parameter without an argument
    /// (in parameter order); both errors list the target's parameters.
    init(target: some TargetType, arguments: CallArguments) throws(ProviderError) {
        let parameters = target.parameters
        let names = parameters.map(\.name)
        let known = Set(names)
        if let unknown = arguments.values.first(where: { !known.contains($0.name) }) {
            throw ProviderError(
                .unknownParameter(unknown.name), step: .endpoint, targetName: target.name, parameters: names)
        }
        // A name may be declared twice (a composite's query and body); the first default found serves both.
        let declarations = target.task.queryParameters + target.task.bodyParameters
        var values: [String: ParameterValue] = [:]
        for parameter in parameters {
            let fallback = declarations.first { $0.name == parameter.name && $0.defaultValue != nil }?.defaultValue
            guard let value = arguments.value(for: parameter.name) ?? fallback else {
                throw ProviderError(
                    .missingParameter(parameter.name), step: .endpoint, targetName: target.name, parameters: names)
            }
            values[parameter.name] = value
        }
        self.values = values
    }

    /// The bound value of a parameter of the target.
    func value(_ name: String) -> ParameterValue {
        // Every parameter was bound in init; the empty text only guards against a name from elsewhere.
        values[name] ?? .text("")
    }

    /// `name=value` pairs for `parameters` in order, each name once, values as text.
    func textPairs(_ parameters: [Parameter]) -> [(name: String, value: String)] {
        var seen: Set<String> = []
        return parameters.filter { seen.insert($0.name).inserted }.map { ($0.name, value($0.name).text) }
    }
}
