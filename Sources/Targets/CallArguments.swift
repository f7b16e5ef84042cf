/// The arguments of one `call`: parameter values in the order given, plus extra headers.
public struct CallArguments: Sendable, Equatable {
    /// `key=value`, `key:=JSON` and `f@path` arguments, in the order given; a later one for the same name wins.
    public var values: [(name: String, value: ParameterValue)]
    /// `Name:value` arguments, added after the target's headers (a same-named one replaces the target's).
    public var headers: [Header]

    /// Collects the arguments of one call.
    public init(values: [(name: String, value: ParameterValue)] = [], headers: [Header] = []) {
        self.values = values
        self.headers = headers
    }

    /// The value given for `name`, the last one if it was given more than once.
    public func value(for name: String) -> ParameterValue? {
        values.last { $0.name == name }?.value
    }

    /// Equal when both give the same values in the same order and the same headers.
    public static func == (lhs: CallArguments, rhs: CallArguments) -> Bool {
        lhs.headers == rhs.headers
            && lhs.values.count == rhs.values.count
            && zip(lhs.values, rhs.values).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
