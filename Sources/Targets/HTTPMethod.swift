/// The HTTP method of a request, spelled as it goes on the wire: one of the common ones, or any
/// other token (`PROPFIND`, `PURGE`, `LINK`, ...), as curl's `-X` allows (RFC 9110, 9.1).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CaseIterable {
    /// The method as sent.
    public let rawValue: String

    /// A method from its token; nil when `rawValue` is empty or has a character a token may not
    /// have (RFC 9110, 5.6.2: letters, digits and ``!#$%&'*+-.^_`|~``).
    public init?(rawValue: String) {
        guard !rawValue.isEmpty, rawValue.utf8.allSatisfy(Self.isTokenByte) else { return nil }
        self.rawValue = rawValue
    }

    private init(known: String) { rawValue = known }

    /// Reads a resource.
    public static let get = HTTPMethod(known: "GET")
    /// Creates, or anything not idempotent.
    public static let post = HTTPMethod(known: "POST")
    /// Replaces a resource.
    public static let put = HTTPMethod(known: "PUT")
    /// Changes part of a resource.
    public static let patch = HTTPMethod(known: "PATCH")
    /// Removes a resource.
    public static let delete = HTTPMethod(known: "DELETE")
    /// Like GET, without the body.
    public static let head = HTTPMethod(known: "HEAD")
    /// Asks what the resource allows.
    public static let options = HTTPMethod(known: "OPTIONS")

    /// The common methods, the ones that have names here and commands at the prompt.
    public static let allCases: [HTTPMethod] = [.get, .post, .put, .patch, .delete, .head, .options]

    /// Methods that IANA's method registry marks idempotent, besides the common ones.
    private static let otherIdempotent: Set<String> = [
        "TRACE", "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "UNLOCK", "SEARCH", "MKCALENDAR",
        "ACL", "REPORT", "CHECKOUT", "CHECKIN", "UNCHECKOUT", "VERSION-CONTROL", "MKWORKSPACE",
        "MKACTIVITY", "LABEL", "MERGE", "UPDATE", "BASELINE-CONTROL", "ORDERPATCH", "BIND", "UNBIND", "REBIND",
    ]

    /// Whether sending the request twice has the same effect as sending it once (RFC 9110, 9.2.2;
    /// IANA's registry for the others), which is what makes a retry safe. An unknown method is not.
    public var isIdempotent: Bool {
        switch self {
        case .get, .put, .delete, .head, .options: true
        case .post, .patch: false
        default: Self.otherIdempotent.contains(rawValue)
        }
    }

    /// RFC 9110's `tchar`: what a method and a header field name are made of.
    public static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
