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
    /// No cookie expires before this; `nil` when none has an expiry. May be early after removals,
    /// which costs one needless scan.
    private var earliestExpiry: Date?

    /// The Cookie header for `request`, evicting expired cookies first when any may have expired:
    /// the cookies of the host's domain and those above it that are sent to it, longer paths first,
    /// then earlier creation (RFC 6265 5.4 step 2).
    mutating func header(for request: CookieRequestURL, now: Date) -> String? {
        if let earliestExpiry, earliestExpiry <= now { removeExpired(now: now) }
        let lists = CookieDomain.candidates(for: request.host).compactMap { byDomain[String($0)] }
        // Places and sort keys rather than entries: copying an entry retains each of its texts.
        var sent: [(list: Int, index: Int, pathLength: Int, creation: Date, order: UInt64)] = []
        for (list, entries) in lists.enumerated() {
            for index in entries.indices where entries[index].cookie.isSent(toHost: request.host, path: request.path, secure: request.isSecure) {
                sent.append((list, index, entries[index].cookie.path.utf8.count, entries[index].cookie.creation, entries[index].order))
            }
        }
        guard !sent.isEmpty else { return nil }
        sent.sort { ($1.pathLength, $0.creation, $0.order) < ($0.pathLength, $1.creation, $1.order) }
        var header: [UInt8] = []
        for place in sent {
            if !header.isEmpty { header += "; ".utf8 }
            header += lists[place.list][place.index].cookie.name.utf8
            header.append(UInt8(ascii: "="))
            header += lists[place.list][place.index].cookie.value.utf8
        }
        return String(decoding: header, as: UTF8.self)
    }

    /// Stores `cookie`, replacing the one of the same name, domain and path (whose creation time
    /// it keeps); with `deleting`, only removes that one. Keeps the bounds of ``CookieJar``.
    mutating func insert(_ cookie: Cookie, deleting: Bool, fromSecureOrigin: Bool, now: Date) {
        let domain = cookie.domain
        let nameLength = cookie.name.utf8.count
        // The domain's list is found once and changed where it lies: each lookup by key hashed the
        // domain again, and a replacement through `byDomain[domain]?[index]` cost three.
        if let slot = byDomain.index(forKey: domain), let existing = byDomain.values[slot].firstIndex(where: {
            // Lengths first: comparing two strings that differ costs a call into the runtime.
            $0.cookie.name.utf8.count == nameLength && $0.cookie.name == cookie.name && $0.cookie.path == cookie.path
        }) {
            // Read field by field: copying the entry out retained each of its texts.
            let oldOrder = byDomain.values[slot][existing].order
            let oldCreation = byDomain.values[slot][existing].cookie.creation
            let oldSecure = byDomain.values[slot][existing].cookie.secure
            // A plain http:// answer may not overwrite or delete a Secure cookie (RFC 6265bis).
            if oldSecure, !fromSecureOrigin { return }
            if deleting {
                removeAll(in: domain) { $0.order == oldOrder }
                return
            }
            // Same path and creation: its place in the sending order stays.
            var replacement = cookie
            replacement.creation = oldCreation
            noteExpiry(of: replacement)
            byDomain.values[slot][existing].cookie = replacement
            return
        }
        if deleting { return }
        makeRoom(in: domain, now: now)
        let entry = Entry(cookie: cookie, order: nextOrder)
        nextOrder += 1
        count += 1
        byDomain[domain, default: []].append(entry)
        noteExpiry(of: cookie)
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

    private mutating func noteExpiry(of cookie: Cookie) {
        guard let expires = cookie.expires else { return }
        earliestExpiry = earliestExpiry.map { min($0, expires) } ?? expires
    }

    /// Removes every expired cookie and finds the next expiry.
    private mutating func removeExpired(now: Date) {
        for domain in Array(byDomain.keys) { removeAll(in: domain) { $0.cookie.isExpired(at: now) } }
        earliestExpiry = byDomain.values.joined().compactMap(\.cookie.expires).min()
    }

    /// Frees a place in `domain` and in the whole store when either is full: expired cookies
    /// first, then the oldest.
    private mutating func makeRoom(in domain: String, now: Date) {
        if let entries = byDomain[domain], entries.count >= CookieJar.maxCookiesPerDomain {
            removeAll(in: domain) { $0.cookie.isExpired(at: now) }
            if let entries = byDomain[domain], entries.count >= CookieJar.maxCookiesPerDomain,
               let oldest = entries.min(by: { $0.isOlder(than: $1) }) {
                removeAll(in: domain) { $0.order == oldest.order }
            }
        }
        guard count >= CookieJar.maxCookies else { return }
        removeExpired(now: now)
        guard count >= CookieJar.maxCookies else { return }
        var oldest: Entry?
        for entries in byDomain.values {
            for entry in entries where oldest.map({ entry.isOlder(than: $0) }) ?? true { oldest = entry }
        }
        if let oldest { removeAll(in: oldest.cookie.domain) { $0.order == oldest.order } }
    }

    /// Removes the entries of `domain` that satisfy `predicate`, keeping ``count`` right.
    private mutating func removeAll(in domain: String, where predicate: (Entry) -> Bool) {
        guard var entries = byDomain[domain], entries.contains(where: predicate) else { return }
        byDomain[domain] = nil
        let before = entries.count
        entries.removeAll(where: predicate)
        count -= before - entries.count
        if !entries.isEmpty { byDomain[domain] = entries }
    }
}
