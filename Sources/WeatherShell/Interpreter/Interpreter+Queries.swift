extension Interpreter {
    func evaluateQuery(_ query: Query) throws -> String {
        throw failure("no response yet: call a target first", at: query.span)
    }
}
