import Targets

/// How an OpenAPI answer's schema reads a text answer, as `expect schema` and `wsh fuzz` both
/// judge it: a `text/...` media type's schema describes the text itself (`text/plain: {type:
/// string, maxLength: 2}`), as OpenAPI has it, unless its `type` has no string (`text/plain:
/// {type: integer}` for `42`), or it has no type and the body is JSON: those are read as JSON.
public enum TextAnswerSchema {
    /// Whether a media type is text that is not JSON: `text/plain`, `text/csv`; not `text/json`.
    public static func isText(_ mediaType: String) -> Bool {
        let type = MediaType.essence(of: mediaType)
        return type.hasPrefix("text/") && type != "text/json" && type != "text/x-json" && !type.hasSuffix("+json")
    }

    /// Whether `schema`, declared for `mediaType`, describes the answer's text rather than JSON.
    public static func describesText(_ schema: JSONValue, mediaType: String, bodyIsJSON: Bool) -> Bool {
        guard isText(mediaType) else { return false }
        let types: [String]? = switch schema["type"] {
        case .string(let name)?: [name]
        case .array(let names)?: names.compactMap(\.string)
        default: nil
        }
        return types?.contains("string") ?? !bodyIsJSON
    }
}
