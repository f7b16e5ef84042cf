import Targets

/// How a fuzz run is bounded and what it checks.
public struct FuzzSettings: Sendable {
    /// Calls in all: generated inputs, stateful chains and shrinking.
    public var calls: Int
    public var seed: UInt64
    /// Stop after this long, whatever is left of `calls`.
    public var duration: Duration?
    /// Calls in flight at once.
    public var jobs: Int
    /// At most this many calls a second.
    public var rate: Double?
    /// Chain calls: a POST's created resource fetched, deleted and fetched again.
    public var stateful: Bool
    public var checks: Set<Oracle>
    /// Calls one failure's shrinking may take.
    public var shrinkCalls: Int

    public init(calls: Int, seed: UInt64, duration: Duration? = nil, jobs: Int = 1, rate: Double? = nil, stateful: Bool = false,
                checks: Set<Oracle> = Set(Oracle.allCases), shrinkCalls: Int = 40) {
        self.calls = calls
        self.seed = seed
        self.duration = duration
        self.jobs = max(1, jobs)
        self.rate = rate
        self.stateful = stateful
        self.checks = checks
        self.shrinkCalls = shrinkCalls
    }
}

/// One call a fuzz run makes.
public struct FuzzRequest: Sendable, Equatable {
    /// The target called.
    public var operation: String
    public var input: FuzzCase
    /// A URL called with GET instead of the target (a 201's Location).
    public var url: String?

    public init(operation: String, input: FuzzCase, url: String? = nil) {
        self.operation = operation
        self.input = input
        self.url = url
    }
}

/// One cause of failure, however many calls showed it.
public struct FuzzFailure: Sendable {
    /// The value a chain's first call created, and the query that reads it from that call's answer.
    public struct Capture: Sendable, Equatable {
        public var value: String
        /// `.id`, `header Location | split "/" | last`.
        public var query: String
    }

    public var operation: String
    public var oracle: Oracle
    public var summary: String
    /// The particulars of the call kept (the smallest one, when shrunk).
    public var detail: String
    public var count: Int
    /// The calls that show it: one, or a stateful chain.
    public var steps: [FuzzRequest]
    public var capture: Capture?
    /// Why the declaration refuses the input, for `invalid-accepted`.
    public var expectation: Expectation
    public var status: Int?
    /// The last call as curl writes it, secrets masked.
    public var curl: String?
    /// Whether shrinking made the kept call smaller than the first one that failed.
    public var shrunk: Bool
}

/// What a fuzz run found and spent.
public struct FuzzResult: Sendable {
    public enum Stop: String, Sendable {
        case budget, time, interrupted
    }

    public var calls: Int
    public var elapsed: Duration
    /// By target, then check.
    public var failures: [FuzzFailure]
    public var callsByOperation: [String: Int]
    /// Calls of a target its server answered 4xx (generated inputs; not the chains' or shrinking's).
    public var refusedByOperation: [String: Int]
    public var stop: Stop
    public var operations: [String]
    public var checks: Set<Oracle>
}

/// Where a run stands, for the progress line.
public struct FuzzProgress: Sendable {
    public var calls: Int
    public var failures: Int
    public var elapsed: Duration
}

/// A fuzz run over some operations: generated inputs sent round-robin (`jobs` at once, paced by
/// `rate` and any `Retry-After`), then the stateful chains, then each failure shrunk to the
/// smallest input that still fails the same way, then generated inputs again with what is left
/// of the budget. Everything but timing follows from the seed.
public struct FuzzCampaign: Sendable {
    public let operations: [FuzzOperation]
    public let settings: FuzzSettings

    public init(operations: [FuzzOperation], settings: FuzzSettings) {
        self.operations = operations
        self.settings = settings
    }

    /// Runs until the budget is spent, the time is up or the task is cancelled; `send` makes one
    /// call, `progress` hears after each.
    public func run(send: @escaping @Sendable (FuzzRequest) async -> FuzzOutcome,
                    progress: @escaping @Sendable (FuzzProgress) -> Void = { _ in }) async -> FuzzResult {
        var state = RunState(operations: operations, settings: settings, send: send, progress: progress)
        guard !operations.isEmpty else { return state.result }
        let calls = settings.calls
        let stateful = settings.stateful ? calls / 5 : 0
        let shrinking = calls / 10
        await state.generatedCalls(until: calls - stateful - shrinking)
        if settings.stateful { await state.chains(until: calls - shrinking) }
        await state.shrinkFailures(until: calls)
        await state.generatedCalls(until: calls)
        return state.result
    }
}
