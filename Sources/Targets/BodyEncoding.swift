import Foundation

/// A request body and the Content-Type that goes with it.
struct EncodedBody {
    var data: Data
    var contentType: String?
}

/// Encodes the body a task declares, with its parameters bound.
enum BodyEncoding {
    /// The body for `task` (its innermost body when composite); `nil` when the task has none.
    static func encode(_ task: RequestTask, binding: ParameterBinding, targetName: String) throws(ProviderError) -> EncodedBody? {
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

    /// One member per parameter, in declaration order: text as a JSON string, `:=` values as the JSON
    /// they are (an error naming the parameter when they are not JSON), a file as its path.
    private static func jsonObject(
        _ parameters: [Parameter], binding: ParameterBinding, targetName: String
    ) throws(ProviderError) -> JSONValue {
        var seen: Set<String> = []
        var members: [JSONMember] = []
        for parameter in parameters where seen.insert(parameter.name).inserted {
            switch binding.value(parameter.name) {
            case .text(let text), .file(let text):
                members.append(JSONMember(key: parameter.name, value: .string(text)))
            case .json(let raw):
                do {
                    members.append(JSONMember(key: parameter.name, value: try JSONValue.parse(raw)))
                } catch {
                    throw ProviderError(
                        .invalidJSONArgument(parameter: parameter.name, error), step: .encoding, targetName: targetName)
                }
            }
        }
        return .object(members)
    }
}
