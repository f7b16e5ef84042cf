import Foundation
import Targets
import Testing
import TestSupport

/// The jar keeps the last Cookie header it made and changes it in place when a cookie in it is
/// replaced: whatever a server sends, in any order, the header must be the one made afresh from
/// the jar's cookies (RFC 6265 5.4: longer paths first, then earlier creation).
@Suite struct CookieHeaderMemoTests {
    /// The Cookie header made from the jar's cookies, without the jar's own lookup. `sequence`
    /// numbers cookies in the order they came, for those made at the same instant.
    static func expectedHeader(_ jar: CookieJar, for url: String, now: Date, sequence: [String: (Date, Int)]) -> String? {
        let sent = jar.cookies(for: url, now: now).sorted { first, second in
            let (a, b) = (first.path.utf8.count, second.path.utf8.count)
            if a != b { return a > b }
            if first.creation != second.creation { return first.creation < second.creation }
            return (sequence[key(first)]?.1 ?? 0) < (sequence[key(second)]?.1 ?? 0)
        }
        return sent.isEmpty ? nil : sent.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    static func key(_ cookie: Cookie) -> String { "\(cookie.name)|\(cookie.domain)|\(cookie.path)" }

    @Test func aRenewedCookieIsSentWithItsNewValueInItsPlace() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let jar = CookieJar()
        jar.store(setCookie: ["a=1; Path=/", "sid=short; Path=/", "z=26; Path=/x"], from: "http://h.com/x/", now: now)
        #expect(jar.cookieHeader(for: "http://h.com/x/y", now: now) == "z=26; a=1; sid=short")
        jar.store(setCookie: ["sid=a-much-longer-value; Path=/"], from: "http://h.com/x/", now: now)
        #expect(jar.cookieHeader(for: "http://h.com/x/y", now: now) == "z=26; a=1; sid=a-much-longer-value")
        jar.store(setCookie: ["z=; Path=/x", "a=0123; Path=/"], from: "http://h.com/x/", now: now)
        #expect(jar.cookieHeader(for: "http://h.com/x/y", now: now) == "z=; a=0123; sid=a-much-longer-value")
        // Made Secure, it is no longer sent over http.
        jar.store(setCookie: ["a=5; Secure; Path=/"], from: "https://h.com/x/", now: now)
        #expect(jar.cookieHeader(for: "http://h.com/x/y", now: now) == "z=; sid=a-much-longer-value")
        // Made a domain cookie, it goes to subdomains too, and still here.
        jar.store(setCookie: ["sid=d; Domain=h.com; Path=/"], from: "http://h.com/x/", now: now)
        #expect(jar.cookieHeader(for: "http://www.h.com/x/y", now: now) == "sid=d")
        #expect(jar.cookieHeader(for: "http://h.com/x/y", now: now) == "z=; sid=d")
    }

    @Test func theHeaderIsAlwaysTheOneMadeAfresh() {
        let seed = SeededGenerator.seed()
        var generator = SeededGenerator(seed: seed)
        let urls = ["http://h.com/", "https://h.com/a/", "http://h.com/a/b", "http://www.h.com/a/b", "https://www.h.com/"]
        let jar = CookieJar()
        var now = Date(timeIntervalSince1970: 1_700_000_000)
        // Each cookie's creation and the order it came in; one answer's cookies share an instant.
        var sequence: [String: (Date, Int)] = [:]
        var next = 0
        for step in 0..<8000 {
            let url = urls.randomElement(using: &generator) ?? urls[0]
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                // One to three fields, of different names, as one answer's Set-Cookie lines.
                let names = Array(["a", "b", "c", "sid"].shuffled(using: &generator).prefix(Int.random(in: 1...3, using: &generator)))
                let fields = names.map { name in
                    var field = name + "=" + String(repeating: "v", count: Int.random(in: 0...12, using: &generator))
                    if Bool.random(using: &generator) { field += "; Path=/a" }
                    if Int.random(in: 0..<4, using: &generator) == 0 { field += "; Secure" }
                    if Int.random(in: 0..<4, using: &generator) == 0 { field += "; Domain=h.com" }
                    switch Int.random(in: 0..<6, using: &generator) {
                    case 0: field += "; Max-Age=0"
                    case 1: field += "; Max-Age=\(Int.random(in: 1...60, using: &generator))"
                    default: break
                    }
                    return field
                }
                jar.store(setCookie: fields, from: url, now: now)
                let added = jar.all.filter { sequence[Self.key($0)]?.0 != $0.creation }
                for cookie in added.sorted(by: { names.firstIndex(of: $0.name) ?? 0 < names.firstIndex(of: $1.name) ?? 0 }) {
                    sequence[Self.key(cookie)] = (cookie.creation, next)
                    next += 1
                }
            case 5:
                now = now.addingTimeInterval(Double(Int.random(in: 1...30, using: &generator)))
            case 6 where Int.random(in: 0..<20, using: &generator) == 0:
                jar.clear()
            default:
                let made = jar.cookieHeader(for: url, now: now)
                let expected = Self.expectedHeader(jar, for: url, now: now, sequence: sequence)
                #expect(made == expected, "step \(step), \(url), seed \(seed)")
            }
            // Answers come a millisecond apart: only one answer's cookies share their creation.
            now = now.addingTimeInterval(0.001)
        }
    }
}
