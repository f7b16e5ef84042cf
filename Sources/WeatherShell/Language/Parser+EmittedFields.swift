extension Parser {
    /// An `emit` in an action's body or `catch` (in an `if` or loop block of it too) may set only the
    /// reactor's state fields, each once: the field list is known here, so a misspelt field is an
    /// error before anything runs, as a second `state v` is, not when the action first runs.
    /// (An `emit` in a file the action sources is checked when it runs.)
    func checkEmittedFields(_ statements: [Statement], state: [ReactorDeclaration.StateField]) throws(Diagnostic) {
        let names = state.compactMap(\.name.literal)
        for statement in statements {
            switch statement.kind {
            case .emit(let assignments):
                var seen: [Word] = []
                for assignment in assignments {
                    let name = assignment.name.literal ?? ""
                    guard names.contains(name) else {
                        var notes: [String] = []
                        if let guess = Suggestion.closest(to: name, in: names) { notes.append("did you mean '\(guess)'?") }
                        notes.append("state fields: \(names.joined(separator: ", "))")
                        throw error("the reactor has no state field '\(name)'", assignment.name.span, notes: notes)
                    }
                    if let first = seen.first(where: { $0.literal == name }) {
                        let (line, column) = file.location(of: first.span.start)
                        throw error("'emit' sets '\(name)' twice", assignment.name.span,
                                    notes: ["the first '\(name)' is at line \(line), column \(column); one emit sets each field once"])
                    }
                    seen.append(assignment.name)
                }
            case .conditional(let conditional):
                try checkEmittedFields(conditional.then, state: state)
                try checkEmittedFields(conditional.otherwise ?? [], state: state)
            case .loop(let loop):
                try checkEmittedFields(loop.body, state: state)
            default:
                continue
            }
        }
    }
}
