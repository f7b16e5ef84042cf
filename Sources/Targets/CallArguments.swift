import Foundation

/// The arguments of one `call`: parameter values in the order given, extra query items, extra
/// headers and a body that replaces the target's.
public struct CallArguments: Sendable, Equatable {
    /// `key=value`, `key:=JSON` and `f@path` arguments, in the order given. A name given twice is
    /// sent twice, in order (a query or form key repeated, a multipart part each, a JSON array).
    public var values: [(name: String, value: ParameterValue)]
    /// `Name:value` arguments, added after the target's headers (a same-named one replaces the target's).
    public var headers: [Header]
    /// `name==value` arguments: query items sent after the target's own, in the order given,
    /// whether or not the target declares the name.
    public var queryItems: [(name: String, value: String)]
    /// `@path`: a body that replaces the one the target declares.
    public var body: RawBody?

    /// Collects the arguments of one call.
    public init(values: [(name: String, value: ParameterValue)] = [], headers: [Header] = [],
                queryItems: [(name: String, value: String)] = [], body: RawBody? = nil) {
        self.values = values
        self.headers = headers
        self.queryItems = queryItems
        self.body = body
    }

    /// The last value given for `name`; ``values(for:)`` gives every one.
    public func value(for name: String) -> ParameterValue? {
        values.last { $0.name == name }?.value
    }

    /// The values given for `name`, in the order given.
    public func values(for name: String) -> [ParameterValue] {
        values.compactMap { $0.name == name ? $0.value : nil }
    }

    /// What a call with these arguments sends for one place's declared `parameters` (the query, a
    /// body), in order: each name the call gives, with all its values, where the name is first
    /// declared; each other declaration with its default (`nil` for a required one).
    public func placed(_ parameters: [Parameter]) -> [(name: String, value: ParameterValue?)] {
        var placedNames: Set<String> = []
        var placed: [(name: String, value: ParameterValue?)] = []
        for parameter in parameters {
            let given = values(for: parameter.name)
            if given.isEmpty {
                // An optional parameter that the call does not give is not sent.
                if parameter.isOptional, parameter.defaultValue == nil { continue }
                placed.append((parameter.name, parameter.defaultValue))
            } else if placedNames.insert(parameter.name).inserted {
                placed += given.map { (parameter.name, $0) }
            }
        }
        return placed
    }

    /// Equal when both give the same values, query items and body in the same order and the same headers.
    public static func == (lhs: CallArguments, rhs: CallArguments) -> Bool {
        lhs.headers == rhs.headers && lhs.body == rhs.body
            && lhs.values.count == rhs.values.count
            && zip(lhs.values, rhs.values).allSatisfy { $0.name == $1.name && $0.value == $1.value }
            && lhs.queryItems.count == rhs.queryItems.count
            && zip(lhs.queryItems, rhs.queryItems).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

/// A request body given whole, as `@file` gives it: its bytes and their media type.
public struct RawBody: Sendable, Equatable {
    /// The bytes sent, unchanged.
    public var data: Data
    /// The Content-Type sent with them, unless a header sets one; `nil` sends none.
    public var contentType: String?
    /// The file the bytes were read from, for the call history (`@PATH`); `nil` when they came from elsewhere.
    public var source: String?

    /// A body of `data`, sent with `contentType` when there is one.
    public init(data: Data, contentType: String?, source: String? = nil) {
        self.data = data
        self.contentType = contentType
        self.source = source
    }
}
