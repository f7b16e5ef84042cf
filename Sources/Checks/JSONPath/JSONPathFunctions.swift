import Targets

/// The RFC's three types of function parameters and results (section 2.4.1).
enum JSONPathType: Sendable {
    /// A JSON value, or Nothing.
    case value
    /// True or false.
    case logical
    /// A nodelist.
    case nodes
}

/// The function extensions RFC 9535 defines (section 2.4.4 to 2.4.8).
enum JSONPathFunction: String, CaseIterable, Sendable {
    case length, count, match, search, value

    var parameters: [JSONPathType] {
        switch self {
        case .length: [.value]
        case .count, .value: [.nodes]
        case .match, .search: [.value, .value]
        }
    }

    var result: JSONPathType {
        switch self {
        case .length, .count, .value: .value
        case .match, .search: .logical
        }
    }
}

/// What a function argument or result evaluates to.
enum JSONPathFunctionResult {
    /// A value; nil is the RFC's Nothing.
    case value(JSONValue?)
    case logical(Bool)
    case nodes([JSONValue])
}

extension JSONPathEvaluator {
    /// Evaluates a call on the filter's current node.
    mutating func evaluate(_ call: JSONPathFunctionCall, current: JSONValue) throws(JSONPathError) -> JSONPathFunctionResult {
        var arguments: [JSONPathFunctionResult] = []
        for argument in call.arguments {
            switch argument {
            case .value(let comparable): arguments.append(.value(try value(of: comparable, current: current)))
            case .nodes(let query): arguments.append(.nodes(try select(query, current: current)))
            case .nodesFunction(let inner): arguments.append(try evaluate(inner, current: current))
            case .logical(let logical): arguments.append(.logical(try test(logical, current: current)))
            }
        }
        switch call.function {
        case .length:
            guard case .value(let value?)? = arguments.first else { return .value(nil) }
            switch value {
            case .string(let text): return .value(.number(String(text.unicodeScalars.count)))
            case .array(let elements): return .value(.number(String(elements.count)))
            case .object(let members): return .value(.number(String(members.count)))
            case .null, .bool, .number: return .value(nil)
            }
        case .count:
            guard case .nodes(let nodes)? = arguments.first else { return .value(nil) }
            return .value(.number(String(nodes.count)))
        case .value:
            guard case .nodes(let nodes)? = arguments.first, nodes.count == 1 else { return .value(nil) }
            return .value(nodes.first)
        case .match, .search:
            guard case .value(.string(let text)?)? = arguments.first,
                  case .value(.string(let pattern)?)? = arguments.dropFirst().first else { return .logical(false) }
            // A literal pattern was compiled at parse time; one from the document is compiled here.
            let regex = call.pattern.map(\.regex) ?? compiled(pattern, wholeString: call.function == .match)
            guard let regex else { return .logical(false) }
            do {
                return .logical(try regex.matches(text))
            } catch {
                throw JSONPathError(message: "\(call.function.rawValue)() needs more steps than allowed on a string of \(text.unicodeScalars.count) characters")
            }
        }
    }
}
