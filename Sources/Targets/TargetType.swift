import Foundation

/// One request an API offers (Moya's `TargetType`). Every member but `baseURL` and `path`
/// has a default in an extension, so a conforming type writes only what it needs.
public protocol TargetType: Sendable {
    /// The name used in messages and by `call`; defaults to the type's name.
    var name: String { get }
    /// The URL that `path` is appended to; when empty, the provider's `baseURL` is used.
    var baseURL: String { get }
    /// The path below `baseURL`; `{name}` segments are parameters.
    var path: String { get }
    /// The HTTP method; defaults to GET.
    var method: HTTPMethod { get }
    /// Parameters and body; defaults to ``RequestTask/plain``.
    var task: RequestTask { get }
    /// Headers sent with every call; defaults to none.
    var headers: [Header] { get }
    /// Names of headers each call must give (`Name:value`); defaults to none.
    var requiredHeaders: [String] { get }
    /// The body a stub answers with; defaults to empty.
    var sampleData: Data { get }
    /// The status a stub answers with; defaults to 200.
    var sampleStatus: Int { get }
    /// Every answer a stub or mock server can give, the default first; defaults to one made of
    /// `sampleData` and `sampleStatus`.
    var samples: [Sample] { get }
    /// Which statuses are success; defaults to ``ValidationType/none``.
    var validationType: ValidationType { get }
    /// How long one call may take; `nil` (the default) leaves it to the provider's session timeout.
    var timeout: Duration? { get }
    /// How many times a retry plugin may retry this target; `nil` (the default) leaves it to the plugin.
    var retryCount: Int? { get }
    /// How many redirects a call follows (`follow`); 0 returns the redirect itself; `nil` (the default)
    /// leaves it to the provider's ``Provider/redirectLimit``.
    var redirectLimit: Int? { get }
    /// Whether the body is sent only when a call gives one of its fields (`json?`, an OpenAPI body
    /// that is not required); defaults to false: a declared body is always sent.
    var bodyIsOptional: Bool { get }
}

extension TargetType {
    /// The type's name.
    public var name: String { String(describing: Self.self) }
    /// GET.
    public var method: HTTPMethod { .get }
    /// No parameters.
    public var task: RequestTask { .plain }
    /// No headers.
    public var headers: [Header] { [] }
    /// None.
    public var requiredHeaders: [String] { [] }
    /// An empty body.
    public var sampleData: Data { Data() }
    /// 200.
    public var sampleStatus: Int { 200 }
    /// `sampleData` with `sampleStatus`.
    public var samples: [Sample] { [Sample(status: sampleStatus, body: sampleData)] }
    /// Every status is accepted.
    public var validationType: ValidationType { .none }
    /// The provider's session timeout applies.
    public var timeout: Duration? { nil }
    /// The retry plugin decides.
    public var retryCount: Int? { nil }
    /// The provider decides.
    public var redirectLimit: Int? { nil }
    /// The body is always sent.
    public var bodyIsOptional: Bool { false }

    /// Every parameter of the target: the `{name}` segments of the path (`{name=VALUE}` with a default), then the query's, then the body's,
    /// each in declaration order. A name declared twice is listed once, where it first appears.
    public var parameters: [Parameter] {
        let template = PathTemplate(path)
        let declared = template.names.map { Parameter(name: $0, defaultValue: template.defaults[$0].map(ParameterValue.text)) }
            + task.queryParameters + task.bodyParameters
        var seen: Set<String> = []
        return declared.filter { seen.insert($0.name).inserted }
    }
}
