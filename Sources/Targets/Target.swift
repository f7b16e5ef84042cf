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
    /// `header NAME` fields with no value: each call must give `NAME:value`.
    public var requiredHeaders: [String]
    /// `sample` lines, the default first.
    public var samples: [Sample]
    /// `validate`.
    public var validationType: ValidationType
    /// `timeout`.
    public var timeout: Duration?
    /// How many times the retry plugin may retry this target; `nil` leaves it to the plugin.
    public var retryCount: Int?
    /// How many redirects a call follows (`follow`); `nil` leaves it to the provider.
    public var redirectLimit: Int?
    /// `json?`, `form?`, `multipart?`: the body is sent only when a call gives one of its fields.
    public var bodyIsOptional = false

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
        samples: [Sample] = [],
        validationType: ValidationType = .none,
        timeout: Duration? = nil,
        retryCount: Int? = nil,
        redirectLimit: Int? = nil
    ) {
        // `sampleData` and `sampleStatus` are Moya's one sample; `samples` gives several.
        let samples = samples.isEmpty && (!sampleData.isEmpty || sampleStatus != 200)
            ? [Sample(status: sampleStatus, body: sampleData)] : samples
        (self.name, self.doc, self.baseURL, self.path, self.method, self.task) = (name, doc, baseURL, path, method, task)
        (self.headers, self.requiredHeaders, self.samples, self.validationType) = (headers, [], samples, validationType)
        (self.timeout, self.retryCount, self.redirectLimit) = (timeout, retryCount, redirectLimit)
    }
}

extension Target {
    /// The path with the `{name}` segments that `value` gives a value for filled in (percent-encoded
    /// as one segment), the others kept as `{name}`.
    public func path(filling value: (String) -> String?) -> String {
        PathTemplate(path).partlyFilled(value)
    }

    /// The default sample's body; empty when the target has none.
    public var sampleData: Data { samples.first?.body ?? Data() }
    /// The default sample's status; 200 when the target has none.
    public var sampleStatus: Int { samples.first?.status ?? 200 }
}
