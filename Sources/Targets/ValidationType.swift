/// Which response statuses count as success for a target (Moya's `ValidationType`).
public enum ValidationType: Sendable, Equatable {
    /// Every status is accepted.
    case none
    /// 200 to 299.
    case successCodes
    /// 200 to 399.
    case successAndRedirectCodes
    /// Exactly these statuses.
    case customCodes([Int])

    /// Whether a response with `status` passes this validation.
    public func accepts(_ status: Int) -> Bool {
        switch self {
        case .none: true
        case .successCodes: (200...299).contains(status)
        case .successAndRedirectCodes: (200...399).contains(status)
        case .customCodes(let codes): codes.contains(status)
        }
    }
}

extension ValidationType: CustomStringConvertible {
    /// The range as the `validate` field writes it: `none`, `2xx`, `2xx-3xx` or `200,201`.
    public var description: String {
        switch self {
        case .none: "none"
        case .successCodes: "2xx"
        case .successAndRedirectCodes: "2xx-3xx"
        case .customCodes(let codes): codes.map(String.init).joined(separator: ",")
        }
    }
}
