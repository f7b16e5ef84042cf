extension ReactorDeclaration {
    /// The state fields an `unless` reads, each with the name of the first action it guards.
    static func guards(of actions: [Action]) -> [String: String] {
        actions.reduce(into: [:]) { guards, action in
            guard let field = action.unlessField?.literal, guards[field] == nil else { return }
            guards[field] = action.name.literal ?? ""
        }
    }

    /// Why a field `unless` reads cannot hold `value`, or nil when it can: the guard skips the
    /// action only while the field is true, so any value but true or false would turn it off
    /// without a word.
    static func guardProblem(field: String, action: String, value: EchoValue) -> String? {
        if case .bool = value { return nil }
        return "'\(field)' is read by 'unless \(field)' (action '\(action)'): it holds true or false, not \(value.kindName)"
    }
}
