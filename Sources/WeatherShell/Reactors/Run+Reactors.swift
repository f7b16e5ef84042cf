import Targets

/// What an action of a declared reactor is doing: where its `emit`s go.
struct ActionContext {
    var emit: @Sendable (DeclaredReactor.Mutation) async -> Void
    /// The reactor's state fields: an `emit` may set only these.
    var fieldNames: [String]
    /// The fields an `unless` reads, each with the action it guards: an `emit` gives them only booleans.
    var guards: [String: String]
    /// The value each field was last given by an `emit` of this action's own statements.
    var emitted = SharedValue<[String: EchoValue]>([:])
}

extension Run {
    /// The shell reactor for a command name: a declared one, or a built-in made on first use.
    func shellReactor(named name: String) -> ShellReactor? {
        if let reactor = session.reactors[name] { return reactor }
        let made = BuiltInReactor.named(name)?.make(self)
        if let made { addReactor(made) }
        return made
    }

    func addReactor(_ reactor: ShellReactor) {
        if session.reactors[reactor.name] == nil { session.reactorOrder.append(reactor.name) }
        session.reactors[reactor.name] = reactor
    }

    /// `NAME ACTION [ARGS]`; `NAME` alone prints its state, as `state NAME` does.
    func runReactor(_ reactor: ShellReactor, _ arguments: [Word], command: Word) async throws {
        if arguments.isEmpty { return try await printState([command]) }
        let texts = try arguments.map { try expand($0).text }
        let step = (reactor: reactor.name, action: texts.first ?? "")
        guard actionChain.count < Self.maximumActionDepth else {
            throw failure("reactor actions nest more than \(Self.maximumActionDepth) deep", at: command.span,
                          notes: Self.chainNotes(actionChain + [step]))
        }
        actionChain.append(step)
        defer { actionChain.removeLast() }
        do {
            try await reactor.send(texts, words: [command] + arguments, from: self)
        } catch let error as Diagnostic {
            throw error
        } catch let halt as Halt {
            throw halt
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw failure(mask("\(error)"), at: command.span)
        }
    }

    /// At the prompt, an `exit` in an action ends the action and the entry, not the session: the
    /// user ran a command, not `exit` (``PromptLoop`` says so and the prompt comes back). What the
    /// note names: the action that said it and where, and the action typed when that one was run
    /// by another (`'a go' (ex.wsh:3:45), run by 'a nest'`).
    func noteExitInAction(at span: SourceSpan) {
        guard mode == .interactive, let innermost = actionChain.last, let outermost = actionChain.first,
              outcomes.exitedAction == nil else { return }
        let (line, column) = currentFile.location(of: span.start)
        let place = currentFile.place ?? "\(currentFile.name):\(line):\(column)"
        outcomes.exitedAction = "'\(innermost.reactor) \(innermost.action)' (\(place))"
            + (actionChain.count > 1 ? ", run by '\(outermost.reactor) \(outermost.action)'," : "")
    }

    /// How deep a reactor action may run other reactors' actions.
    static let maximumActionDepth = 8

    /// What a chain of actions too deep is: one that comes back to a reactor may run for ever; one
    /// through different reactors is only long.
    static func chainNotes(_ chain: [(reactor: String, action: String)]) -> [String] {
        let shown = "the chain: " + chain.map { "\($0.reactor) \($0.action)" }.joined(separator: " -> ")
        var seen: Set<String> = []
        guard let repeated = chain.first(where: { !seen.insert($0.reactor).inserted }) else {
            return [shown, "no reactor comes twice in it; it is only deeper than \(maximumActionDepth)"]
        }
        return [shown, "'\(repeated.reactor)' comes back in it: an action that runs its own reactor's actions may never end"]
    }

    func reactorUsage(_ reactor: ShellReactor, words: [Word]) -> Diagnostic {
        let given = words.dropFirst().first
        // A known action given words it does not take (`counter increase 5`): not an unknown action.
        if let text = given?.literal, reactor.actionNames.contains(text), words.count > 2,
           let usage = BuiltInReactor.named(reactor.name)?.usage {
            return failure("'\(reactor.name) \(text)' takes no arguments", at: words[2].span, notes: ["usage: \(usage)"])
        }
        var notes: [String] = []
        if let text = given?.literal, let guess = Suggestion.closest(to: text, in: reactor.actionNames) {
            notes.append("did you mean '\(guess)'?")
        }
        notes.append("actions: \(reactor.actionNames.joined(separator: ", "))")
        let message = given.map { "unknown action '\(($0.literal ?? "").shortened())' for '\(reactor.name)'" } ?? "'\(reactor.name)' needs an action"
        return failure(message, at: (given ?? words.first)?.span, notes: notes)
    }

    /// `state [REACTOR]`: the current state, one echo line per reactor.
    func printState(_ arguments: [Word]) async throws {
        let names: [String]
        if arguments.count > 1 {
            throw failure("'state' takes one reactor name", at: arguments[1].span, notes: ["usage: state [REACTOR]"])
        }
        if let word = arguments.first {
            let name = try expand(word).text
            guard shellReactor(named: name) != nil else {
                var notes: [String] = []
                if let guess = Suggestion.closest(to: name, in: session.reactorOrder + BuiltInReactor.names) { notes.append("did you mean '\(guess)'?") }
                throw failure("no reactor named '\(name.shortened())'", at: word.span, notes: notes)
            }
            names = [name]
        } else {
            names = session.reactorOrder
        }
        let style = EchoStyle(mode: session.echoStyle.value.mode == .json ? .json : .line, color: false)
        for name in names {
            guard let reactor = session.reactors[name] else { continue }
            if let line = style.render(reactor: name, fields: await reactor.currentFields(), previous: nil, mask: mask) { io.out(styled: line + "\n") }
        }
    }

    /// `reactor NAME { ... }`: declares (or replaces) a reactor whose actions become commands.
    func declareReactor(_ declaration: ReactorDeclaration) throws {
        guard let name = declaration.name.literal else { return }
        if CommandCatalog.names.contains(name) {
            throw failure("'\(name)' is a command; a reactor needs another name", at: declaration.name.span)
        }
        if let old = session.reactors[name] as? DeclaredReactorCommand, let action = old.running.first {
            // Its action would go on echoing, under this name, a state that is no longer the reactor's.
            throw failure("reactor '\(name)' is running '\(name) \(action)'; declare it again when that action ends",
                          at: declaration.name.span, notes: ["an action cannot replace the reactor it belongs to while it runs"])
        }
        var initial: [(name: String, value: EchoValue)] = []
        for field in declaration.state {
            noteRecalledPlaceholders([field.initial], holding: true, named: field.name.literal)
            let text = try expand(field.initial).text
            initial.append((field.name.literal ?? "", EchoValue.parse(text, quoted: field.initial.isQuoted)))
        }
        let guards = ReactorDeclaration.guards(of: declaration.actions)
        for (field, value) in zip(declaration.state, initial) {
            if let action = guards[value.name], let problem = ReactorDeclaration.guardProblem(field: value.name, action: action, value: value.value) {
                throw failure(problem, at: field.initial.span, notes: ["start it as false: state \(value.name) = false"])
            }
        }
        addReactor(DeclaredReactorCommand(declaration: declaration, initial: initial, run: self))
        // Only the actions with a parameter named like a credential: a reactor with none is not
        // registered (a redeclared one is taken off), so the history's hiding ignores it.
        let credentialActions = declaration.actions.reduce(into: [String: [Int]]()) { actions, action in
            guard let actionName = action.name.literal else { return }
            let positions = LiteralCredentials.credentialPositions(action.parameters.map { $0.literal ?? "" })
            if !positions.isEmpty { actions[actionName] = positions }
        }
        session.credentialArguments.value[name] = credentialActions.isEmpty ? nil : credentialActions
    }

    /// Runs one action of a declared reactor in a child run: its parameters are variables of
    /// that run, a failing statement ends the body, and the `catch` block runs with `$error` set;
    /// a failed `expect` then fails the action all the same.
    func perform(_ action: DeclaredReactor.Action, of declaration: ReactorDeclaration,
                 emit: @escaping @Sendable (DeclaredReactor.Mutation) async -> Void) async throws {
        guard let body = declaration.actions.first(where: { $0.name.literal == action.name }) else { return }
        var parameters = Variables()
        for (parameter, value) in zip(body.parameters.compactMap(\.literal), action.arguments) {
            parameters[parameter] = Variable(typed: value)
        }
        let context = ActionContext(emit: emit, fieldNames: declaration.state.compactMap(\.name.literal),
                                    guards: ReactorDeclaration.guards(of: declaration.actions))
        let child = Run(action: context, file: declaration.file, parameters: parameters, parent: self)
        try await child.performBody(body, interrupted: action.interrupted, caught: action.caughtWhileRaised)
    }

    private func performBody(_ body: ReactorDeclaration.Action, interrupted: Bool, caught: SharedValue<Bool>) async throws {
        if interrupted {
            try await cleanUpInterrupted(body)
            return
        }
        do {
            try await executeBlock(body.body)
        } catch let error as Diagnostic {
            guard let catchBody = body.catchBody else { throw error }
            locals["error"] = Variable(value: mask(errorText(error)), isSecret: false)
            // A failed `expect` is a verdict, not an error to handle: the `catch` cleans up, and the
            // check still fails the command (and the script, or the test file).
            guard error.kind == .expectation else {
                // Whether the body had raised its `unless` field when the error came (`emit loading
                // = true` before the call): a breaker's `catch` raising it is no such case.
                let raised = body.unlessField?.literal.map { actionContext?.emitted.value[$0] == .bool(true) } ?? false
                try await executeBlock(catchBody)
                caught.value = raised
                return
            }
            do {
                try await executeBlock(catchBody)
            } catch let ending {
                // A catch that exits or fails cannot hide the check: it is said and counted first
                // (under bail, it ends the script with 4).
                try report(error)
                throw ending
            }
            throw error
        }
    }

    /// `$error` in a `catch`: the message, after its place (`lib.wsh:3:6: `) when that is in
    /// another file than the action's (one it sources), so that the user knows which file to fix.
    private func errorText(_ error: Diagnostic) -> String {
        guard let file = error.file, file.name != currentFile.name else { return error.message }
        if let place = file.place { return "\(place): \(error.message)" }
        guard let span = error.span else { return "\(file.name): \(error.message)" }
        let (line, column) = file.location(of: span.start)
        return "\(file.name):\(line):\(column): \(error.message)"
    }

    /// After Ctrl-C: the action's `catch` with `$error` = `interrupted`. (The command then sets
    /// the `unless` field back to false if the `catch` left it true, or there is no `catch`.)
    private func cleanUpInterrupted(_ body: ReactorDeclaration.Action) async throws {
        guard let catchBody = body.catchBody else { return }
        locals["error"] = Variable(value: "interrupted", isSecret: false)
        try await executeBlock(catchBody)
    }

    /// `emit a = x, b = y`: one mutation, one reduce, one echo.
    func emit(_ assignments: [FieldAssignment]) async throws {
        guard let context = actionContext else {
            throw failure("'emit' runs only inside a reactor action", at: assignments.first?.name.span)
        }
        var fields: [(name: String, value: EchoValue)] = []
        for assignment in assignments {
            let name = assignment.name.literal ?? ""
            guard context.fieldNames.contains(name) else {
                var notes: [String] = []
                if let guess = Suggestion.closest(to: name, in: context.fieldNames) { notes.append("did you mean '\(guess)'?") }
                notes.append("state fields: \(context.fieldNames.joined(separator: ", "))")
                throw failure("the reactor has no state field '\(name)'", at: assignment.name.span, notes: notes)
            }
            let value = try echoValue(assignment.value)
            if let action = context.guards[name], let problem = ReactorDeclaration.guardProblem(field: name, action: action, value: value) {
                throw failure(problem, at: assignment.value.span)
            }
            fields.append((name, value))
        }
        for (name, value) in fields { context.emitted.value[name] = value }
        await context.emit(DeclaredReactor.Mutation(fields: fields, acknowledgement: OneTimeSignal()))
    }
}

extension Run {
    /// A value for a state field: a query keeps its JSON type, a word is read as the language writes it.
    func echoValue(_ value: ValueExpression) throws -> EchoValue {
        switch value {
        case .query(let query):
            let (found, missing) = try lookUp(query)
            guard let found else {
                throw failure("'\(currentFile.text(query.span.start..<query.span.end))' found nothing", at: query.span, notes: [missing])
            }
            return EchoValue(found)
        // `emit n = $v` keeps v's type, as `let` gave it: `let v = 5` echoes n=5, not n="5".
        case .word(let word) where word.loneVariable != nil:
            return EchoValue(try typedValue(of: word))
        case .word(let word):
            return EchoValue.parse(try expand(word).text, quoted: word.isQuoted || !word.variableNames.isEmpty)
        case .env:
            return .text(try evaluate(value).text)
        }
    }
}

/// `state`: print a reactor's state
struct StateCommand: ShellCommand {
    static let entry = CommandCatalog.Entry(name: "state", usage: "state [REACTOR]", summary: "print a reactor's state")

    static func completions(after previous: [String], word: String, in session: CompletionSnapshot) -> [String]? {
        previous.count == 1 ? Set(session.reactorActions.keys).union(BuiltInReactor.names).sorted() : []
    }

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        try await run.printState(arguments)
    }
}
