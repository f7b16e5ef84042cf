import Targets

/// The running state of a ``FuzzCampaign``: the generators, the failures found, the calls spent.
struct RunState {
    let operations: [FuzzOperation]
    let settings: FuzzSettings
    let send: @Sendable (FuzzRequest) async -> FuzzOutcome
    let progress: @Sendable (FuzzProgress) -> Void
    let generators: [CaseGenerator]
    let judges: [Judge]
    var randoms: [SeededRandom]
    /// Each operation's edge cases not yet sent, sent before its random ones.
    var edgeCases: [[FuzzCase]]
    let started = ContinuousClock.now
    var calls = 0
    var callsByOperation: [String: Int] = [:]
    /// Calls a target's server answered 4xx: all of them says the inputs do not fit it.
    var refusedByOperation: [String: Int] = [:]
    /// Calls whose answer was judged: not those cancelled by Ctrl-C.
    var judgedByOperation: [String: Int] = [:]
    /// The checks that judged at least one answer of each target.
    var checkedByOperation: [String: Set<Oracle>] = [:]
    var failures: [FuzzFailure] = []
    var stop: FuzzResult.Stop = .budget
    var nextOperation = 0
    var pacer: Pacer

    init(operations: [FuzzOperation], settings: FuzzSettings, send: @escaping @Sendable (FuzzRequest) async -> FuzzOutcome,
         progress: @escaping @Sendable (FuzzProgress) -> Void) {
        self.operations = operations
        self.settings = settings
        self.send = send
        self.progress = progress
        let generators = operations.map(CaseGenerator.init(operation:))
        self.generators = generators
        judges = operations.map { Judge(operation: $0, checks: settings.checks) }
        var randoms = operations.map { SeededRandom(seed: settings.seed, part: $0.name) }
        var edges: [[FuzzCase]] = []
        for index in generators.indices { edges.append(generators[index].edgeCases(using: &randoms[index])) }
        edgeCases = edges
        self.randoms = randoms
        pacer = Pacer(rate: settings.rate)
    }

    var result: FuzzResult {
        FuzzResult(calls: calls, elapsed: ContinuousClock.now - started,
                   failures: failures.sorted { ($0.operation, $0.oracle, $0.summary) < ($1.operation, $1.oracle, $1.summary) },
                   callsByOperation: callsByOperation, refusedByOperation: refusedByOperation, judgedByOperation: judgedByOperation,
                   checkedByOperation: checkedByOperation, stop: stop,
                   operations: operations.map(\.name), checks: settings.checks)
    }

    /// Whether to send no more: cancelled (Ctrl-C) or out of time.
    mutating func stopping() -> Bool {
        if Task.isCancelled {
            stop = .interrupted
            return true
        }
        if let duration = settings.duration, ContinuousClock.now - started >= duration {
            stop = .time
            return true
        }
        return stop != .budget
    }

    // MARK: - Generated inputs

    /// Generated inputs, round-robin over the operations, `jobs` at once, until `limit` calls in all.
    mutating func generatedCalls(until limit: Int) async {
        await withTaskGroup(of: (Int, FuzzRequest, Expectation, FuzzOutcome).self) { group in
            var inFlight = 0
            while calls < limit, !stopping() {
                let index = nextOperation
                nextOperation = (nextOperation + 1) % operations.count
                let input = edgeCases[index].isEmpty ? generators[index].next(using: &randoms[index]) : edgeCases[index].removeFirst()
                let expectation = generators[index].expectation(of: input)
                let request = FuzzRequest(operation: operations[index].name, input: input)
                await pacer.wait()
                count(request)
                let send = send
                group.addTask { (index, request, expectation, await send(request)) }
                inFlight += 1
                if inFlight >= settings.jobs, let (index, request, expectation, outcome) = await group.next() {
                    inFlight -= 1
                    record(outcome, of: request, operation: index, expectation: expectation)
                }
            }
            for await (index, request, expectation, outcome) in group {
                record(outcome, of: request, operation: index, expectation: expectation)
            }
        }
    }

    mutating func count(_ request: FuzzRequest) {
        calls += 1
        callsByOperation[request.operation, default: 0] += 1
    }

    /// Judges `outcome`; `countedByCall` when ``call(_:limit:)`` made it, which counted it judged.
    mutating func record(_ outcome: FuzzOutcome, of request: FuzzRequest, operation index: Int, expectation: Expectation,
                         countedByCall: Bool = false) {
        guard !Task.isCancelled else { return }
        if !countedByCall { judgedByOperation[request.operation, default: 0] += 1 }
        pacer.heed(outcome)
        if let status = outcome.status, (400...499).contains(status) { refusedByOperation[request.operation, default: 0] += 1 }
        for finding in judges[index].findings(outcome, expectation: expectation, made: &checkedByOperation[request.operation, default: []]) {
            note(finding, operation: request.operation, steps: [request], outcome: outcome, expectation: expectation)
        }
        progress(FuzzProgress(calls: calls, failures: failures.count, elapsed: ContinuousClock.now - started))
    }

    /// Notes a failure, or one more call of a cause noted before; `earlierCurls` are the chain's
    /// calls before this one, as curl commands.
    mutating func note(_ finding: Finding, operation: String, steps: [FuzzRequest], capture: FuzzFailure.Capture? = nil,
                       outcome: FuzzOutcome, expectation: Expectation, earlierCurls: [String] = []) {
        if let index = failures.firstIndex(where: { $0.operation == operation && $0.oracle == finding.oracle && $0.summary == finding.summary }) {
            failures[index].count += 1
            // One call shows a cause better than a chain, whose resource is new each time.
            if failures[index].steps.count > 1, steps.count == 1 {
                failures[index].steps = steps
                failures[index].capture = nil
                failures[index].detail = finding.detail
                failures[index].curl = outcome.curl
                failures[index].status = outcome.status
                failures[index].expectation = expectation
            }
            return
        }
        failures.append(FuzzFailure(operation: operation, oracle: finding.oracle, summary: finding.summary, detail: finding.detail, count: 1,
                                    steps: steps, capture: capture, expectation: expectation, status: outcome.status,
                                    curl: outcome.curl.map { (earlierCurls + [$0]).joined(separator: "\n") }, shrunk: false))
    }

    /// One call made now, counted and paced; nil when the run must stop or the budget is spent.
    mutating func call(_ request: FuzzRequest, limit: Int) async -> FuzzOutcome? {
        guard calls < limit, !stopping() else { return nil }
        await pacer.wait()
        count(request)
        let outcome = await send(request)
        guard !Task.isCancelled else {
            stop = .interrupted
            return nil
        }
        judgedByOperation[request.operation, default: 0] += 1
        pacer.heed(outcome)
        progress(FuzzProgress(calls: calls, failures: failures.count, elapsed: ContinuousClock.now - started))
        return outcome
    }
}

/// Spaces calls to at most `rate` a second, and waits out a `Retry-After` (up to a minute).
struct Pacer {
    let interval: Duration?
    var next = ContinuousClock.now

    init(rate: Double?) {
        // At least one call an hour, at most a million a second: the interval is a whole number of nanoseconds.
        interval = rate.flatMap { $0 > 0 ? Duration.nanoseconds(Int64(1_000_000_000 / min(max($0, 1.0 / 3600), 1_000_000))) : nil }
    }

    mutating func wait() async {
        let now = ContinuousClock.now
        if next > now { try? await Task.sleep(until: next, clock: .continuous) }
        if let interval { next = max(next, now) + interval }
    }

    mutating func heed(_ outcome: FuzzOutcome) {
        guard let status = outcome.status, status == 429 || status == 503,
              let text = outcome.header("Retry-After"), let seconds = Int(text.filter { !$0.isWhitespace }), seconds >= 0 else { return }
        next = max(next, ContinuousClock.now + .seconds(min(seconds, 60)))
    }
}
