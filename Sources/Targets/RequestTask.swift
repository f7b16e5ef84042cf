import Foundation

/// What a target sends besides its URL (Moya's `Task`, renamed so that it does not shadow Swift's
/// `Task`), carrying parameter declarations; the arguments of a call are bound to them when the
/// request is made (see ``Endpoint``).
public indirect enum RequestTask: Sendable, Equatable {
    /// No parameters besides the path's.
    case plain
    /// Parameters in the URL's query string (Moya's `requestParameters` with URL encoding).
    case query([Parameter])
    /// A JSON object body, one member per parameter.
    case json([Parameter])
    /// An `application/x-www-form-urlencoded` body.
    case form([Parameter])
    /// A raw body, sent as given.
    case data(Data, contentType: String?)
    /// A `multipart/form-data` body; `.file` values become file parts.
    case multipart([Parameter])
    /// Query parameters together with a body (Moya's `requestCompositeParameters`).
    case composite(query: [Parameter], body: RequestTask)

    /// The parameters that go into the query string, in declaration order.
    public var queryParameters: [Parameter] {
        switch self {
        case .query(let parameters): parameters
        case .composite(let query, let body): query + body.queryParameters
        case .plain, .json, .form, .data, .multipart: []
        }
    }

    /// The parameters that go into the body, in declaration order.
    public var bodyParameters: [Parameter] {
        switch self {
        case .json(let parameters), .form(let parameters), .multipart(let parameters): parameters
        case .composite(_, let body): body.bodyParameters
        case .plain, .query, .data: []
        }
    }

    /// The task that says how the body is encoded: the innermost body of a composite.
    public var bodyTask: RequestTask {
        switch self {
        case .composite(_, let body): body.bodyTask
        default: self
        }
    }
}
