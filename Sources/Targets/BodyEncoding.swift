import Foundation

/// A request body and the Content-Type that goes with it.
struct EncodedBody {
    var data: Data
    var contentType: String?
}

/// Encodes the body a task declares, with its parameters bound.
enum BodyEncoding {
    /// The body for `task` (its innermost body when composite); `nil` when the task has none, or
    /// when it is `optional` and the call gives none of its fields.
    static func encode(_ task: RequestTask, optional: Bool = false, binding: ParameterBinding,
                       targetName: String) throws(ProviderError) -> EncodedBody? {
        if optional, !binding.givesAny(of: task.bodyParameters) { return nil }
        switch task.bodyTask {
        case .plain, .query, .composite:
            return nil
        case .data(let data, let contentType):
            return EncodedBody(data: data, contentType: contentType)
        case .form(let parameters):
            let text = PercentEncoding.encodePairs(binding.textPairs(parameters))
            return EncodedBody(data: Data(text.utf8), contentType: "application/x-www-form-urlencoded")
        case .json(let parameters):
            let object = try jsonObject(parameters, binding: binding, targetName: targetName)
            return EncodedBody(data: Data(object.compactText.utf8), contentType: "application/json")
        case .multipart(let parameters):
            var form = MultipartForm()
            try form.append(parameters, binding: binding, targetName: targetName)
            return EncodedBody(data: form.finished(), contentType: form.contentType)
        }
    }

    /// One member per parameter name, in declaration order: text as a JSON string, `:=` values as the
    /// JSON they are (an error naming the parameter when they are not JSON), a file as its path; a
    /// name with several values (given twice, or declared twice) is an array of them, in order.
    private static func jsonObject(
        _ parameters: [Parameter], binding: ParameterBinding, targetName: String
    ) throws(ProviderError) -> JSONValue {
        var order: [String] = []
        var grouped: [String: [JSONValue]] = [:]
        for (name, value) in binding.values(parameters) {
            let member: JSONValue
            switch value {
            case .text(let text), .file(let text):
                member = .string(text)
            case .json(let raw):
                do {
                    member = try JSONValue.parse(raw)
                } catch {
                    throw ProviderError(.invalidJSONArgument(parameter: name, text: raw, error), step: .encoding, targetName: targetName)
                }
            }
            if grouped[name] == nil { order.append(name) }
            grouped[name, default: []].append(member)
        }
        return .object(order.map { name in
            let values = grouped[name] ?? []
            return JSONMember(key: name, value: values.count == 1 ? values[0] : .array(values))
        })
    }
}
