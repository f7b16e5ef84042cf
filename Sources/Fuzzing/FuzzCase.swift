import Targets

/// One generated input of an operation: its parameters' values and its body.
public struct FuzzCase: Sendable, Equatable {
    /// A parameter's value.
    public struct Value: Sendable, Equatable {
        /// The parameter's name.
        public var name: String
        /// Where it is sent.
        public var location: FuzzOperation.Location
        /// The value, sent as ``FuzzCase/texts(_:in:)`` writes it.
        public var value: JSONValue

        /// A value for the parameter `name` in `location`.
        public init(name: String, location: FuzzOperation.Location, value: JSONValue) {
            self.name = name
            self.location = location
            self.value = value
        }
    }

    /// The parameters sent, in the operation's order; one left out is not sent.
    public var parameters: [Value]
    /// The body's fields (an object) or, for JSON, any value; nil sends none.
    public var body: JSONValue?
    /// A body sent as this text instead, with the body's media type: malformed JSON.
    public var rawBody: String?

    /// An input of these parameters and body.
    public init(parameters: [Value] = [], body: JSONValue? = nil, rawBody: String? = nil) {
        self.parameters = parameters
        self.body = body
        self.rawBody = rawBody
    }

    /// The texts a value is sent as: an array's elements as a repeated query key, or joined
    /// with commas in a path or header; any other value as its plain text. A header's text keeps
    /// to visible ASCII, which is all a field value may carry.
    public static func texts(_ value: JSONValue, in location: FuzzOperation.Location) -> [String] {
        let texts: [String] = if case .array(let elements) = value { elements.map(\.plainText) } else { [value.plainText] }
        switch location {
        case .query: return texts
        case .path: return [texts.joined(separator: ",")]
        case .header:
            let joined = texts.joined(separator: ",")
            return [String(joined.unicodeScalars.map { $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })]
        }
    }
}

/// Whether the declaration accepts an input.
public enum Expectation: Sendable, Equatable {
    case valid
    /// Refused by the API's contract, for this reason.
    case invalid(String)
    /// The declaration cannot say (a hand-written one's types are guesses).
    case unknown
}
