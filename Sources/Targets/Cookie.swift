import Foundation

/// One cookie as a ``CookieJar`` holds it (RFC 6265 section 5.3).
public struct Cookie: Sendable, Equatable {
    /// The name, as the server wrote it.
    public var name: String
    /// The value, as the server wrote it (quotes included when it had them).
    public var value: String
    /// The host or domain it is sent to: lowercased, with no leading dot.
    public var domain: String
    /// Whether it goes only to ``domain`` itself (no `Domain` attribute was given), not to its subdomains.
    public var hostOnly: Bool
    /// The path it is sent under.
    public var path: String
    /// When it expires; `nil` for a session cookie.
    public var expires: Date?
    /// Whether it is sent only over https.
    public var secure: Bool
    /// Whether scripts may not see it (wsh, an HTTP client, sends it all the same).
    public var httpOnly: Bool
    /// When it was first stored; a replacement keeps the creation time of the cookie it replaces.
    public var creation: Date
    /// `SameSite`: `Strict`, `Lax` or `None` as the server gave it; nil when it gave none (or the
    /// cookie came from a Netscape file, which has no place for it). Kept to be queried: wsh, an
    /// HTTP client, has no sites to compare.
    public var sameSite: String?

    /// Makes a cookie; `domain` is lowercased and loses a leading dot.
    public init(
        name: String, value: String, domain: String, hostOnly: Bool = true, path: String = "/",
        expires: Date? = nil, secure: Bool = false, httpOnly: Bool = false, creation: Date = Date(), sameSite: String? = nil
    ) {
        self.name = name
        self.value = value
        self.domain = CookieDomain.canonical(domain)
        self.hostOnly = hostOnly
        self.path = path
        self.expires = expires
        self.secure = secure
        self.httpOnly = httpOnly
        self.creation = creation
        self.sameSite = sameSite
    }

    /// Whether it has expired at `now` (a session cookie never does).
    public func isExpired(at now: Date) -> Bool {
        guard let expires else { return false }
        return expires <= now
    }

    /// Whether it is sent with a request to `host` and `path` (RFC 6265 5.4), its expiry aside.
    /// `host` is lowercased; `secure` is whether the request goes over https.
    func isSent(toHost host: String, path requestPath: String, secure requestIsSecure: Bool) -> Bool {
        if secure, !requestIsSecure { return false }
        let domainMatches = hostOnly ? host == domain : CookieDomain.matches(host: host, domain: domain)
        return domainMatches && CookiePath.matches(requestPath: requestPath, cookiePath: path)
    }

    /// Whether `name` and `value` can be stored and sent: at most ``CookieJar/maxNameAndValueBytes``
    /// bytes together, no control characters (a line break would split the Cookie header), and no `;`.
    static func isAcceptable(name: String, value: String) -> Bool {
        guard !name.isEmpty, name.utf8.count + value.utf8.count <= CookieJar.maxNameAndValueBytes else { return false }
        return name.allBytes(isAllowedByte) && value.allBytes(isAllowedByte)
    }

    private static func isAllowedByte(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != 0x7F && byte != UInt8(ascii: ";")
    }
}

/// Domain names as RFC 6265 compares them.
enum CookieDomain {
    /// Lowercased, without a leading dot.
    static func canonical(_ domain: String) -> String {
        let trimmed = domain.utf8.first == UInt8(ascii: ".") ? String(domain.dropFirst()) : domain
        // Most domains are lowercase ASCII already: they need no new string.
        if trimmed.allBytes({ $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) { return trimmed }
        return trimmed.lowercased()
    }

    /// RFC 6265 5.1.3: `host` is `domain`, or ends with `.domain` and is not an IP address.
    static func matches(host: String, domain: String) -> Bool {
        if host == domain { return true }
        guard !domain.isEmpty, host.utf8.count > domain.utf8.count,
              host.utf8.suffix(domain.utf8.count).elementsEqual(domain.utf8), !isIPAddress(host) else {
            return false
        }
        let dotIndex = host.utf8.index(host.utf8.endIndex, offsetBy: -(domain.utf8.count + 1))
        return host.utf8[dotIndex] == UInt8(ascii: ".")
    }

    /// Whether `host` is an IPv4 address (digits and dots) or an IPv6 one (has a colon).
    static func isIPAddress(_ host: String) -> Bool {
        if host.containsByte(UInt8(ascii: ":")) { return true }
        return host.allBytes { $0 == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// `host` and each domain above it that a cookie for it may be stored under: `a.b.com`, `b.com`,
    /// `com`; only `host` itself for an IP address.
    static func candidates(for host: String) -> [Substring] {
        var result: [Substring] = [host[...]]
        guard !isIPAddress(host) else { return result }
        var rest = host[...]
        while let dot = rest.utf8.firstIndex(of: UInt8(ascii: ".")) {
            rest = rest[rest.utf8.index(after: dot)...]
            if rest.isEmpty { break }
            result.append(rest)
        }
        return result
    }
}

/// Paths as RFC 6265 compares them.
enum CookiePath {
    /// RFC 6265 5.1.4 path-match. `requestPath` starts with `/`, as a ``CookieRequestURL``'s path always does.
    static func matches(requestPath: String, cookiePath: String) -> Bool {
        // `Path=/`, the most common by far, matches every request path; two equal small strings
        // compare in a few instructions.
        if cookiePath == "/" || requestPath == cookiePath { return true }
        guard requestPath.utf8.starts(with: cookiePath.utf8) else { return false }
        if cookiePath.utf8.last == UInt8(ascii: "/") { return true }
        let next = requestPath.utf8.index(requestPath.utf8.startIndex, offsetBy: cookiePath.utf8.count)
        return next < requestPath.utf8.endIndex && requestPath.utf8[next] == UInt8(ascii: "/")
    }

    /// RFC 6265 5.1.4 default-path: the request path up to, not including, its last `/`; `/` when that leaves nothing.
    static func defaultPath(for requestPath: String) -> String {
        guard requestPath.utf8.first == UInt8(ascii: "/"), let last = requestPath.utf8.lastIndex(of: UInt8(ascii: "/")),
              last != requestPath.utf8.startIndex else { return "/" }
        return String(requestPath[..<last])
    }
}
