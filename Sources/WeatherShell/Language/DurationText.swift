/// Durations as the language writes them: `250ms`, `2s`, `1m`, at most a day.
enum DurationText {
    /// The longest duration any setting takes; longer ones (`1e300s`) would overflow timers.
    static let maximumSeconds: Double = 86_400

    /// `500ms`, `2s`, `1.5m`, `1h`, pieces from the largest unit down as k6 and Locust take them
    /// (`1h30m`, `1m30s`), or a bare number of seconds (`10`, `0.5`), as curl's `-m` takes it.
    static func parse(_ text: String) -> Duration? {
        func number(_ digits: Substring) -> Double? {
            digits.isEmpty || !digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) ? nil : Double(digits)
        }
        // "ms" before "m", so that the longer unit is read.
        let units: [(name: String, seconds: Double)] = [("ms", 0.001), ("h", 3600), ("m", 60), ("s", 1)]
        guard !text.isEmpty else { return nil }
        var total: Double
        if let seconds = number(text[...]) {
            total = seconds
        } else {
            total = 0
            var rest = text[...]
            var largest = Double.infinity
            while !rest.isEmpty {
                let digits = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
                guard let value = number(digits) else { return nil }
                rest = rest.dropFirst(digits.count)
                guard let unit = units.first(where: { rest.hasPrefix($0.name) }), unit.seconds < largest else { return nil }
                rest = rest.dropFirst(unit.name.count)
                largest = unit.seconds
                total += value * unit.seconds
            }
        }
        guard total <= maximumSeconds else { return nil }
        return .milliseconds(Int64((total * 1000).rounded()))
    }
}
