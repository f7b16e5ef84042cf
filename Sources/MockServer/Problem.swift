import Targets

/// An `application/problem+json` answer (RFC 9457): what went wrong with a request, in terms the
/// person who sent it can act on.
struct Problem {
    /// One part of the request that is wrong: `{"name": "latitude", "in": "query", "reason": "..."}`.
    struct InvalidParameter: Equatable {
        let name: String
        let location: String
        let reason: String
    }

    let status: Int
    let title: String
    let detail: String
    var invalidParameters: [InvalidParameter] = []
    /// Extra members, in order (`allowed`, `nearest`, `statuses`).
    var extensions: [(String, JSONValue)] = []

    static let mediaType = "application/problem+json"

    /// The problem as compact JSON.
    var body: String { value.compactText }

    /// The problem as a JSON object.
    var value: JSONValue {
        var members = [
            JSONMember(key: "type", value: .string("about:blank")),
            JSONMember(key: "title", value: .string(title)),
            JSONMember(key: "status", value: .number(String(status))),
            JSONMember(key: "detail", value: .string(detail)),
        ]
        if !invalidParameters.isEmpty {
            members.append(JSONMember(key: "invalid-params", value: .array(invalidParameters.map { parameter in
                .object([JSONMember(key: "name", value: .string(parameter.name)),
                         JSONMember(key: "in", value: .string(parameter.location)),
                         JSONMember(key: "reason", value: .string(parameter.reason))])
            })))
        }
        members += extensions.map { JSONMember(key: $0.0, value: $0.1) }
        return .object(members)
    }
}
