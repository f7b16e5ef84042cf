/// The HTTP method of a target, spelled as it goes on the wire.
public enum HTTPMethod: String, Sendable, CaseIterable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
    case head = "HEAD"
    case options = "OPTIONS"

    /// Whether sending the request twice has the same effect as sending it once (RFC 9110, 9.2.2),
    /// which is what makes a retry safe.
    public var isIdempotent: Bool {
        switch self {
        case .get, .put, .delete, .head, .options: true
        case .post, .patch: false
        }
    }
}
