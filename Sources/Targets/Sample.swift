import Foundation

/// One answer a target can give without the network (`sample @FILE status N`): Moya's
/// `sampleData`, with the status and media type a mock server and a stub answer with.
public struct Sample: Sendable, Equatable {
    /// The status the answer carries; 200 unless the declaration says otherwise.
    public var status: Int
    /// The body.
    public var body: Data
    /// The media type, from the sample file's extension; `nil` leaves it to the body (JSON or none).
    public var contentType: String?

    /// A sample with this status, body and media type.
    public init(status: Int = 200, body: Data, contentType: String? = nil) {
        self.status = status
        self.body = body
        self.contentType = contentType
    }

    /// The media type to answer with: the file's, else JSON when the body parses as JSON, else none.
    public var effectiveContentType: String? {
        if let contentType { return contentType }
        guard !body.isEmpty, (try? JSONValue.parse(body)) != nil else { return nil }
        return "application/json"
    }
}

extension TargetType {
    /// The sample for `status`, or the first (the default) when `status` is nil.
    public func sample(status: Int?) -> Sample? {
        guard let status else { return samples.first }
        return samples.first { $0.status == status }
    }
}
