import Checks
import Targets

/// Numbers within a schema's `minimum`/`maximum` (and their exclusive forms), as JSON literals.
struct NumberSampler {
    var lower: Double?
    var upper: Double?
    var multipleOf: Double?
    let style: SchemaSampler.Style

    init(schema: JSONValue, style: SchemaSampler.Style) {
        self.style = style
        // A bound too large for a Double (1e400) says nothing a number here can meet: left out.
        func finite(_ key: String) -> Double? { schema[key]?.double.flatMap { $0.isFinite ? $0 : nil } }
        lower = finite("minimum")
        upper = finite("maximum")
        // 3.1 writes the exclusive bound as a number, 3.0 as a flag beside minimum/maximum; with
        // both, the tighter one holds.
        if let bound = finite("exclusiveMinimum") { lower = max(lower ?? -.infinity, bound.nextUp) }
        else if schema["exclusiveMinimum"] == .bool(true), let bound = lower { lower = bound.nextUp }
        if let bound = finite("exclusiveMaximum") { upper = min(upper ?? .infinity, bound.nextDown) }
        else if schema["exclusiveMaximum"] == .bool(true), let bound = upper { upper = bound.nextDown }
        multipleOf = finite("multipleOf").flatMap { $0 > 0 ? $0 : nil }
    }

    /// Far enough inside `Int`'s range that no conversion traps, and exact as a Double.
    static let limit = 9_007_199_254_740_991.0

    func integer(using generator: inout some RandomNumberGenerator) -> String {
        let low = max(-Self.limit, (lower ?? -Self.limit).rounded(.up))
        let high = min(Self.limit, (upper ?? Self.limit).rounded(.down))
        guard low <= high else { return Self.literal(low) }
        let plainLow = lower != nil ? low : max(low, 0), plainHigh = min(high, plainLow + 100)
        var candidate: Double = switch style {
        case .plain: Double.random(in: min(plainLow, high)...max(min(plainLow, high), plainHigh), using: &generator).rounded(.down)
        // Small numbers twice over: the ids and counts a real API has.
        case .edges: [low, high, 0, -1, 1, 2_147_483_647, -2_147_483_648, Self.limit, Double(Int.random(in: -1000...1000, using: &generator)),
                      Double(Int.random(in: 2...12, using: &generator)), Double(Int.random(in: 2...12, using: &generator))]
            .randomElement(using: &generator) ?? 0
        }
        candidate = min(max(candidate, low), high)
        if let step = multipleOf, step.rounded() == step {
            candidate = (candidate / step).rounded(.down) * step
            if candidate < low { candidate += step }
        }
        return String(Int(min(max(candidate, -Self.limit), Self.limit)))
    }

    func number(using generator: inout some RandomNumberGenerator) -> String {
        let low = max(-1e15, lower ?? -1e15), high = min(1e15, upper ?? 1e15)
        guard low <= high else { return Self.literal(low) }
        let plainLow = lower != nil ? low : max(low, 0), plainHigh = min(high, plainLow + 100)
        var candidate: Double = switch style {
        case .plain: (Double.random(in: min(plainLow, high)...max(min(plainLow, high), plainHigh), using: &generator) * 100).rounded() / 100
        case .edges: [low, high, 0, -0.5, 0.1, 1e10, -1e10, Double.random(in: -1000...1000, using: &generator)].randomElement(using: &generator) ?? 0
        }
        candidate = min(max(candidate, low), high)
        if let step = multipleOf { candidate = max(low, (candidate / step).rounded(.down) * step) }
        return Self.literal(candidate)
    }

    /// A whole number without a fraction, else Swift's shortest text that reads back the same.
    static func literal(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) <= limit { return String(Int(value)) }
        return "\(value)"
    }
}

/// Strings within a schema's `minLength`/`maxLength`, matching its `pattern`, or in its `format`.
struct StringSampler {
    let minimum: Int
    let maximum: Int?
    let pattern: String?
    let format: String?
    let style: SchemaSampler.Style

    init(schema: JSONValue, style: SchemaSampler.Style) {
        self.style = style
        minimum = max(0, min(schema["minLength"]?.int ?? 0, 100_000))
        maximum = schema["maxLength"]?.int.map { max(0, min($0, 100_000)) }
        pattern = schema["pattern"]?.string
        format = schema["format"]?.string
    }

    /// Strings a server is likely to mishandle: Unicode of several kinds, percent-encodings,
    /// path and markup characters, words that read as other types.
    static let unusual = ["é", "ü", "日本語", "🙂", "\u{202E}abc", "a\u{0301}", "\u{200B}", "Ω≈ç√", "𝔘𝔫𝔦",
                          "%", "%25", "%zz", "%00", "a%2Fb", "../", "'", "\"", "<b>", "{}", "a b", " ", "\\",
                          "null", "0", "-1", "true", "#", "?", "&", "+", "=", ";", "\t"]
    static let letters = Array("abcdefghijklmnopqrstuvwxyz")

    func string(using generator: inout some RandomNumberGenerator) -> String {
        if let format, let text = formatted(format, using: &generator), text.unicodeScalars.count >= minimum,
           text.unicodeScalars.count <= (maximum ?? Int.max) {
            return text
        }
        if let pattern, let sampler = try? RegexSampler(pattern), let regex = try? LinearRegex(pattern) {
            for _ in 0..<16 {
                let text = sampler.sample(using: &generator)
                let length = text.unicodeScalars.count
                if length >= minimum, length <= (maximum ?? Int.max), (try? regex.matches(text)) == true { return text }
            }
        }
        let text: String
        switch style {
        case .plain:
            text = word(length: Int.random(in: 4...10, using: &generator), using: &generator)
        case .edges:
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: text = ""
            case 1: text = word(length: Int.random(in: 1...12, using: &generator), using: &generator)
            case 2: text = word(length: maximum ?? ([101, 257, 1000].randomElement(using: &generator) ?? 101), using: &generator)
            case 3, 4: text = (0..<Int.random(in: 1...3, using: &generator)).map { _ in Self.unusual.randomElement(using: &generator) ?? "" }.joined()
            default: text = word(length: 3, using: &generator) + (Self.unusual.randomElement(using: &generator) ?? "")
            }
        }
        return fitted(text)
    }

    /// `text` cut or padded with `a` to the schema's length bounds.
    func fitted(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        if let maximum, scalars.count > maximum { scalars = Array(scalars.prefix(maximum)) }
        if scalars.count < minimum { scalars += Array(repeating: "a", count: minimum - scalars.count) }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    private func word(length: Int, using generator: inout some RandomNumberGenerator) -> String {
        String((0..<max(0, min(length, 100_000))).map { _ in Self.letters.randomElement(using: &generator) ?? "a" })
    }

    private func formatted(_ format: String, using generator: inout some RandomNumberGenerator) -> String? {
        func two(_ range: ClosedRange<Int>) -> String {
            let value = Int.random(in: range, using: &generator)
            return value < 10 ? "0\(value)" : "\(value)"
        }
        func hex(_ count: Int) -> String {
            String((0..<count).map { _ in Array("0123456789abcdef").randomElement(using: &generator) ?? "0" })
        }
        let date = "20\(two(10...30))-\(two(1...12))-\(two(1...28))"
        switch format {
        case "date-time": return date + "T\(two(0...23)):\(two(0...59)):\(two(0...59))Z"
        case "date": return date
        case "time": return "\(two(0...23)):\(two(0...59)):\(two(0...59))Z"
        case "uuid": return "\(hex(8))-\(hex(4))-4\(hex(3))-a\(hex(3))-\(hex(12))"
        case "email": return word(length: 5, using: &generator) + "@example.com"
        case "uri", "url", "iri": return "https://example.com/" + word(length: 6, using: &generator)
        case "hostname": return word(length: 6, using: &generator) + ".example.com"
        case "ipv4": return "192.0.2.\(Int.random(in: 1...254, using: &generator))"
        case "ipv6": return "2001:db8::\(hex(4))"
        case "byte": return "d3No"
        default: return nil
        }
    }
}
