import Checks
import Targets

extension Run {
    /// `sleep DURATION`; Ctrl-C ends it at once.
    func pause(_ word: Word) async throws {
        try await Task.sleep(for: try duration(word))
    }

    /// `if EXPR { ... } else { ... }`.
    func run(_ conditional: Conditional) async throws {
        if try holds(conditional.condition) {
            try await executeBlock(conditional.then)
        } else if let otherwise = conditional.otherwise {
            try await executeBlock(otherwise)
        }
    }

    /// `for`, `repeat` and `until`: each round checks for Ctrl-C first.
    func run(_ loop: Loop) async throws {
        switch loop.kind {
        case .forEach(let name, let source):
            let key = name.literal ?? ""
            for value in try values(of: source) {
                try Task.checkCancellation()
                setVariable(key, Variable(typed: value))
                try await executeBlock(loop.body)
            }
        case .repeatCount(let word):
            for _ in 0..<(try rounds(word, allowingZero: true)) {
                try Task.checkCancellation()
                try await executeBlock(loop.body)
            }
        case .until(let condition, let every, let max):
            try await runUntil(condition, body: loop.body, every: every.map(duration) ?? .seconds(1),
                               rounds: try max.map { try rounds($0, allowingZero: false) } ?? 10)
        }
    }

    /// Runs `body`, then checks `condition`, until it holds; its `expect`s count only in the last
    /// round: the one whose condition holds, or the `max`th.
    private func runUntil(_ condition: Expectation, body: [Statement], every pause: Duration, rounds: Int) async throws {
        for round in 1...rounds {
            try Task.checkCancellation()
            let outerChecks = provisionalChecks
            // The `max`th round is the last whatever its condition: its checks count as they run.
            provisionalChecks = outerChecks != nil || round < rounds ? [] : nil
            var done = false
            answerFailedInRound = false
            do {
                try await executeBlock(body)
                done = try holds(condition)
            } catch let diagnostic as Diagnostic where diagnostic.comesFromTheAnswer && round < rounds {
                // The condition cannot be read from this answer (a proxy's HTML 502 page): not yet.
            } catch Halt.failure where answerFailedInRound && round < rounds {
                // A call in the round got no answer, or one it refuses: a later round may get another.
                answerFailedInRound = false
            } catch Halt.exit(let code) {
                // A round that ends the script is the last: its held-back checks count (under bail,
                // a failed one exits 4); a bare exit's code is then its first error's.
                let checks = provisionalChecks ?? []
                provisionalChecks = outerChecks
                try settle(checks)
                guard bareExitPending, provisionalChecks == nil else { throw Halt.exit(code) }
                bareExitPending = false
                throw Halt.exit(try exitCode(nil))
            } catch {
                let checks = provisionalChecks ?? []
                provisionalChecks = outerChecks
                // A round ended by an error (a condition that cannot be evaluated) was the last:
                // its checks count before the error is said.
                if !(error is Halt), !(error is CancellationError) { try settle(checks) }
                throw error
            }
            let checks = provisionalChecks ?? []
            provisionalChecks = outerChecks
            if done || round == rounds { try settle(checks) }
            if done { return }
            if round < rounds { try await Task.sleep(for: pause) }
        }
        let source = currentFile.text(condition.span.start..<condition.span.end)
        let ranOut = failure("'\(mask(source).shortened(200))' still does not hold after \(rounds) round\(rounds == 1 ? "" : "s")",
                             at: condition.span, notes: ["until ... max N tries more rounds; every D waits longer between them"],
                             kind: .expectation)
        // Inside an outer round that may not be the last, this counts only if that round does.
        if provisionalChecks != nil {
            provisionalChecks?.append(CheckedExpectation(expectation: condition, file: currentFile, failure: ranOut, isCheck: false))
            return
        }
        throw ranOut
    }

    /// The values `for` goes over, typed: a query's list, or the words as literals.
    private func values(of source: Loop.Source) throws -> [JSONValue] {
        switch source {
        case .words(let words):
            // An unquoted `$list` gives its elements, as `for x in $@` does in sh.
            return try words.flatMap { word throws(Diagnostic) -> [JSONValue] in
                let value = try typedValue(of: word)
                if word.loneVariable != nil, case .array(let elements) = value { return elements }
                return [value]
            }
        case .query(let query):
            let (value, missing) = try lookUp(query)
            switch value {
            // An empty list a key no value had made (`.items[*].stauts`, a typo) is nothing to go
            // over, as `.stauts` is; a list that is empty in the answer (`.items[*]` of `[]`) is none.
            case .array(let elements)? where !elements.isEmpty || missing.isEmpty:
                return elements
            case nil, .array?:
                throw failure("nothing to go over: \(missing.isEmpty ? "the query gives no value" : missing)", at: query.span)
            case let other?:
                let written = currentFile.text(query.span.start..<query.span.end).shortened()
                let over = if case .object = other { ["to go over its keys or values: for x in \(written) | keys, for x in \(written) | values"] } else { [String]() }
                throw failure("'for' goes over a list, and this query gives \(JSONWalk.kind(other))", at: query.span,
                              notes: over + ["a list of words works too: for city in Seoul Busan { ... }"])
            }
        }
    }

    private func duration(_ word: Word) throws -> Duration {
        do {
            return try LiteralValue.duration(try expand(word).text)
        } catch let problem as LiteralValue.Problem {
            throw failure(problem.message, at: word.span, notes: problem.notes)
        }
    }

    private func rounds(_ word: Word, allowingZero: Bool) throws -> Int {
        do {
            return try LiteralValue.rounds(try expand(word).text, allowingZero: allowingZero)
        } catch let problem as LiteralValue.Problem {
            throw failure(problem.message, at: word.span, notes: problem.notes)
        }
    }
}
