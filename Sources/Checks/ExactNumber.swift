/// A decimal number compared exactly, digit by digit: `9007199254740993` is not
/// `9007199254740992` (as two doubles they are equal), and `1.0 == 1`, `1e3 == 1000`.
public struct ExactNumber: Comparable, Sendable, CustomStringConvertible {
    /// Significant digits, without leading or trailing zeros; empty for zero.
    private let digits: [UInt8]
    /// The value is `0.digits × 10^exponent` (with `sign`).
    private let exponent: Int
    private let negative: Bool

    /// Reads a decimal literal: an optional sign, digits with an optional fraction, an optional
    /// exponent (`-12`, `3.50`, `1e-3`, `+.5`). Nil for anything else (`inf`, `0x1F`, `1,5`).
    public init?(_ text: some StringProtocol) {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var mantissa: [UInt8] = []
        var pointOffset: Int?
        var sawDigit = false
        while let byte = bytes.first, Self.isDigit(byte) || (byte == UInt8(ascii: ".") && pointOffset == nil) {
            if byte == UInt8(ascii: ".") { pointOffset = mantissa.count } else { mantissa.append(byte - 48); sawDigit = true }
            bytes = bytes.dropFirst()
        }
        guard sawDigit else { return nil }
        var exponent = 0
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            guard let first = bytes.first, Self.isDigit(first) else { return nil }
            while let byte = bytes.first, Self.isDigit(byte) {
                exponent = exponent * 10 + Int(byte - 48)
                // Past a billion two different exponents could not be told apart: not a number here.
                guard exponent <= 1_000_000_000 else { return nil }
                bytes = bytes.dropFirst()
            }
            if exponentNegative { exponent = -exponent }
        }
        guard bytes.isEmpty else { return nil }
        let integerDigits = pointOffset ?? mantissa.count
        guard let firstSignificant = mantissa.firstIndex(where: { $0 != 0 }) else {
            self.digits = []
            self.exponent = 0
            self.negative = false
            return
        }
        let lastSignificant = mantissa.lastIndex(where: { $0 != 0 }) ?? firstSignificant
        self.digits = Array(mantissa[firstSignificant...lastSignificant])
        self.exponent = exponent + integerDigits - firstSignificant
        self.negative = negative
    }

    public var description: String {
        guard !digits.isEmpty else { return "0" }
        return (negative ? "-0." : "0.") + digits.map { String($0) }.joined() + "e\(exponent)"
    }

    public static func == (left: ExactNumber, right: ExactNumber) -> Bool {
        left.negative == right.negative && left.exponent == right.exponent && left.digits == right.digits
    }

    public static func < (left: ExactNumber, right: ExactNumber) -> Bool {
        if left.digits.isEmpty || right.digits.isEmpty {
            if left.digits.isEmpty { return !right.digits.isEmpty && !right.negative }
            return left.negative
        }
        if left.negative != right.negative { return left.negative }
        let magnitudeLess = left.exponent != right.exponent ? left.exponent < right.exponent
            : left.digits.lexicographicallyPrecedes(right.digits)
        let magnitudeEqual = left.exponent == right.exponent && left.digits == right.digits
        return left.negative ? !magnitudeLess && !magnitudeEqual : magnitudeLess
    }

    /// Whether the number has no fractional part (`3`, `3.0`, `1e3`), as JSON Schema's `integer` asks.
    public var isInteger: Bool { digits.count <= exponent }

    /// The integer part in decimal, cut toward zero (`3.9` → `3`, `-1e3` → `-1000`); nil when it
    /// would take more than 10,000 digits.
    public var truncatedText: String? {
        guard !digits.isEmpty, exponent > 0 else { return "0" }
        guard exponent <= 10_000 else { return nil }
        var text = digits.prefix(exponent).map { String($0) }.joined()
        if exponent > digits.count { text += String(repeating: "0", count: exponent - digits.count) }
        return (negative ? "-" : "") + text
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
