import Histogram

/// The text of a load run: the live view at a terminal (redrawn each second), a plain line per
/// second in a pipe, and the summary at the end.
public enum LoadView {
    /// Latency buckets of the small histogram, in microseconds: up to each bound.
    static let buckets: [(label: String, upTo: UInt64)] = [
        ("< 1 ms", 999), ("1-2 ms", 1_999), ("2-5 ms", 4_999), ("5-10 ms", 9_999), ("10-20 ms", 19_999), ("20-50 ms", 49_999),
        ("50-100 ms", 99_999), ("100-200 ms", 199_999), ("200-500 ms", 499_999), ("0.5-1 s", 999_999), (">= 1 s", LoadStats.highest),
    ]

    /// `1.2 ms`, `340 µs`, `2.50 s`.
    public static func latency(_ micros: Double) -> String {
        if micros < 1000 { return "\(Int(micros.rounded())) µs" }
        if micros < 1_000_000 { return formatted(micros / 1000, digits: micros < 10_000 ? 2 : 1) + " ms" }
        return formatted(micros / 1_000_000, digits: 2) + " s"
    }

    /// `value` with `digits` decimals (one or two).
    public static func formatted(_ value: Double, digits: Int) -> String {
        let scale = digits == 2 ? 100.0 : 10.0
        let rounded = (value * scale).rounded() / scale
        var text = "\(rounded)"
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        }
        return text
    }

    /// `p50 1.2 ms  p90 ...  max 40 ms`.
    public static func percentiles(_ histogram: Histogram<UInt64>) -> String {
        guard histogram.totalCount > 0 else { return "no answered calls yet" }
        let marks = [50.0, 90, 95, 99].map { "p\(Int($0)) \(latency(Double(histogram.valueAtPercentile($0))))" }
        return (marks + ["max \(latency(Double(histogram.max)))"]).joined(separator: "  ")
    }

    /// The live view's lines.
    public static func live(_ snapshot: LoadStats.Snapshot, elapsed: Double, duration: Double, plan: String) -> [String] {
        let seconds = Int(elapsed)
        let last = snapshot.seconds.count >= 2 ? snapshot.seconds[snapshot.seconds.count - 2] : snapshot.seconds.last
        let width = 30
        let done = duration > 0 ? min(width, Int(Double(width) * elapsed / duration)) : 0
        var lines = ["wsh load  \(seconds)s of \(Int(duration))s  \(plan)  [" + String(repeating: "#", count: done) + String(repeating: ".", count: width - done) + "]"]
        let rate = elapsed > 0 ? Int(Double(snapshot.calls) / elapsed) : 0
        let errorShare = snapshot.calls == 0 ? 0 : Double(snapshot.errors) * 100 / Double(snapshot.calls)
        lines.append("calls \(snapshot.calls)  \(last?.calls ?? 0)/s now, \(rate)/s over the run  errors \(snapshot.errors) (\(formatted(errorShare, digits: 2))%)"
                     + (snapshot.dropped > 0 ? "  dropped \(snapshot.dropped)" : ""))
        lines.append("latency  " + percentiles(snapshot.latencies))
        lines += histogramLines(snapshot.latencies)
        lines += problemLines(snapshot)
        return lines
    }

    /// The small histogram: one bar a bucket that has calls.
    static func histogramLines(_ histogram: Histogram<UInt64>) -> [String] {
        guard histogram.totalCount > 0 else { return [] }
        var lower: UInt64 = 0
        var counts: [(String, UInt64)] = []
        for bucket in buckets {
            counts.append((bucket.label, histogram.count(within: lower...bucket.upTo)))
            lower = bucket.upTo + 1
        }
        let largest = max(1, counts.map(\.1).max() ?? 1)
        return counts.filter { $0.1 > 0 }.map { label, count in
            let bar = String(repeating: "#", count: max(1, Int(40 * count / largest)))
            return "  " + label + String(repeating: " ", count: max(1, 11 - label.count)) + bar + " \(count)"
        }
    }

    static func problemLines(_ snapshot: LoadStats.Snapshot) -> [String] {
        var lines: [String] = []
        if !snapshot.errorsByKind.isEmpty {
            lines.append("errors: " + snapshot.errorsByKind.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
        }
        for (place, count) in snapshot.failedExpectations.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }).prefix(5) {
            lines.append("failed: \(place) ×\(count)")
        }
        return lines
    }

    /// The plain line for one second, in a pipe.
    public static func plain(_ snapshot: LoadStats.Snapshot, second: Int) -> String {
        let this = second < snapshot.seconds.count ? snapshot.seconds[second] : LoadStats.Second()
        return "\(second + 1)s: \(this.calls) calls, \(this.errors) errors, " + percentiles(this.latencies)
    }
}
