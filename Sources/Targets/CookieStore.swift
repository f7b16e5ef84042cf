import Foundation

/// What a ``CookieJar`` holds under its lock: the cookies by domain, so that a lookup reads only
/// the host's own domain and those above it.
struct CookieStore {
    /// A cookie and when it was added to the store, which orders cookies created at the same instant.
    struct Entry {
        var cookie: Cookie
        var order: UInt64

        /// Whether it is older than `other`: created earlier, or added earlier at the same instant.
        func isOlder(than other: Entry) -> Bool {
            (cookie.creation, order) < (other.cookie.creation, other.order)
        }
    }

    private(set) var count = 0
    private var byDomain: [String: [Entry]] = [:]
    private var nextOrder: UInt64 = 0

    /// The Cookie header for `request`, evicting the expired cookies it meets.
    mutating func header(for request: CookieRequestURL, now: Date) -> String? {
        var matching: [Entry] = []
        for candidate in CookieDomain.candidates(for: request.host) {
            let domain = String(candidate)
            guard let entries = byDomain[domain] else { continue }
            if entries.contains(where: { $0.cookie.isExpired(at: now) }) {
                removeAll(in: domain) { $0.cookie.isExpired(at: now) }
            }
            for entry in byDomain[domain] ?? []
            where entry.cookie.isSent(toHost: request.host, path: request.path, secure: request.isSecure) {
                matching.append(entry)
            }
        }
        guard !matching.isEmpty else { return nil }
        // RFC 6265 5.4 step 2: longer paths first, then earlier creation.
        matching.sort { first, second in
            let firstLength = first.cookie.path.utf8.count
            let secondLength = second.cookie.path.utf8.count
            return firstLength != secondLength ? firstLength > secondLength : first.isOlder(than: second)
        }
        var header = ""
        for (index, entry) in matching.enumerated() {
            if index > 0 { header += "; " }
            header += entry.cookie.name
            header += "="
            header += entry.cookie.value
        }
        return header
    }

    /// Stores `cookie`, replacing the one of the same name, domain and path (whose creation time
    /// it keeps); with `deleting`, only removes that one. Keeps the bounds of ``CookieJar``.
    mutating func insert(_ cookie: Cookie, deleting: Bool, fromSecureOrigin: Bool, now: Date) {
        let domain = cookie.domain
        let existing = byDomain[domain]?.firstIndex { $0.cookie.name == cookie.name && $0.cookie.path == cookie.path }
        if let existing, let old = byDomain[domain]?[existing] {
            // A plain http:// answer may not overwrite or delete a Secure cookie (RFC 6265bis).
            if old.cookie.secure, !fromSecureOrigin { return }
            if deleting {
                byDomain[domain]?.remove(at: existing)
                count -= 1
                if byDomain[domain]?.isEmpty == true { byDomain[domain] = nil }
                return
            }
            var replacement = cookie
            replacement.creation = old.cookie.creation
            byDomain[domain]?[existing].cookie = replacement
            return
        }
        if deleting { return }
        makeRoom(in: domain, now: now)
        byDomain[domain, default: []].append(Entry(cookie: cookie, order: nextOrder))
        nextOrder += 1
        count += 1
    }

    /// Every cookie, ordered by domain, path and name.
    var all: [Cookie] {
        byDomain.values.joined().sorted { first, second in
            let (a, b) = (first.cookie, second.cookie)
            if a.domain != b.domain { return a.domain < b.domain }
            if a.path != b.path { return a.path < b.path }
            if a.name != b.name { return a.name < b.name }
            return first.order < second.order
        }.map(\.cookie)
    }

    /// Frees a place in `domain` and in the whole store when either is full: expired cookies
    /// first, then the oldest.
    private mutating func makeRoom(in domain: String, now: Date) {
        if let entries = byDomain[domain], entries.count >= CookieJar.maxCookiesPerDomain {
            removeAll(in: domain) { $0.cookie.isExpired(at: now) }
            if let entries = byDomain[domain], entries.count >= CookieJar.maxCookiesPerDomain,
               let oldest = Self.oldest(in: entries) {
                removeAll(in: domain) { $0.order == oldest.order }
            }
        }
        guard count >= CookieJar.maxCookies else { return }
        for key in Array(byDomain.keys) { removeAll(in: key) { $0.cookie.isExpired(at: now) } }
        guard count >= CookieJar.maxCookies else { return }
        var oldest: Entry?
        for entries in byDomain.values {
            for entry in entries where oldest.map({ entry.isOlder(than: $0) }) ?? true { oldest = entry }
        }
        if let oldest { removeAll(in: oldest.cookie.domain) { $0.order == oldest.order } }
    }

    private static func oldest(in entries: [Entry]) -> Entry? {
        entries.min { $0.isOlder(than: $1) }
    }

    /// Removes the entries of `domain` that satisfy `predicate`, keeping ``count`` right.
    private mutating func removeAll(in domain: String, where predicate: (Entry) -> Bool) {
        guard var entries = byDomain[domain], entries.contains(where: predicate) else { return }
        let before = entries.count
        entries.removeAll(where: predicate)
        count -= before - entries.count
        byDomain[domain] = entries.isEmpty ? nil : entries
    }
}
