import Foundation
import Histogram

/// The result of a load run as `--report-json` writes it: the plan, the totals, the latency
/// percentiles (milliseconds), errors by kind, failed `expect`s, each threshold, and each second.
public struct LoadReport: Codable, Sendable {
    public struct Latency: Codable, Sendable {
        public var p50, p90, p95, p99, max, mean: Double
    }

    public struct ThresholdResult: Codable, Sendable {
        public var threshold: String
        /// The run's value: milliseconds for a latency, percent for errors, answered calls a second
        /// for rps; nil when the run has nothing to judge (no answered call, no `expect`), which fails.
        public var value: Double?
        /// `ms`, `%` or `answered calls/s`; with no value, what the run lacked (`no expects`).
        public var unit: String
        public var passed: Bool

        /// `3.12 ms`, `0.5%`, `120.4 answered calls/s`, `no answered calls`.
        public var valueText: String {
            guard let value else { return unit }
            return unit == "%" ? "\(value)%" : "\(value) \(unit)"
        }
    }

    public struct Second: Codable, Sendable {
        public var second: Int
        public var calls: Int
        public var errors: Int
        public var p50, p95, p99: Double
    }

    public var scenario: String
    public var plan: String
    public var seconds: Double
    public var calls: Int
    public var errors: Int
    public var callsPerSecond: Double
    public var dropped: Int
    /// Iterations still running at the end, stopped there; their calls in flight are not in `calls`.
    public var stopped: Int
    public var latency: Latency
    public var errorsByKind: [String: Int]
    public var failedExpectations: [String: Int]
    public var thresholds: [ThresholdResult]
    public var interrupted: Bool
    public var timeline: [Second]

    public init(scenario: String, plan: String, snapshot: LoadStats.Snapshot, seconds: Double, thresholds: [Threshold], interrupted: Bool) {
        func milliseconds(_ micros: UInt64) -> Double { (Double(micros) / 10).rounded() / 100 }
        let histogram = snapshot.latencies
        self.scenario = scenario
        self.plan = plan
        self.seconds = (seconds * 100).rounded() / 100
        calls = snapshot.calls
        errors = snapshot.errors
        callsPerSecond = seconds > 0 ? (Double(snapshot.calls) / seconds * 10).rounded() / 10 : 0
        dropped = snapshot.dropped
        stopped = snapshot.stopped
        latency = Latency(p50: milliseconds(histogram.valueAtPercentile(50)), p90: milliseconds(histogram.valueAtPercentile(90)),
                          p95: milliseconds(histogram.valueAtPercentile(95)), p99: milliseconds(histogram.valueAtPercentile(99)),
                          max: milliseconds(histogram.max), mean: (histogram.mean / 10).rounded() / 100)
        errorsByKind = snapshot.errorsByKind
        failedExpectations = snapshot.failedExpectations
        self.thresholds = thresholds.map { threshold in
            let (value, passed) = threshold.evaluate(snapshot, seconds: seconds)
            guard let value else { return ThresholdResult(threshold: threshold.description, value: nil, unit: threshold.nothingToJudge, passed: passed) }
            let (shown, unit): (Double, String) = switch threshold.metric {
            case .percentile, .maximum, .average: ((value / 10).rounded() / 100, "ms")
            case .errorRate, .checks, .dropped: ((value * 100).rounded() / 100, "%")
            case .rate: ((value * 100).rounded() / 100, "answered calls/s")
            }
            return ThresholdResult(threshold: threshold.description, value: shown, unit: unit, passed: passed)
        }
        self.interrupted = interrupted
        timeline = snapshot.seconds.enumerated().map { index, second in
            Second(second: index + 1, calls: second.calls, errors: second.errors,
                   p50: milliseconds(second.latencies.valueAtPercentile(50)), p95: milliseconds(second.latencies.valueAtPercentile(95)),
                   p99: milliseconds(second.latencies.valueAtPercentile(99)))
        }
    }

    /// Whether every threshold passed.
    public var passed: Bool { thresholds.allSatisfy(\.passed) }

    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}") + "\n"
    }
}
