/// A pass mark for a load run, as k6 writes them: `p95<200ms`, `p99<=1s`, `max<2s`,
/// `avg<100ms`, `errors<1%`, `rps>=100`, `dropped<1%`. A run that misses one fails (exit 4).
public struct Threshold: Sendable, Equatable, CustomStringConvertible {
    public enum Metric: Sendable, Equatable {
        /// A latency: a percentile (`p50`...`p99.9`), `max` or `avg`, in microseconds.
        case percentile(Double)
        case maximum
        case average
        /// The share of calls that failed, in percent.
        case errorRate
        /// Answered calls a second over the run: calls that got a status back (a 500 too), not
        /// refused connections, timeouts or steps that failed without a call.
        case rate
        /// The share of `expect`s that held, in percent.
        case checks
        /// The share of the open model's arrivals that were dropped (no free connection), in percent.
        case dropped
    }

    public enum Comparison: String, Sendable {
        case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    public var metric: Metric
    public var comparison: Comparison
    /// Microseconds for a latency, percent for `errors`, calls a second for `rps`.
    public var limit: Double
    /// As written.
    public var description: String

    /// Reads `p95<200ms`; the error says what a threshold looks like.
    public init(_ text: String) throws(ThresholdError) {
        let compact = text.filter { !$0.isWhitespace }
        guard let operatorStart = compact.firstIndex(where: { "<>".contains($0) }) else { throw ThresholdError(text) }
        let name = String(compact[..<operatorStart]).lowercased()
        var rest = compact[operatorStart...]
        let symbol = rest.hasPrefix("<=") ? "<=" : rest.hasPrefix(">=") ? ">=" : String(rest.prefix(1))
        rest = rest.dropFirst(symbol.count)
        guard let comparison = Comparison(rawValue: symbol) else { throw ThresholdError(text) }
        switch name {
        case "errors", "error-rate", "error_rate", "checks", "dropped":
            guard rest.hasSuffix("%"), let percent = Double(rest.dropLast()), percent >= 0, percent <= 100 else { throw ThresholdError(text) }
            metric = name == "checks" ? .checks : name == "dropped" ? .dropped : .errorRate
            limit = percent
        case "rps":
            guard let value = Double(rest.hasSuffix("/s") ? rest.dropLast(2) : rest), value >= 0 else { throw ThresholdError(text) }
            metric = .rate
            limit = value
        default:
            if name == "max" { metric = .maximum }
            else if name == "avg" || name == "mean" { metric = .average }
            else if name.hasPrefix("p"), let percentile = Double(name.dropFirst()), percentile > 0, percentile <= 100 { metric = .percentile(percentile) }
            else { throw ThresholdError(text) }
            guard let micros = Self.microseconds(String(rest)) else { throw ThresholdError(text) }
            limit = micros
        }
        self.comparison = comparison
        description = compact
    }

    /// `200ms`, `1.5s`, `500us` as microseconds.
    static func microseconds(_ text: String) -> Double? {
        for (suffix, scale) in [("us", 1.0), ("µs", 1.0), ("ms", 1000.0), ("s", 1_000_000.0), ("m", 60_000_000.0)] where text.hasSuffix(suffix) {
            guard let value = Double(text.dropLast(suffix.count)), value >= 0 else { return nil }
            return value * scale
        }
        return nil
    }

    /// What a run lacks for this mark to have a value: `no answered calls` for a latency or a rate,
    /// `no calls` for errors, `no expects` for checks, `no arrivals` for dropped.
    public var nothingToJudge: String {
        switch metric {
        case .percentile, .maximum, .average, .rate: "no answered calls"
        case .errorRate: "no calls"
        case .checks: "no expects"
        case .dropped: "no arrivals"
        }
    }

    /// The run's value of the metric and whether it passes.
    public func evaluate(_ snapshot: LoadStats.Snapshot, seconds: Double) -> (value: Double?, passed: Bool) {
        let checks = snapshot.passedChecks + snapshot.failedChecks
        // A run with no answered call has no latency or rate to judge, one with no call no error
        // rate, one with no `expect` no share of checks that held: none passes such a mark.
        let answered = snapshot.latencies.totalCount
        let arrivals = snapshot.arrivals + snapshot.dropped
        let nothingToJudge = switch metric {
        case .percentile, .maximum, .average, .rate: answered == 0
        case .errorRate: snapshot.calls == 0
        case .checks: checks == 0
        case .dropped: arrivals == 0
        }
        if nothingToJudge { return (nil, false) }
        let value: Double = switch metric {
        case .percentile(let percentile): Double(snapshot.latencies.valueAtPercentile(percentile))
        case .maximum: Double(snapshot.latencies.max)
        case .average: snapshot.latencies.mean
        case .errorRate: Double(snapshot.errors) * 100 / Double(snapshot.calls)
        case .rate: seconds > 0 ? Double(answered) / seconds : 0
        case .checks: Double(snapshot.passedChecks) * 100 / Double(checks)
        case .dropped: Double(snapshot.dropped) * 100 / Double(arrivals)
        }
        let passed = switch comparison {
        case .less: value < limit
        case .lessOrEqual: value <= limit
        case .greater: value > limit
        case .greaterOrEqual: value >= limit
        }
        return (value, passed)
    }
}

/// A threshold that cannot be read.
public struct ThresholdError: Error, Sendable, CustomStringConvertible {
    public let text: String
    init(_ text: String) { self.text = text }
    public var description: String {
        "'\(text)' is not a threshold: write p95<200ms, p99<=1s, max<2s, avg<100ms (a unit: us, ms, s, m), errors<1%, checks>=99%, rps>=100 or dropped<1%"
    }
}
