/// Durations as the language writes them: `250ms`, `2s`, `1m`, at most a day.
enum DurationText {
    /// The longest duration any setting takes; longer ones (`1e300s`) would overflow timers.
    static let maximumSeconds: Double = 86_400

    /// `500ms`, `2s`, `1.5m`, or a bare number of seconds (`10`, `0.5`), as curl's `-m` takes it.
    static func parse(_ text: String) -> Duration? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
        let (digits, seconds) = units.first { text.hasSuffix($0.0) }.map { (text.dropLast($0.0.count), $0.1) } ?? (text[...], 1)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let number = Double(digits),
              number * seconds <= maximumSeconds else { return nil }
        return .milliseconds(Int64((number * seconds * 1000).rounded()))
    }
}
