import Foundation
import Histogram

extension LoadStats.Snapshot {
    /// The snapshot as one line of JSON: how a worker process of `wsh load --processes` sends
    /// what it measured to the run that started it. Each histogram goes as its recorded values
    /// and their counts, and the run's whole histogram not at all: it is the seconds' sum.
    public var line: String {
        let line = Line(calls: calls, errors: errors, errorsByKind: errorsByKind, failedExpectations: failedExpectations,
                        dropped: dropped, arrivals: arrivals, stopped: stopped, passedChecks: passedChecks, failedChecks: failedChecks, firstSecond: firstSecond,
                        seconds: seconds.map { Line.Second(calls: $0.calls, errors: $0.errors, latencies: Self.counts($0.latencies)) })
        guard let data = try? JSONEncoder().encode(line) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The snapshot a ``line`` holds; nil when the bytes are not one.
    public init?(line bytes: some Collection<UInt8>) {
        guard let line = try? JSONDecoder().decode(Line.self, from: Data(bytes)), line.firstSecond >= 0 else { return nil }
        self.init()
        calls = line.calls
        errors = line.errors
        errorsByKind = line.errorsByKind
        failedExpectations = line.failedExpectations
        dropped = line.dropped
        arrivals = line.arrivals
        stopped = line.stopped
        passedChecks = line.passedChecks
        failedChecks = line.failedChecks
        firstSecond = line.firstSecond
        seconds = line.seconds.map { sent in
            var second = LoadStats.Second()
            second.calls = sent.calls
            second.errors = sent.errors
            for pair in sent.latencies where pair.count == 2 {
                _ = second.latencies.record(pair[0], count: pair[1])
            }
            return second
        }
        for second in seconds { latencies.add(second.latencies) }
    }

    private static func counts(_ histogram: Histogram<UInt64>) -> [[UInt64]] {
        histogram.recordedValues().map { [histogram.lowestEquivalentForValue($0.value), $0.count] }
    }

    private struct Line: Codable {
        struct Second: Codable {
            var calls: Int
            var errors: Int
            /// Pairs of a value and how many calls took it, in microseconds.
            var latencies: [[UInt64]]
        }
        var calls: Int
        var errors: Int
        var errorsByKind: [String: Int]
        var failedExpectations: [String: Int]
        var dropped: Int
        var arrivals: Int
        var stopped: Int
        var passedChecks: Int
        var failedChecks: Int
        var firstSecond: Int
        var seconds: [Second]
    }
}
