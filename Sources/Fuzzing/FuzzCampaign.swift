import Targets

/// How a fuzz run is bounded and what it checks.
public struct FuzzSettings: Sendable {
    /// Calls in all: generated inputs, stateful chains and shrinking.
    public var calls: Int
    /// The seed every input follows from.
    public var seed: UInt64
    /// Stop after this long, whatever is left of `calls`.
    public var duration: Duration?
    /// Calls in flight at once.
    public var jobs: Int
    /// At most this many calls a second.
    public var rate: Double?
    /// Chain calls: a POST's created resource fetched, deleted and fetched again.
    public var stateful: Bool
    /// The checks made of each answer.
    public var checks: Set<Oracle>
    /// Calls one failure's shrinking may take.
    public var shrinkCalls: Int

    /// Settings: `calls` in all from `seed`, one call at a time, every check but none stateful unless asked.
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
    /// The input sent (empty for a Location fetched).
    public var input: FuzzCase
    /// A URL called with GET instead of the target (a 201's Location).
    public var url: String?

    /// A call of `operation` with `input`, or a GET of `url`.
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
        /// The identifier, as the answer gave it.
        public var value: String
        /// `.id`, `header Location | split "/" | last`.
        public var query: String
    }

    /// The target it concerns.
    public var operation: String
    /// The check that failed.
    public var oracle: Oracle
    /// What went wrong, the same for each call of this cause: `500`, `status 418`, `200 /email: string`.
    public var summary: String
    /// The particulars of the call kept (the smallest one, when shrunk).
    public var detail: String
    /// How many calls showed it.
    public var count: Int
    /// The calls that show it: one, or a stateful chain.
    public var steps: [FuzzRequest]
    /// The chain's created id, which its later calls use.
    public var capture: Capture?
    /// Why the declaration refuses the input, for `invalid-accepted`.
    public var expectation: Expectation
    /// The status of the kept call's answer; nil when none came.
    public var status: Int?
    /// The last call as curl writes it, secrets masked.
    public var curl: String?
    /// Whether shrinking made the kept call smaller than the first one that failed.
    public var shrunk: Bool
}

/// What a fuzz run found and spent.
public struct FuzzResult: Sendable {
    /// Why a run stopped: its calls spent, its time up, or Ctrl-C.
    public enum Stop: String, Sendable {
        case budget, time, interrupted
    }

    /// Calls made in all.
    public var calls: Int
    /// How long the run took.
    public var elapsed: Duration
    /// By target, then check.
    public var failures: [FuzzFailure]
    /// Calls made of each target.
    public var callsByOperation: [String: Int]
    /// Calls of a target its server answered 4xx (generated inputs; not the chains' or shrinking's).
    public var refusedByOperation: [String: Int]
    /// Calls of each target whose answer was judged: a call cancelled by Ctrl-C was made, not judged.
    public var judgedByOperation: [String: Int]
    /// The checks that judged at least one answer of each target: a check that applies to none
    /// (`invalid-accepted` where no input was invalid, `schema` where nothing is declared) is not made.
    public var checkedByOperation: [String: Set<Oracle>]
    /// Why the run stopped.
    public var stop: Stop
    /// The targets fuzzed, in order.
    public var operations: [String]
    public var checks: Set<Oracle>
}

/// Where a run stands, for the progress line.
public struct FuzzProgress: Sendable {
    /// Calls made so far.
    public var calls: Int
    /// Causes of failure found so far.
    public var failures: Int
    /// Time since the run started.
    public var elapsed: Duration
}

/// A fuzz run over some operations: generated inputs sent round-robin (`jobs` at once, paced by
/// `rate` and any `Retry-After`), then the stateful chains, then each failure shrunk to the
/// smallest input that still fails the same way, then generated inputs again with what is left
/// of the budget. Everything but timing follows from the seed.
public struct FuzzCampaign: Sendable {
    /// The operations fuzzed, round-robin in this order.
    public let operations: [FuzzOperation]
    /// The budget, seed and checks.
    public let settings: FuzzSettings

    /// A run over `operations` with `settings`; nothing is sent until ``run(send:progress:)``.
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
