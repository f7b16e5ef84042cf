extension Run {
    /// The reactors declared in the session, in the order they were declared.
    var declaredReactors: [DeclaredReactorCommand] {
        session.reactorOrder.compactMap { session.reactors[$0] as? DeclaredReactorCommand }
    }

    /// `help` after the commands: one line per declared reactor, its actions.
    func listDeclaredReactors() {
        let reactors = declaredReactors
        guard !reactors.isEmpty else { return }
        io.out("Reactors declared (help NAME for one):\n")
        let width = reactors.map(\.name.count).max() ?? 0
        for reactor in reactors {
            io.out("  \(reactor.name.padding(width))  actions: \(reactor.actionNames.joined(separator: ", "))\n")
        }
    }

    /// `help NAME` for a declared reactor: its usage (each action with its parameters), where it
    /// was declared, each action's `unless` field, and its state fields (not their values, which
    /// `state NAME` prints, secrets masked).
    func reactorHelp(_ reactor: DeclaredReactorCommand) {
        let declaration = reactor.declaration
        let actions = declaration.actions.map { action in
            ([action.name.literal ?? ""] + action.parameters.map { ($0.literal ?? "").uppercased() }).joined(separator: " ")
        }
        io.out("usage: \(reactor.name) \(actions.joined(separator: " | "))\n")
        let (line, _) = declaration.file.location(of: declaration.span.start)
        io.out("  a reactor declared at \(declaration.file.place ?? "\(declaration.file.name):\(line)")\n")
        for action in declaration.actions {
            guard let name = action.name.literal, let field = action.unlessField?.literal else { continue }
            io.out("  \(reactor.name) \(name) does nothing while \(field) is true\n")
        }
        let fields = declaration.state.compactMap(\.name.literal)
        io.out("  state: \(fields.joined(separator: ", ")) (state \(reactor.name) prints them now)\n")
    }
}
