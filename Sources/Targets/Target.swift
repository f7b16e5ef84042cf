import Foundation

/// The target a `target NAME { ... }` block declares, with every string already expanded by the shell.
public struct Target: TargetType, Equatable {
    /// The name `call` uses.
    public var name: String
    /// One line saying what the target is for (`doc`).
    public var doc: String
    /// `base`; empty falls back to the provider's `baseURL` (`set base`).
    public var baseURL: String
    /// `path`, with `{name}` segments as parameters.
    public var path: String
    /// `method`.
    public var method: HTTPMethod
    /// What `query`, `json`, `form`, `body` and `multipart` declare.
    public var task: RequestTask
    /// `header` fields.
    public var headers: [Header]
    /// `sample` data.
    public var sampleData: Data
    /// `sample ... status`.
    public var sampleStatus: Int
    /// `validate`.
    public var validationType: ValidationType
    /// `timeout`.
    public var timeout: Duration?
    /// How many times the retry plugin may retry this target; `nil` leaves it to the plugin.
    public var retryCount: Int?

    /// Declares a target; everything but the name has the same default as ``TargetType``.
    public init(
        name: String,
        doc: String = "",
        baseURL: String = "",
        path: String = "",
        method: HTTPMethod = .get,
        task: RequestTask = .plain,
        headers: [Header] = [],
        sampleData: Data = Data(),
        sampleStatus: Int = 200,
        validationType: ValidationType = .none,
        timeout: Duration? = nil,
        retryCount: Int? = nil
    ) {
        self.name = name
        self.doc = doc
        self.baseURL = baseURL
        self.path = path
        self.method = method
        self.task = task
        self.headers = headers
        self.sampleData = sampleData
        self.sampleStatus = sampleStatus
        self.validationType = validationType
        self.timeout = timeout
        self.retryCount = retryCount
    }
}
