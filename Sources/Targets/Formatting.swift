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

    /// Seconds as a plain decimal, as `curl --max-time` takes them: `0.3`, `10`.
    var secondsText: String {
        let seconds = milliseconds / 1000
        return seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// A byte count for people: `512 bytes`, `64 KB`, `50 MB` (units of 1024).
func byteCountText(_ count: Int) -> String {
    if count >= 1 << 20, count % (1 << 20) == 0 { return "\(count >> 20) MB" }
    if count >= 1 << 10, count % (1 << 10) == 0 { return "\(count >> 10) KB" }
    return count == 1 ? "1 byte" : "\(count) bytes"
}
