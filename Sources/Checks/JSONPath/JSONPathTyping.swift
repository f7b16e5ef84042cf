/// The RFC's well-typedness rules (section 2.4.3), applied to a parsed filter expression: what may
/// stand alone as a test, what may be compared, and what each function parameter accepts.
enum JSONPathTyping {
    /// The expression as a test (LogicalType).
    static func logical(_ expression: JSONPathExpression) throws(JSONPathError) -> JSONPathLogical {
        switch expression.kind {
        case .or(let items):
            var typed: [JSONPathLogical] = []
            for item in items { typed.append(try logical(item)) }
            return .or(typed)
        case .and(let items):
            var typed: [JSONPathLogical] = []
            for item in items { typed.append(try logical(item)) }
            return .and(typed)
        case .not(let operand):
            return .not(try logical(operand))
        case .parenthesized(let inner):
            return try logical(inner)
        case .query(let query):
            return .exists(query)
        case .comparison(let left, let comparison, let right):
            return .comparison(try comparable(left), comparison, try comparable(right))
        case .function(let function, let arguments):
            guard function.result != .value else {
                throw JSONPathError(
                    message: "\(function.rawValue)() gives a value, not true or false; compare it, as in \(function.rawValue)(...) == ...",
                    offset: expression.offset)
            }
            return .function(try call(function, arguments, at: expression.offset))
        case .literal:
            throw JSONPathError(message: "a literal cannot stand alone as a test; compare it, as in @.name == ...",
                                offset: expression.offset)
        }
    }

    /// The expression as one side of a comparison (ValueType): a literal, a singular query or a
    /// function giving a value.
    static func comparable(_ expression: JSONPathExpression) throws(JSONPathError) -> JSONPathComparable {
        switch expression.kind {
        case .literal(let value):
            return .literal(value)
        case .query(let query):
            guard query.isSingular else {
                throw JSONPathError(
                    message: "a query in a comparison must select at most one node: names and indices only, no '*', '..', slices or filters",
                    offset: expression.offset)
            }
            return .query(query)
        case .function(let function, let arguments):
            guard function.result == .value else {
                let gives = function.result == .logical ? "true or false" : "nodes"
                throw JSONPathError(message: "\(function.rawValue)() gives \(gives), which cannot be compared",
                                    offset: expression.offset)
            }
            return .function(try call(function, arguments, at: expression.offset))
        case .or, .and, .not, .comparison, .parenthesized:
            throw JSONPathError(message: "only a literal, a singular query or a function giving a value can be compared",
                                offset: expression.offset)
        }
    }

    /// A call with its arguments checked against the function's parameters.
    static func call(
        _ function: JSONPathFunction, _ arguments: [JSONPathExpression], at offset: Int
    ) throws(JSONPathError) -> JSONPathFunctionCall {
        let parameters = function.parameters
        guard arguments.count == parameters.count else {
            let noun = parameters.count == 1 ? "argument" : "arguments"
            throw JSONPathError(message: "\(function.rawValue)() takes \(parameters.count) \(noun), not \(arguments.count)",
                                offset: offset)
        }
        var typed: [JSONPathArgument] = []
        for (index, (argument, parameter)) in zip(arguments, parameters).enumerated() {
            typed.append(try self.argument(argument, parameter, number: index + 1, of: function))
        }
        var pattern: JSONPathCompiledPattern?
        if function == .match || function == .search, typed.count == 2,
           case .value(.literal(.string(let text))) = typed[1] {
            pattern = JSONPathCompiledPattern(regex: JSONPathIRegexp.compile(text, wholeString: function == .match))
        }
        return JSONPathFunctionCall(function: function, arguments: typed, pattern: pattern)
    }

    private static func argument(
        _ argument: JSONPathExpression, _ parameter: JSONPathType, number: Int, of function: JSONPathFunction
    ) throws(JSONPathError) -> JSONPathArgument {
        let name = "argument \(number) of \(function.rawValue)()"
        switch parameter {
        case .value:
            switch argument.kind {
            case .literal, .function:
                return .value(try comparable(argument))
            case .query(let query) where query.isSingular:
                return .value(.query(query))
            case .query:
                throw JSONPathError(
                    message: "\(name) must be a single value, but this query may select several nodes: use names and indices only",
                    offset: argument.offset)
            case .or, .and, .not, .comparison, .parenthesized:
                throw JSONPathError(message: "\(name) must be a value: a literal, a singular query or a function giving a value",
                                    offset: argument.offset)
            }
        case .nodes:
            switch argument.kind {
            case .query(let query):
                return .nodes(query)
            case .function(let inner, let arguments) where inner.result == .nodes:
                return .nodesFunction(try call(inner, arguments, at: argument.offset))
            default:
                throw JSONPathError(message: "\(name) must be a query, such as @.items[*]", offset: argument.offset)
            }
        case .logical:
            if case .literal = argument.kind {
                throw JSONPathError(message: "\(name) must be a test or comparison, not a literal", offset: argument.offset)
            }
            return .logical(try logical(argument))
        }
    }
}
