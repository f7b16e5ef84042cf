import Foundation

/// What a ``CookieJar`` holds under its lock: the cookies by domain, so that a lookup reads only
/// the host's own domain and those above it. Each domain's cookies are kept in the order they are
/// sent (RFC 6265 5.4 step 2), so a lookup of one domain neither copies nor sorts them.
struct CookieStore {
    /// A cookie and when it was added to the store, which orders cookies created at the same instant.
    struct Entry {
        var cookie: Cookie {
            didSet { (pair, isOnRootPath) = Self.sendingForm(of: cookie) }
        }
        var order: UInt64
        /// `name=value` as the Cookie header sends it, made once rather than on every request.
        private(set) var pair: String
        /// Whether its path is `/`, which every request path matches.
        private(set) var isOnRootPath: Bool

        init(cookie: Cookie, order: UInt64) {
            self.cookie = cookie
            self.order = order
            (pair, isOnRootPath) = Self.sendingForm(of: cookie)
        }

        private static func sendingForm(of cookie: Cookie) -> (String, Bool) {
            (cookie.name + "=" + cookie.value, cookie.path == "/")
        }

        /// Whether it is older than `other`: created earlier, or added earlier at the same instant.
        func isOlder(than other: Entry) -> Bool {
            (cookie.creation, order) < (other.cookie.creation, other.order)
        }

        /// Whether it is sent before `other`: a longer path first, then earlier creation.
        func goesBefore(_ other: Entry) -> Bool {
            let length = cookie.path.utf8.count
            let otherLength = other.cookie.path.utf8.count
            return length != otherLength ? length > otherLength : isOlder(than: other)
        }
    }

    private(set) var count = 0
    private var byDomain: [String: [Entry]] = [:]
    private var nextOrder: UInt64 = 0
    /// No cookie expires before this; `nil` when none has an expiry. May be early after removals,
    /// which costs one needless scan.
    private var earliestExpiry: Date?
    private var lastRequest: (url: String, parts: CookieRequestURL)?
    /// The longest Cookie header made so far: room reserved for the next, which is most often as long.
    private var headerCapacity = 64
    /// The last header made; dropped when a cookie is added or removed, or one is replaced by a
    /// cookie sent to other requests (another Secure or host-only flag, a path of other bytes).
    private var lastHeader: CookieHeaderMemo?

    /// The parts of `url`, or `nil` when it has no `scheme://` or no host. The last URL's parts are
    /// kept: a request's cookies are looked up, then its answer's stored, under the same URL.
    mutating func requestURL(_ url: String) -> CookieRequestURL? {
        // Compared byte for byte: `==` takes canonically equivalent URLs for the same (and
        // `utf8.elementsEqual` went through generic iteration, 2,400 instructions for a short URL).
        if let lastRequest, lastRequest.url.hasSameBytes(as: url) { return lastRequest.parts }
        guard let parts = CookieRequestURL(url) else { return nil }
        lastRequest = (url, parts)
        return parts
    }

    /// The Cookie header for `request`, evicting expired cookies first when any may have expired.
    mutating func header(for request: CookieRequestURL, now: Date) -> String? {
        if let earliestExpiry, earliestExpiry <= now { removeExpired(now: now) }
        if lastHeader?.request.hasSameBytes(as: request) == true { return lastHeader?.header() }
        var memo = CookieHeaderMemo(request: request, capacity: headerCapacity)
        var lists: [(domain: String, entries: [Entry])] = []
        for candidate in CookieDomain.candidates(for: request.host) {
            let domain = String(candidate)
            if let entries = byDomain[domain] { lists.append((domain, entries)) }
        }
        if lists.count == 1 {
            // One domain holds cookies for the host (the usual case): its entries are in order
            // already, and whether the host matches is the same for all. The entries are read where
            // they lie, through a pointer: copying each cost 250 instructions.
            let (domain, entries) = lists[0]
            let matchesHost = request.host == domain
            let matchesDomain = CookieDomain.matches(host: request.host, domain: domain)
            entries.withUnsafeBufferPointer { entries in
                guard let first = entries.baseAddress else { return }
                for entry in first..<(first + entries.count) {
                    if entry.pointee.cookie.secure, !request.isSecure { continue }
                    guard entry.pointee.cookie.hostOnly ? matchesHost : matchesDomain else { continue }
                    guard entry.pointee.isOnRootPath
                        || CookiePath.matches(requestPath: request.path, cookiePath: entry.pointee.cookie.path) else { continue }
                    memo.append(entry.pointee.pair, order: entry.pointee.order)
                }
            }
        } else if lists.count > 1 {
            var matches = lists.map(\.entries).joined().filter { $0.cookie.isSent(toHost: request.host, path: request.path, secure: request.isSecure) }
            matches.sort { $0.goesBefore($1) }
            for entry in matches { memo.append(entry.pair, order: entry.order) }
        }
        // At most 8 KB kept in reserve: one huge header must not make every later request reserve as much.
        headerCapacity = min(max(headerCapacity, memo.count), 8192)
        let header = memo.header()
        lastHeader = memo
        return header
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
            let oldHostOnly = byDomain.values[slot][existing].cookie.hostOnly
            // Found by `==`, which takes canonically equivalent paths for one; paths match requests byte for byte.
            let samePathBytes = byDomain.values[slot][existing].cookie.path.hasSameBytes(as: cookie.path)
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
            let changesWhereSent = replacement.secure != oldSecure || replacement.hostOnly != oldHostOnly || !samePathBytes
            byDomain.values[slot][existing].cookie = replacement
            if changesWhereSent {
                lastHeader = nil
            } else {
                lastHeader?.replace(order: oldOrder, with: byDomain.values[slot][existing].pair)
            }
            return
        }
        if deleting { return }
        lastHeader = nil
        makeRoom(in: domain, now: now)
        let entry = Entry(cookie: cookie, order: nextOrder)
        nextOrder += 1
        count += 1
        var entries = byDomain.removeValue(forKey: domain) ?? []
        entries.insert(entry, at: entries.firstIndex { entry.goesBefore($0) } ?? entries.endIndex)
        byDomain[domain] = entries
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
        lastHeader = nil
        byDomain[domain] = nil
        let before = entries.count
        entries.removeAll(where: predicate)
        count -= before - entries.count
        if !entries.isEmpty { byDomain[domain] = entries }
    }
}
