import Foundation
import Synchronization

/// A session's cookies, by RFC 6265: stored from every `Set-Cookie` an answer brings, sent back as
/// the `Cookie` header of the requests they match. Safe to use from any thread.
///
/// Bounded against a hostile server: at most ``maxCookiesPerDomain`` cookies per domain and
/// ``maxCookies`` in all (the oldest go first), and a cookie whose name and value together pass
/// ``maxNameAndValueBytes`` is ignored.
public final class CookieJar: Sendable {
    /// The most cookies kept for one domain.
    public static let maxCookiesPerDomain = 50
    /// The most cookies kept in all.
    public static let maxCookies = 3000
    /// The most bytes a cookie's name and value may have together.
    public static let maxNameAndValueBytes = 4096

    private let state = Mutex(CookieStore())
    /// nil: the system's list, read only when a cookie first names a `Domain`, so that a process
    /// that never meets one (most of them, `wsh -c exit` too) does not parse 14,000 lines at start.
    private let publicSuffixes: PublicSuffixList?

    /// An empty jar that refuses a `Domain` on `publicSuffixes` (by default the system's list,
    /// ``PublicSuffixList/system``).
    public init(publicSuffixes: PublicSuffixList? = nil) {
        self.publicSuffixes = publicSuffixes
    }

    /// The Cookie header value for a request to `url` at `now`, or nil when no cookie matches
    /// (RFC 6265 5.4: domain-match or host-only, path-match, Secure only over https; expired ones
    /// are not sent and are evicted). Longer paths come first, then earlier creation.
    public func cookieHeader(for url: String, now: Date = Date()) -> String? {
        state.withLock { store in
            guard store.count > 0, let request = CookieRequestURL(url) else { return nil }
            return store.header(for: request, now: now)
        }
    }

    /// Stores the `Set-Cookie` field values received from `url` (RFC 6265 5.2 and 5.3).
    ///
    /// - `Max-Age` wins over `Expires`; an expiry in the past (`Max-Age=0`) deletes the cookie.
    /// - A `Domain` must domain-match the request's host, and may not be a public suffix (`com`,
    ///   `co.uk`, `herokuapp.com`; `localhost` is not one) unless it is the host itself, which
    ///   makes the cookie host-only; else the cookie is ignored (RFC 6265 5.3 step 5).
    /// - Without `Path`, the path is the request's directory (RFC 6265 5.1.4).
    /// - A cookie replaces the one of the same name, domain and path, keeping its creation time.
    /// - A `Secure` cookie from `http://` is ignored, and so is a plain one from `http://` that
    ///   would replace a `Secure` one.
    /// - A `__Secure-` cookie without `Secure`, and a `__Host-` one without `Secure` and `Path=/` or
    ///   with a `Domain`, are ignored (RFC 6265bis 4.1.3).
    public func store(setCookie values: [String], from url: String, now: Date = Date()) {
        guard !values.isEmpty, let request = CookieRequestURL(url) else { return }
        let cookies = values.compactMap { SetCookie($0).flatMap { cookie(from: $0, request: request, now: now) } }
        guard !cookies.isEmpty else { return }
        state.withLock { store in
            for (cookie, delete) in cookies {
                store.insert(cookie, deleting: delete, fromSecureOrigin: request.isSecure, now: now)
            }
        }
    }

    /// The cookies a request to `url` would send at `now`, unexpired, in the jar's order.
    public func cookies(for url: String, now: Date = Date()) -> [Cookie] {
        guard let request = CookieRequestURL(url) else { return [] }
        return all.filter { cookie in
            !cookie.isExpired(at: now) && cookie.isSent(toHost: request.host, path: request.path, secure: request.isSecure)
        }
    }

    /// Every cookie, expired ones included until a lookup evicts them, ordered by domain, path and name.
    public var all: [Cookie] {
        state.withLock { $0.all }
    }

    /// The cookies not expired at `now`, ordered by domain, path and name: what is listed and saved.
    public func unexpired(at now: Date = Date()) -> [Cookie] {
        all.filter { !$0.isExpired(at: now) }
    }

    /// Removes every cookie.
    public func clear() {
        state.withLock { $0 = CookieStore() }
    }

    /// Whether the jar holds no cookie.
    public var isEmpty: Bool {
        state.withLock { $0.count == 0 }
    }

    /// Adds `cookies` as they are (after the same checks and bounds as cookies from a server);
    /// one of the same name, domain and path is replaced.
    public func insert(_ cookies: [Cookie], now: Date = Date()) {
        state.withLock { store in
            for cookie in cookies where Cookie.isAcceptable(name: cookie.name, value: cookie.value) && !cookie.domain.isEmpty {
                store.insert(cookie, deleting: cookie.isExpired(at: now), fromSecureOrigin: true, now: now)
            }
        }
    }

    /// The cookie a parsed `Set-Cookie` makes for `request`, and whether it deletes rather than
    /// stores; `nil` when RFC 6265 5.3 says to ignore it.
    private func cookie(from parsed: SetCookie, request: CookieRequestURL, now: Date) -> (Cookie, Bool)? {
        guard Cookie.isAcceptable(name: parsed.name, value: parsed.value) else { return nil }
        if parsed.secure, !request.isSecure { return nil }
        guard Self.meetsItsPrefix(parsed, request: request) else { return nil }
        var domain = request.host
        var hostOnly = true
        if let attribute = parsed.domain, attribute != request.host {
            guard CookieDomain.matches(host: request.host, domain: attribute), !isPublicSuffix(attribute) else { return nil }
            domain = attribute
            hostOnly = false
        } else if parsed.domain != nil {
            // `Domain` names the host itself: subdomains get it too, unless the host is an IP
            // address (as curl reads it) or a public suffix (RFC 6265 5.3 step 5).
            hostOnly = CookieDomain.isIPAddress(request.host) || isPublicSuffix(request.host)
        }
        let expires = parsed.expiry(now: now)
        let cookie = Cookie(
            name: parsed.name, value: parsed.value, domain: domain, hostOnly: hostOnly,
            path: parsed.path ?? CookiePath.defaultPath(for: request.path), expires: expires,
            secure: parsed.secure, httpOnly: parsed.httpOnly, creation: now, sameSite: parsed.sameSite)
        return (cookie, cookie.isExpired(at: now))
    }

    /// The cookie prefixes of RFC 6265bis 4.1.3, as curl and browsers apply them (the prefix in any
    /// case): a `__Secure-` cookie must be `Secure` and come from https; a `__Host-` one too, with
    /// `Path=/` and no `Domain`.
    private static func meetsItsPrefix(_ parsed: SetCookie, request: CookieRequestURL) -> Bool {
        guard parsed.name.hasPrefix("__") else { return true }
        if parsed.name.prefix(9).lowercased() == "__secure-" { return parsed.secure && request.isSecure }
        if parsed.name.prefix(7).lowercased() == "__host-" {
            return parsed.secure && request.isSecure && parsed.domain == nil && parsed.path == "/"
        }
        return true
    }

    /// Whether a cookie's `Domain` may not be `domain`: a public suffix, but `localhost`.
    func isPublicSuffix(_ domain: String) -> Bool {
        domain != "localhost" && (publicSuffixes ?? .system).isPublicSuffix(domain)
    }
}
