import Foundation

/// One `Set-Cookie` field value read by RFC 6265 5.2: the name and value, and the attributes the
/// storage model uses, and SameSite (the last of each name wins; unknown ones are ignored).
public struct SetCookie: Equatable, Sendable {
    public var name: String
    public var value: String
    /// `Expires`, when it parsed as a cookie date.
    public var expires: Date?
    /// `Max-Age` in seconds, when it was a (possibly negative) integer; it wins over `Expires`.
    public var maxAge: Int?
    /// `Domain`, lowercased and without a leading dot; `nil` when absent or empty.
    public var domain: String?
    /// `Path`, when it starts with `/`.
    public var path: String?
    public var secure = false
    public var httpOnly = false
    /// `SameSite` as RFC 6265bis reads it: `Strict`, `Lax` or `None`; nil when absent or another value.
    public var sameSite: String?

    /// The cookie in `field`, or `nil` when it has no `=` in its name-value pair or an empty name.
    public init?(_ field: String) {
        // Read as bytes in one pass, as every answer of a cookie-setting site has one or more.
        var field = field
        guard let cookie = field.withUTF8(Self.parse) else { return nil }
        self = cookie
    }

    private init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> SetCookie? {
        let semicolon = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
        guard let equals = bytes[..<semicolon].firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let name = bytes[..<equals].textTrimmingSpacesAndTabs
        guard !name.isEmpty else { return nil }
        var cookie = SetCookie(name: name, value: bytes[(equals + 1)..<semicolon].textTrimmingSpacesAndTabs)
        var start = semicolon + 1
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            let separator = bytes[start..<end].firstIndex(of: UInt8(ascii: "="))
            let attributeName = bytes[start..<(separator ?? end)].trimmingSpacesAndTabs
            if let base = bytes.baseAddress, let known = knownAttributes.first(where: {
                $0.bytes.count == attributeName.count && Redaction.holds($0.bytes, at: base + attributeName.startIndex)
            }) {
                cookie.apply(name: known.name, value: separator.map { bytes[($0 + 1)..<end].textTrimmingSpacesAndTabs } ?? "")
            }
            start = end + 1
        }
        return cookie
    }

    /// The attributes the storage model reads, lowercased, with their bytes.
    private static let knownAttributes = ["expires", "max-age", "domain", "path", "secure", "httponly", "samesite"]
        .map { (name: $0, bytes: Array($0.utf8)) }

    private mutating func apply(name attributeName: String, value attributeValue: String) {
        switch attributeName {
        case "expires":
            if let date = CookieDate.parse(attributeValue) { expires = date }
        case "max-age":
            if let seconds = Self.deltaSeconds(attributeValue) { maxAge = seconds }
        case "domain":
            // RFC 6265 leaves an empty Domain undefined; browsers ignore it, and so does this.
            let domain = CookieDomain.canonical(attributeValue)
            if !domain.isEmpty { self.domain = domain }
        case "path":
            // A path with control characters would break the Netscape file's lines: the default path instead.
            let isUsable = attributeValue.utf8.first == UInt8(ascii: "/") && attributeValue.allBytes { $0 >= 0x20 && $0 != 0x7F }
            path = isUsable ? attributeValue : nil
        case "secure":
            secure = true
        case "httponly":
            httpOnly = true
        case "samesite":
            sameSite = ["strict": "Strict", "lax": "Lax", "none": "None"][attributeValue.lowercased()]
        default:
            break
        }
    }

    /// `Max-Age`'s value: an optional `-` then digits, cut to ±10^12 seconds (beyond any date kept);
    /// `nil` for anything else.
    static func deltaSeconds(_ text: String) -> Int? {
        var bytes = text.utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = min(value * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000_000_000)
        }
        return negative ? -value : value
    }

    /// When the cookie expires if received at `now`: Max-Age first, then Expires; `nil` for a
    /// session cookie. Max-Age 0 or less means the earliest time there is (it deletes).
    func expiry(now: Date) -> Date? {
        if let maxAge {
            return maxAge <= 0 ? .distantPast : min(now.addingTimeInterval(TimeInterval(maxAge)), CookieDate.latest)
        }
        return expires.map { min($0, CookieDate.latest) }
    }

}
