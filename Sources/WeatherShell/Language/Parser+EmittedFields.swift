extension Parser {
    /// An `emit` in an action's body or `catch` (in an `if` or loop block of it too) may set only the
    /// reactor's state fields, each once: the field list is known here, so a misspelt field is an
    /// error before anything runs, as a second `state v` is, not when the action first runs.
    /// A field an `unless` reads is given only true or false, when the value is written out.
    /// (An `emit` in a file the action sources, and a value from a variable or query, are checked when it runs.)
    func checkEmittedFields(_ statements: [Statement], state: [ReactorDeclaration.StateField], guards: [String: String]) throws(Diagnostic) {
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
                    if let action = guards[name], case .word(let word) = assignment.value, let value = Self.literalValue(word),
                       let problem = ReactorDeclaration.guardProblem(field: name, action: action, value: value) {
                        throw error(problem, word.span)
                    }
                    seen.append(assignment.name)
                }
            case .conditional(let conditional):
                try checkEmittedFields(conditional.then, state: state, guards: guards)
                try checkEmittedFields(conditional.otherwise ?? [], state: state, guards: guards)
            case .loop(let loop):
                try checkEmittedFields(loop.body, state: state, guards: guards)
            default:
                continue
            }
        }
    }

    /// The value a word with no variable in it stands for, typed as `let` types it; nil when it
    /// holds a variable, known only when it runs.
    static func literalValue(_ word: Word) -> EchoValue? {
        word.literal.map { EchoValue.parse($0, quoted: word.isQuoted) }
    }
}
