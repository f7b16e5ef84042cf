import Fuzzing
import Synchronization
import Targets
import Testing
import TestSupport

/// The campaign's logic against a server written as a function (the shell's sending of real
/// calls is tested end to end, against the planted server): what it finds, how it shrinks, that
/// it repeats from the seed, and how it keeps to its budget.
@Suite struct CampaignTests {
    static let search = FuzzOperation(
        name: "search", method: "GET", path: "/search",
        parameters: [.init(name: "q", location: .query, required: true, schema: CaseGeneratorTests.schema(#"{"type": "string", "maxLength": 300}"#)),
                     .init(name: "page", location: .query, required: false, schema: CaseGeneratorTests.schema(#"{"type": "integer"}"#)),
                     .init(name: "lang", location: .query, required: false, schema: CaseGeneratorTests.schema(#"{"enum": ["en", "fr"]}"#))],
        answers: [.init(status: "200", content: [.init(mediaType: "application/json", schema: CaseGeneratorTests.schema(#"{"type": "object", "required": ["hits"]}"#))]),
                  .init(status: "400", content: [.init(mediaType: "application/json", schema: nil)])],
        schemasAreContract: true)

    /// A server with three defects: a 500 on a long q, answers without `hits` past page 5, and
    /// a 200 for any lang (an invalid one too). Each calls `log` with what it was sent.
    static func server(_ request: FuzzRequest, log: RequestLog) -> FuzzOutcome {
        var query: [String: String] = [:]
        for value in request.input.parameters { query[value.name] = FuzzCase.texts(value.value, in: value.location).first ?? "" }
        log.lines.withLock { $0.append(query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")) }
        let json = [Header(name: "Content-Type", value: "application/json")]
        guard let q = query["q"] else { return FuzzOutcome(status: 400, headers: json, body: Array(#"{"error": "q"}"#.utf8)) }
        if q.count > 100 { return FuzzOutcome(status: 500, body: Array("boom".utf8)) }
        if let page = query["page"].flatMap({ Int($0) }), page > 5 { return FuzzOutcome(status: 200, headers: json, body: Array("{}".utf8)) }
        return FuzzOutcome(status: 200, headers: json, body: Array(#"{"hits": []}"#.utf8))
    }

    static func run(seed: UInt64, calls: Int = 300) async -> (FuzzResult, [String]) {
        let log = RequestLog()
        let campaign = FuzzCampaign(operations: [search], settings: FuzzSettings(calls: calls, seed: seed))
        let result = await campaign.run(send: { server($0, log: log) })
        return (result, log.lines.withLock { $0 })
    }

    @Test func findsEachDefectOnceAndShrinksIt() async throws {
        let seed = SeededGenerator.seed()
        let (result, log) = await Self.run(seed: seed)
        #expect(result.calls == 300 && log.count == 300, "seed \(seed)")
        let found = result.failures.map { "\($0.oracle.rawValue) \($0.summary)" }
        #expect(found.contains("server-error 500"), "seed \(seed): \(found)")
        #expect(found.contains("schema 200 /: a property \"hits\""), "seed \(seed): \(found)")
        #expect(found.contains("invalid-accepted 200"), "seed \(seed): \(found)")
        let crash = try #require(result.failures.first { $0.oracle == .serverError })
        // Shrunk: the optional parameters left out, q no longer than it must be to fail.
        let input = try #require(crash.steps.first?.input)
        #expect(input.parameters.map(\.name) == ["q"], "seed \(seed): \(input)")
        #expect((101...202).contains(input.parameters[0].value.string?.count ?? 0), "seed \(seed): \(input)")
        #expect(crash.count >= 1 && crash.shrunk, "seed \(seed)")
    }

    /// Under `--stateful`, a chain's create call is judged once: it was counted twice (by the
    /// call and by its judging), so a create that was always refused said "no failures in 2N calls"
    /// and never "answered 4xx".
    @Test func aChainsCreateCallIsJudgedOnce() async {
        let create = FuzzOperation(name: "create", method: "POST", path: "/items",
                                   parameters: [.init(name: "q", location: .query, required: true, schema: CaseGeneratorTests.schema(#"{"type": "string"}"#))],
                                   answers: [.init(status: "201", content: [.init(mediaType: "application/json", schema: nil)])])
        let read = FuzzOperation(name: "read", method: "GET", path: "/items/{id}",
                                 parameters: [.init(name: "id", location: .path, required: true, schema: CaseGeneratorTests.schema(#"{"type": "integer"}"#))],
                                 answers: [.init(status: "200", content: [.init(mediaType: "application/json", schema: nil)])])
        let campaign = FuzzCampaign(operations: [create, read], settings: FuzzSettings(calls: 60, seed: 5, stateful: true))
        let result = await campaign.run(send: { _ in FuzzOutcome(status: 422, headers: [], body: []) })
        for name in ["create", "read"] {
            #expect((result.judgedByOperation[name] ?? 0) <= (result.callsByOperation[name] ?? 0),
                    "\(name): judged \(result.judgedByOperation), calls \(result.callsByOperation)")
        }
        #expect((result.judgedByOperation["create"] ?? 0) > 0)
    }

    /// The same seed sends the same calls in the same order (one job), and finds the same.
    @Test func theSameSeedRepeatsTheRun() async {
        let seed = SeededGenerator.seed()
        let (first, firstLog) = await Self.run(seed: seed, calls: 120)
        let (second, secondLog) = await Self.run(seed: seed, calls: 120)
        #expect(firstLog == secondLog, "seed \(seed)")
        #expect(first.failures.map(\.summary) == second.failures.map(\.summary), "seed \(seed)")
    }

    /// Several jobs at once spend the same budget, and a cancelled run stops with what it found.
    @Test func jobsKeepToTheBudgetAndCancellingStops() async {
        let log = RequestLog()
        let campaign = FuzzCampaign(operations: [Self.search], settings: FuzzSettings(calls: 200, seed: 3, jobs: 8))
        let result = await campaign.run(send: { Self.server($0, log: log) })
        #expect(result.calls == 200 && log.lines.withLock { $0.count } == 200)

        let counted = RequestLog()
        let (fifty, signal) = AsyncStream<Void>.makeStream()
        let task = Task {
            await FuzzCampaign(operations: [Self.search], settings: FuzzSettings(calls: 100_000, seed: 3)).run(send: { request in
                let outcome = Self.server(request, log: counted)
                if counted.lines.withLock({ $0.count }) == 50 { signal.yield() }
                return outcome
            })
        }
        var waiting = fifty.makeAsyncIterator()
        _ = await waiting.next()
        task.cancel()
        let stopped = await task.value
        #expect(stopped.stop == FuzzResult.Stop.interrupted)
        #expect(stopped.calls < 100_000)
    }
}

/// What the function server was sent, in order.
final class RequestLog: Sendable {
    let lines = Mutex<[String]>([])
}
