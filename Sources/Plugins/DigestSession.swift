import Synchronization
import Targets

/// The Digest challenges an ``AuthPlugin`` has answered, by origin: later requests to the same
/// origin answer the same nonce with the next nonce count (RFC 7616 3.4) instead of being
/// challenged again. Safe to use from any thread; it holds no credential. A shell keeps one for as
/// long as its credential is the same, whenever it makes its plugins anew.
public final class DigestSession: Sendable {
    private struct Entry {
        var challenge: DigestChallenge
        var lastCount: Int
    }

    /// The most origins remembered; past it, the session starts over.
    static let maxOrigins = 256

    private let entries = Mutex<[String: Entry]>([:])

    /// A session that has answered no challenge yet.
    public init() {}

    /// The challenge remembered for `origin` and the next nonce count to answer it with, or `nil`.
    func reuse(for origin: String) -> (challenge: DigestChallenge, count: Int)? {
        entries.withLock { entries in
            guard var entry = entries[origin] else { return nil }
            entry.lastCount += 1
            entries[origin] = entry
            return (entry.challenge, entry.lastCount)
        }
    }

    /// Remembers `challenge` for `origin`, its nonce count starting over; returns the first count, 1.
    func start(_ challenge: DigestChallenge, for origin: String) -> Int {
        entries.withLock { entries in
            if entries[origin] == nil, entries.count >= Self.maxOrigins { entries.removeAll() }
            entries[origin] = Entry(challenge: challenge, lastCount: 1)
            return 1
        }
    }

    /// Forgets the challenge of `origin`, whose credentials were refused.
    func forget(_ origin: String) {
        _ = entries.withLock { $0.removeValue(forKey: origin) }
    }

    /// `scheme://host:port`, lowercased, the port defaulting by scheme: the key of a URL's challenge.
    static func origin(of url: String) -> String {
        guard let authority = URLAuthority(url: url), let schemeEnd = url.range(of: "://") else { return url }
        return url[..<schemeEnd.lowerBound].lowercased() + "://" + authority.host + ":" + String(authority.effectivePort)
    }
}
