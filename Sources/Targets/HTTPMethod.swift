/// The HTTP method of a target, spelled as it goes on the wire.
public enum HTTPMethod: String, Sendable, CaseIterable {
    /// Reads a resource.
    case get = "GET"
    /// Creates, or anything not idempotent.
    case post = "POST"
    /// Replaces a resource.
    case put = "PUT"
    /// Changes part of a resource.
    case patch = "PATCH"
    /// Removes a resource.
    case delete = "DELETE"
    /// Like GET, without the body.
    case head = "HEAD"
    /// Asks what the resource allows.
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
