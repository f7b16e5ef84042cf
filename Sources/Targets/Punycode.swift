/// Punycode (RFC 3492): a label of Unicode code points as ASCII letters, digits and hyphens, the
/// form IDNA sends a non-ASCII host name label in, after `xn--`.
public enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 0x80

    /// The Punycode form of `label` (RFC 3492 section 6.3, without the `xn--` prefix); `nil` when it
    /// overflows, which only a label far longer than DNS allows can do.
    public static func encode(_ label: String) -> String? {
        let input = label.unicodeScalars.map { Int($0.value) }
        var output: [UInt8] = input.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var n = initialN, delta = 0, bias = initialBias
        while handled < input.count {
            // The smallest code point not yet handled: every one below it is in the output already.
            guard let next = input.filter({ $0 >= n }).min() else { break }
            let (scaled, overflowA) = (next - n).multipliedReportingOverflow(by: handled + 1)
            let (sum, overflowB) = delta.addingReportingOverflow(scaled)
            guard !overflowA, !overflowB else { return nil }
            delta = sum
            n = next
            for code in input {
                if code < n {
                    guard delta < Int.max else { return nil }
                    delta += 1
                }
                guard code == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, numPoints: handled + 1, firstTime: handled == basicCount)
                delta = 0
                handled += 1
            }
            guard delta < Int.max else { return nil }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Section 6.1.
    private static func adapt(_ delta: Int, numPoints: Int, firstTime: Bool) -> Int {
        var delta = firstTime ? delta / damp : delta / 2
        delta += delta / numPoints
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    /// 0-25 as `a`-`z`, 26-35 as `0`-`9`.
    private static func digit(_ value: Int) -> UInt8 {
        value < 26 ? UInt8(ascii: "a") + UInt8(value) : UInt8(ascii: "0") + UInt8(value - 26)
    }
}
