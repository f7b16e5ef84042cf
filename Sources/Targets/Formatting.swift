import Foundation

extension Duration {
    /// The duration in milliseconds, with fractions.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// `300 ms` below ten seconds, `12.5 s` above: how messages, logs and retry lines show a duration.
    public var shortDescription: String {
        let ms = milliseconds
        if ms < 10_000 { return String(Int(ms.rounded())) + " ms" }
        return "\((ms / 100).rounded() / 10) s"
    }

    /// Whole milliseconds, saturating at `Int64.max`: a duration a server sent (`Retry-After:
    /// 9999999999999999`) must not trap when it is shown.
    public var saturatingMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (total, overflowAdding) = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return overflowAdding ? .max : total
    }

    /// `250ms`, `2s`, `1.5s`, `2m`: as the language writes a duration (settings, notes).
    public var settingText: String {
        let seconds = components.seconds
        if seconds >= 1_000_000_000 { return "\(seconds)s" }
        let ms = saturatingMilliseconds
        if ms > 0, ms % 60_000 == 0 { return "\(ms / 60_000)m" }
        if ms > 0, ms % 1000 == 0 { return "\(ms / 1000)s" }
        if ms > 1000, ms % 100 == 0 { return "\(Double(ms) / 1000)s" }
        return "\(ms)ms"
    }

    /// A duration from milliseconds, rounded to the nearest one; NaN is zero and anything past
    /// `Int64` milliseconds saturates.
    public static func milliseconds(double ms: Double) -> Duration {
        guard ms.isFinite else { return ms.isNaN ? .zero : .milliseconds(ms < 0 ? Int64.min : Int64.max) }
        guard abs(ms) < 9.2e18 else { return .milliseconds(ms < 0 ? Int64.min : Int64.max) }
        return .milliseconds(Int64(ms.rounded()))
    }

    /// Seconds as a plain decimal, as `curl --max-time` takes them: `0.3`, `10`.
    var secondsText: String {
        let seconds = milliseconds / 1000
        return seconds == seconds.rounded() && abs(seconds) < 9e18 ? String(Int(seconds)) : String(seconds)
    }
}

/// Sizes as people read them: `412 B`, `3.1 KB`, `2.0 MB`, in log lines and the shell's status line.
public enum ByteText {
    /// `count` bytes in B, KB or MB (units of 1024), one decimal above a kilobyte.
    public static func text(_ count: Int) -> String {
        if count < 1024 { return String(count) + " B" }
        if count < 1024 * 1024 { return String(format: "%.1f KB", Double(count) / 1024) }
        return String(format: "%.1f MB", Double(count) / 1024 / 1024)
    }
}
