import Foundation

/// The target a `target NAME { ... }` block declares, with every string already expanded by the shell.
public struct Target: TargetType, Equatable {
    /// The name `call` uses.
    public var name: String {
        get { box.fields.name }
        _modify { makeUnique(); yield &box.fields.name }
    }
    /// One line saying what the target is for (`doc`).
    public var doc: String {
        get { box.fields.doc }
        _modify { makeUnique(); yield &box.fields.doc }
    }
    /// `base`; empty falls back to the provider's `baseURL` (`set base`).
    public var baseURL: String {
        get { box.fields.baseURL }
        _modify { makeUnique(); yield &box.fields.baseURL }
    }
    /// `path`, with `{name}` segments as parameters.
    public var path: String {
        get { box.fields.path }
        _modify { makeUnique(); yield &box.fields.path }
    }
    /// `method`.
    public var method: HTTPMethod {
        get { box.fields.method }
        _modify { makeUnique(); yield &box.fields.method }
    }
    /// What `query`, `json`, `form`, `body` and `multipart` declare.
    public var task: RequestTask {
        get { box.fields.task }
        _modify { makeUnique(); yield &box.fields.task }
    }
    /// `header` fields.
    public var headers: [Header] {
        get { box.fields.headers }
        _modify { makeUnique(); yield &box.fields.headers }
    }
    /// `header NAME` fields with no value: each call must give `NAME:value`.
    public var requiredHeaders: [String] {
        get { box.fields.requiredHeaders }
        _modify { makeUnique(); yield &box.fields.requiredHeaders }
    }
    /// `sample` lines, the default first.
    public var samples: [Sample] {
        get { box.fields.samples }
        _modify { makeUnique(); yield &box.fields.samples }
    }
    /// `validate`.
    public var validationType: ValidationType {
        get { box.fields.validationType }
        _modify { makeUnique(); yield &box.fields.validationType }
    }
    /// `timeout`.
    public var timeout: Duration? {
        get { box.fields.timeout }
        _modify { makeUnique(); yield &box.fields.timeout }
    }
    /// How many times the retry plugin may retry this target; `nil` leaves it to the plugin.
    public var retryCount: Int? {
        get { box.fields.retryCount }
        _modify { makeUnique(); yield &box.fields.retryCount }
    }
    /// How many redirects a call follows (`follow`); `nil` leaves it to the provider.
    public var redirectLimit: Int? {
        get { box.fields.redirectLimit }
        _modify { makeUnique(); yield &box.fields.redirectLimit }
    }

    /// The fields, in one box that copies share until one of them changes: a call copies its
    /// target several times on its way to the transport, and a copy of the fields themselves
    /// retained each of them.
    private var box: Box

    private struct Fields: Equatable, Sendable {
        var name: String
        var doc: String
        var baseURL: String
        var path: String
        var method: HTTPMethod
        var task: RequestTask
        var headers: [Header]
        var requiredHeaders: [String]
        var samples: [Sample]
        var validationType: ValidationType
        var timeout: Duration?
        var retryCount: Int?
        var redirectLimit: Int?
    }

    private final class Box: @unchecked Sendable {
        // Unchecked: a box is changed only through a `Target` that holds the only reference (``makeUnique()``).
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
    }

    /// Equal when every field is.
    public static func == (lhs: Target, rhs: Target) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

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
        box = Box(Fields(name: name, doc: doc, baseURL: baseURL, path: path, method: method, task: task, headers: headers,
                         requiredHeaders: [], samples: samples, validationType: validationType, timeout: timeout,
                         retryCount: retryCount, redirectLimit: redirectLimit))
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
