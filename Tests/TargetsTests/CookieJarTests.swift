import Foundation
@testable import Targets
import TestSupport
import Testing

/// The cookie jar by RFC 6265: what is stored from `Set-Cookie`, and what goes back in `Cookie`.
@Suite struct CookieJarTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// A jar that received `setCookie` from `url` at ``now``.
    func jar(_ setCookie: [String], from url: String = "http://example.com/") -> CookieJar {
        let jar = CookieJar()
        jar.store(setCookie: setCookie, from: url, now: Self.now)
        return jar
    }

    struct ParseRow: Sendable, CustomStringConvertible {
        var field: String
        var name: String?
        var value = ""
        var domain: String?
        var path: String?
        var maxAge: Int?
        var secure = false
        var httpOnly = false
        var sameSite: String?
        var description: String { field }
    }

    static let parseRows: [ParseRow] = [
        ParseRow(field: "a=b", name: "a", value: "b"),
        ParseRow(field: " a = b c ; ", name: "a", value: "b c"),
        ParseRow(field: "a=\"quoted\"", name: "a", value: "\"quoted\""),
        ParseRow(field: "a=b=c", name: "a", value: "b=c"),
        ParseRow(field: "a=", name: "a", value: ""),
        ParseRow(field: "noequals", name: nil),
        ParseRow(field: "=value", name: nil),
        ParseRow(field: "", name: nil),
        ParseRow(field: ";a=b", name: nil),
        ParseRow(field: "a=b; Domain=.Example.COM; Path=/x; Secure; HttpOnly; SameSite=Lax", name: "a", value: "b",
                 domain: "example.com", path: "/x", secure: true, httpOnly: true, sameSite: "Lax"),
        ParseRow(field: "a=b; SameSite=STRICT", name: "a", value: "b", sameSite: "Strict"),
        ParseRow(field: "a=b; SameSite=None; SameSite=sometimes", name: "a", value: "b"),
        ParseRow(field: "a=b; domain=; path=relative", name: "a", value: "b"),
        ParseRow(field: "a=b; Max-Age=60; max-age=-5", name: "a", value: "b", maxAge: -5),
        ParseRow(field: "a=b; Max-Age=6x0; Max-Age=+5; Max-Age=", name: "a", value: "b"),
        ParseRow(field: "a=b; Max-Age=99999999999999999999999999", name: "a", value: "b", maxAge: 1_000_000_000_000),
        ParseRow(field: "a=b; Path=/one; Path=/two; secure=whatever", name: "a", value: "b", path: "/two", secure: true),
        ParseRow(field: "a=b; Path=/p\u{01}q", name: "a", value: "b"),
    ]

    @Test(arguments: parseRows) func setCookieFieldsParse(_ row: ParseRow) {
        let parsed = SetCookie(row.field)
        #expect(parsed?.name == row.name)
        guard let parsed else { return }
        #expect(parsed.value == row.value)
        #expect(parsed.domain == row.domain)
        #expect(parsed.path == row.path)
        #expect(parsed.maxAge == row.maxAge)
        #expect(parsed.secure == row.secure)
        #expect(parsed.httpOnly == row.httpOnly)
        #expect(parsed.sameSite == row.sameSite)
    }

    static let dateRows: [(String, Int64?)] = [
        ("Wed, 09 Jun 2021 10:18:14 GMT", 1_623_233_894),
        ("Wednesday, 09-Jun-21 10:18:14 GMT", 1_623_233_894),
        ("Wed Jun  9 10:18:14 2021", 1_623_233_894),
        ("09 jUN 2021 10:18:14", 1_623_233_894),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
        ("Thu, 01-Jan-70 00:00:01 GMT", 1),
        ("Sat, 29 Feb 2020 23:59:59 GMT", 1_583_020_799),
        ("Fri, 31 Dec 9999 23:59:59 GMT", 253_402_300_799),
        ("1 Jan 1601 0:0:0", -11_644_473_600),
        ("Tue, 01 Jan 69 00:00:00 GMT", 3_124_224_000),
        ("Sun, 29 Feb 2021 00:00:00 GMT", nil),
        ("Wed, 31 Jun 2021 10:18:14 GMT", nil),
        ("Wed, 09 Jun 2021 24:00:00 GMT", nil),
        ("Wed, 09 Jun 2021 10:60:00 GMT", nil),
        ("Wed, 09 Jun 1600 10:00:00 GMT", nil),
        ("Wed, 09 Jun 10:18:14 GMT", nil),
        ("Wed, 09 2021 10:18:14 GMT", nil),
        ("09 Jun 2021", nil),
        ("Wed, 009 Jun 2021 10:18:14 GMT", nil),
        ("Wed, 09 Jun 20211 10:18:14 GMT", nil),
        ("", nil),
        ("\u{0}\u{7F}::::; ,,,", nil),
    ]

    @Test(arguments: dateRows) func cookieDatesParseLeniently(_ text: String, _ seconds: Int64?) {
        #expect(CookieDate.parse(text).map { Int64($0.timeIntervalSince1970) } == seconds, "\(text)")
    }

    struct MatchRow: Sendable, CustomStringConvertible {
        var setCookie: String
        var from: String
        var request: String
        var sent: String?
        var description: String { "\(setCookie) from \(from) to \(request)" }
    }

    static let matchRows: [MatchRow] = [
        // Host-only without Domain; with Domain, subdomains too.
        MatchRow(setCookie: "a=1", from: "http://example.com/", request: "http://example.com/", sent: "a=1"),
        MatchRow(setCookie: "a=1", from: "http://example.com/", request: "http://www.example.com/", sent: nil),
        MatchRow(setCookie: "a=1; Domain=example.com", from: "http://example.com/", request: "http://www.example.com/", sent: "a=1"),
        MatchRow(setCookie: "a=1; Domain=.example.com", from: "http://www.example.com/", request: "http://example.com/", sent: "a=1"),
        MatchRow(setCookie: "a=1; Domain=EXAMPLE.com", from: "http://WWW.Example.com/", request: "http://a.b.example.com/", sent: "a=1"),
        MatchRow(setCookie: "a=1; Domain=example.com", from: "http://example.com/", request: "http://badexample.com/", sent: nil),
        MatchRow(setCookie: "a=1; Domain=example.com.", from: "http://example.com/", request: "http://example.com/", sent: nil),
        MatchRow(setCookie: "a=1", from: "http://example.com./", request: "http://example.com/", sent: "a=1"),
        // A Domain that does not domain-match the host, or a single label: ignored.
        MatchRow(setCookie: "a=1; Domain=other.com", from: "http://example.com/", request: "http://other.com/", sent: nil),
        MatchRow(setCookie: "a=1; Domain=www.example.com", from: "http://example.com/", request: "http://www.example.com/", sent: nil),
        MatchRow(setCookie: "a=1; Domain=com", from: "http://example.com/", request: "http://example.com/", sent: nil),
        MatchRow(setCookie: "a=1; Domain=com", from: "http://example.com/", request: "http://other.com/", sent: nil),
        MatchRow(setCookie: "a=1; Domain=localhost", from: "http://localhost:8080/", request: "http://localhost:9/", sent: "a=1"),
        MatchRow(setCookie: "a=1; Domain=intranet", from: "http://intranet/", request: "http://intranet/", sent: "a=1"),
        // A Domain on the Public Suffix List: ignored, unless it is the host itself (then host-only).
        MatchRow(setCookie: "a=1; Domain=co.uk", from: "http://x.co.uk/", request: "http://y.co.uk/", sent: nil),
        MatchRow(setCookie: "a=1; Domain=co.uk", from: "http://x.co.uk/", request: "http://x.co.uk/", sent: nil),
        MatchRow(setCookie: "a=1; Domain=.CO.UK", from: "http://x.co.uk/", request: "http://y.co.uk/", sent: nil),
        MatchRow(setCookie: "a=1; Domain=herokuapp.com", from: "http://app1.herokuapp.com/", request: "http://app2.herokuapp.com/", sent: nil),
        MatchRow(setCookie: "a=1; Domain=example.co.uk", from: "http://www.example.co.uk/", request: "http://api.example.co.uk/", sent: "a=1"),
        MatchRow(setCookie: "a=1; Domain=app1.herokuapp.com", from: "http://app1.herokuapp.com/", request: "http://v2.app1.herokuapp.com/", sent: "a=1"),
        MatchRow(setCookie: "a=1; Domain=co.uk", from: "http://co.uk/", request: "http://co.uk/", sent: "a=1"),
        MatchRow(setCookie: "a=1; Domain=co.uk", from: "http://co.uk/", request: "http://x.co.uk/", sent: nil),
        // Wildcard rules (`*.ck`) and their exceptions (`!www.ck`).
        MatchRow(setCookie: "a=1; Domain=foo.ck", from: "http://www.foo.ck/", request: "http://bar.foo.ck/", sent: nil),
        MatchRow(setCookie: "a=1; Domain=www.ck", from: "http://a.www.ck/", request: "http://b.www.ck/", sent: "a=1"),
        // IP addresses: exact only; ports do not count.
        MatchRow(setCookie: "a=1", from: "http://127.0.0.1:8080/", request: "http://127.0.0.1:9090/x", sent: "a=1"),
        MatchRow(setCookie: "a=1; Domain=0.0.1", from: "http://127.0.0.1/", request: "http://127.0.0.1/", sent: nil),
        MatchRow(setCookie: "a=1; Domain=127.0.0.1", from: "http://127.0.0.1/", request: "http://127.0.0.1/", sent: "a=1"),
        MatchRow(setCookie: "a=1", from: "http://[::1]:8080/", request: "http://[::1]/", sent: "a=1"),
        // Paths: the default is the request's directory; a prefix must end at a '/'.
        MatchRow(setCookie: "a=1", from: "http://h.com/docs/page?q=/x", request: "http://h.com/docs", sent: "a=1"),
        MatchRow(setCookie: "a=1", from: "http://h.com/docs/page", request: "http://h.com/docs/more/deep", sent: "a=1"),
        MatchRow(setCookie: "a=1", from: "http://h.com/docs/page", request: "http://h.com/", sent: nil),
        MatchRow(setCookie: "a=1", from: "http://h.com/docs/page", request: "http://h.com/docsx", sent: nil),
        MatchRow(setCookie: "a=1", from: "http://h.com/page", request: "http://h.com/", sent: "a=1"),
        MatchRow(setCookie: "a=1", from: "http://h.com", request: "http://h.com?x", sent: "a=1"),
        MatchRow(setCookie: "a=1; Path=/docs/", request: "http://h.com/docs/x", sent: "a=1"),
        MatchRow(setCookie: "a=1; Path=/docs/", request: "http://h.com/docs", sent: nil),
        MatchRow(setCookie: "a=1; Path=/docs", request: "http://h.com/docs#frag", sent: "a=1"),
        MatchRow(setCookie: "a=1; Path=/docs", request: "http://h.com/docs?x=1", sent: "a=1"),
        // Secure: only over https, and only set from https.
        MatchRow(setCookie: "a=1; Secure", from: "https://h.com/", request: "https://h.com/", sent: "a=1"),
        MatchRow(setCookie: "a=1; Secure", from: "https://h.com/", request: "http://h.com/", sent: nil),
        MatchRow(setCookie: "a=1; Secure", from: "http://h.com/", request: "https://h.com/", sent: nil),
        MatchRow(setCookie: "a=1", from: "HTTPS://h.com/", request: "http://h.com/", sent: "a=1"),
        // Prefixes (RFC 6265bis 4.1.3): __Secure- needs Secure from https; __Host- also Path=/ and no Domain.
        MatchRow(setCookie: "__Secure-s=1", from: "http://h.com/", request: "http://h.com/", sent: nil),
        MatchRow(setCookie: "__Secure-s=1", from: "https://h.com/", request: "https://h.com/", sent: nil),
        MatchRow(setCookie: "__Secure-s=1; Secure", from: "https://h.com/", request: "https://h.com/", sent: "__Secure-s=1"),
        MatchRow(setCookie: "__secure-s=1", from: "https://h.com/", request: "https://h.com/", sent: nil),
        MatchRow(setCookie: "__Host-h=1; Path=/", from: "http://h.com/", request: "http://h.com/", sent: nil),
        MatchRow(setCookie: "__Host-h=1; Path=/", from: "https://h.com/", request: "https://h.com/", sent: nil),
        MatchRow(setCookie: "__Host-h=1; Secure", from: "https://h.com/", request: "https://h.com/", sent: nil),
        MatchRow(setCookie: "__Host-h=1; Secure; Path=/x", from: "https://h.com/x/", request: "https://h.com/x/", sent: nil),
        MatchRow(setCookie: "__Host-h=1; Secure; Path=/; Domain=h.com", from: "https://h.com/", request: "https://h.com/", sent: nil),
        MatchRow(setCookie: "__Host-h=1; Secure; Path=/", from: "https://h.com/x/y", request: "https://h.com/", sent: "__Host-h=1"),
        MatchRow(setCookie: "__HOST-h=1; Secure; Path=/", from: "https://h.com/", request: "https://h.com/", sent: "__HOST-h=1"),
        MatchRow(setCookie: "__Hostile=1", from: "http://h.com/", request: "http://h.com/", sent: "__Hostile=1"),
        // HttpOnly cookies go to HTTP requests all the same.
        MatchRow(setCookie: "a=1; HttpOnly", from: "http://h.com/", request: "http://h.com/", sent: "a=1"),
        // User info in the URL is not the host.
        MatchRow(setCookie: "a=1", from: "http://evil.com@h.com/", request: "http://h.com/", sent: "a=1"),
        MatchRow(setCookie: "a=1", from: "http://h.com/", request: "http://h.com@evil.com/", sent: nil),
    ]

    @Test(arguments: matchRows) func cookiesGoWhereRFC6265Says(_ row: MatchRow) {
        let jar = jar([row.setCookie], from: row.from)
        #expect(jar.cookieHeader(for: row.request, now: Self.now) == row.sent)
    }

    @Test func theSystemsPublicSuffixListIsRead() {
        // Debian's publicsuffix package (scripts/ensure-deps.sh; the .deb depends on it).
        #expect(PublicSuffixList.system.isLoaded)
        #expect(PublicSuffixList.system.isPublicSuffix("co.uk"))
        #expect(!PublicSuffixList.system.isPublicSuffix("example.co.uk"))
    }

    @Test func withoutTheListOnlyASingleLabelIsAPublicSuffix() {
        let list = PublicSuffixList(contentsOfFile: "/nonexistent/public_suffix_list.dat")
        #expect(!list.isLoaded)
        let jar = CookieJar(publicSuffixes: list)
        jar.store(setCookie: ["a=1; Domain=com", "b=2; Domain=example.com"], from: "http://www.example.com/", now: Self.now)
        #expect(jar.cookieHeader(for: "http://other.com/", now: Self.now) == nil)
        #expect(jar.cookieHeader(for: "http://api.example.com/", now: Self.now) == "b=2")
    }

    @Test func aListInItsOwnFormatIsRead() {
        let list = PublicSuffixList(text: "// comment\nuk\nco.uk  trailing words\n*.ck\n!www.ck\n// ===BEGIN PRIVATE DOMAINS===\nHerokuApp.com\n")
        #expect(list.isPublicSuffix("co.uk") && list.isPublicSuffix("herokuapp.com") && list.isPublicSuffix("foo.ck"))
        #expect(!list.isPublicSuffix("www.ck") && !list.isPublicSuffix("a.co.uk"))
        #expect(list.isPublicSuffix("ck") && list.isPublicSuffix("anything"))
    }

    @Test func longerPathsGoFirstThenEarlierCreation() {
        let jar = CookieJar()
        jar.store(setCookie: ["a=1; Path=/"], from: "http://h.com/", now: Self.now)
        jar.store(setCookie: ["b=2; Path=/x/y", "c=3; Path=/x"], from: "http://h.com/", now: Self.now)
        jar.store(setCookie: ["d=4; Path=/x"], from: "http://h.com/", now: Self.now.addingTimeInterval(-10))
        jar.store(setCookie: ["e=5; Domain=h.com"], from: "http://www.h.com/", now: Self.now)
        #expect(jar.cookieHeader(for: "http://www.h.com/x/y/z", now: Self.now) == "e=5")
        #expect(jar.cookieHeader(for: "http://h.com/x/y/z", now: Self.now) == "b=2; d=4; c=3; a=1; e=5")
        // Cookies of the host and of domains above it are merged in one order.
        jar.store(setCookie: ["f=6; Path=/x/y"], from: "http://www.h.com/", now: Self.now.addingTimeInterval(-20))
        jar.store(setCookie: ["g=7; Path=/x/y/z; Domain=h.com"], from: "http://www.h.com/", now: Self.now)
        jar.store(setCookie: ["h=8; Path=/x/y; Domain=h.com"], from: "http://www.h.com/", now: Self.now.addingTimeInterval(-30))
        #expect(jar.cookieHeader(for: "http://www.h.com/x/y/z", now: Self.now) == "g=7; h=8; f=6; e=5")
    }

    @Test func aRenewedCookieIsSentWithItsNewValueInItsPlace() {
        let jar = CookieJar()
        jar.store(setCookie: ["a=1; Path=/", "sid=short; Path=/", "z=26; Path=/x"], from: "http://h.com/x/", now: Self.now)
        #expect(jar.cookieHeader(for: "http://h.com/x/y", now: Self.now) == "z=26; a=1; sid=short")
        jar.store(setCookie: ["sid=a-much-longer-value; Path=/"], from: "http://h.com/x/", now: Self.now)
        #expect(jar.cookieHeader(for: "http://h.com/x/y", now: Self.now) == "z=26; a=1; sid=a-much-longer-value")
        jar.store(setCookie: ["z=; Path=/x", "a=0123; Path=/"], from: "http://h.com/x/", now: Self.now)
        #expect(jar.cookieHeader(for: "http://h.com/x/y", now: Self.now) == "z=; a=0123; sid=a-much-longer-value")
        // Made Secure, it is no longer sent over http.
        jar.store(setCookie: ["a=5; Secure; Path=/"], from: "https://h.com/x/", now: Self.now)
        #expect(jar.cookieHeader(for: "http://h.com/x/y", now: Self.now) == "z=; sid=a-much-longer-value")
        // Made a domain cookie, it goes to subdomains too, and still here.
        jar.store(setCookie: ["sid=d; Domain=h.com; Path=/"], from: "http://h.com/x/", now: Self.now)
        #expect(jar.cookieHeader(for: "http://www.h.com/x/y", now: Self.now) == "sid=d")
        #expect(jar.cookieHeader(for: "http://h.com/x/y", now: Self.now) == "z=; sid=d")
    }

    @Test func aReplacementThatLivesLongerIsKeptPastTheOldExpiry() {
        let jar = jar(["a=1; Max-Age=60", "b=2; Max-Age=30"])
        jar.store(setCookie: ["a=2; Max-Age=3600"], from: "http://example.com/", now: Self.now)
        #expect(jar.cookieHeader(for: "http://example.com/", now: Self.now.addingTimeInterval(90)) == "a=2")
        #expect(jar.cookieHeader(for: "http://example.com/", now: Self.now.addingTimeInterval(3600)) == nil)
        #expect(jar.isEmpty)
    }

    @Test func maxAgeWinsOverExpiresAndZeroDeletes() {
        let jar = jar(["a=1; Expires=Thu, 01 Jan 1970 00:00:10 GMT; Max-Age=100", "b=2; Max-Age=100; Expires=Thu, 01 Jan 1970 00:00:10 GMT"])
        let expiries = jar.all.map { $0.expires }
        #expect(expiries == [Self.now.addingTimeInterval(100), Self.now.addingTimeInterval(100)])
        jar.store(setCookie: ["a=gone; Max-Age=0", "b=gone; Max-Age=-1"], from: "http://example.com/", now: Self.now)
        #expect(jar.isEmpty)
        jar.store(setCookie: ["c=1; Expires=Thu, 01 Jan 1970 00:00:10 GMT"], from: "http://example.com/", now: Self.now)
        #expect(jar.isEmpty, "a cookie that expired before it came is not stored")
        jar.store(setCookie: ["d=1; Expires=not a date"], from: "http://example.com/", now: Self.now)
        #expect(jar.all.first?.expires == nil, "an Expires that does not parse leaves a session cookie")
    }

    @Test func expiredCookiesAreNotSentAndAreEvicted() {
        let jar = jar(["short=1; Max-Age=60", "long=2; Max-Age=3600", "session=3"])
        #expect(jar.cookieHeader(for: "http://example.com/", now: Self.now) == "short=1; long=2; session=3")
        let later = Self.now.addingTimeInterval(61)
        #expect(jar.cookieHeader(for: "http://example.com/", now: later) == "long=2; session=3")
        #expect(jar.all.map(\.name) == ["long", "session"])
        #expect(jar.cookieHeader(for: "http://example.com/", now: Self.now.addingTimeInterval(3600)) == "session=3")
    }

    @Test func aCookieReplacesItsNameDomainAndPathKeepingTheCreationTime() throws {
        let jar = jar(["a=1; Path=/p; HttpOnly"])
        jar.store(setCookie: ["a=2; Path=/p; Max-Age=50"], from: "http://example.com/", now: Self.now.addingTimeInterval(5))
        jar.store(setCookie: ["a=other-path; Path=/q"], from: "http://example.com/", now: Self.now)
        let cookies = jar.all
        #expect(cookies.count == 2)
        let replaced = try #require(cookies.first { $0.path == "/p" })
        #expect(replaced.value == "2")
        #expect(replaced.httpOnly == false)
        #expect(replaced.creation == Self.now)
        #expect(replaced.expires == Self.now.addingTimeInterval(55))
        #expect(jar.cookieHeader(for: "http://example.com/p/x", now: Self.now.addingTimeInterval(6)) == "a=2")
    }

    @Test func plainHTTPCannotReplaceOrDeleteASecureCookie() {
        let jar = jar(["a=secret; Secure"], from: "https://example.com/")
        jar.store(setCookie: ["a=plain", "a=x; Max-Age=0"], from: "http://example.com/", now: Self.now)
        #expect(jar.cookieHeader(for: "https://example.com/", now: Self.now) == "a=secret")
        jar.store(setCookie: ["a=new"], from: "https://example.com/", now: Self.now)
        #expect(jar.cookieHeader(for: "https://example.com/", now: Self.now) == "a=new")
    }

    @Test func cookiesAreBoundedPerDomainAndInAllOldestFirst() {
        let jar = CookieJar()
        for index in 0..<60 {
            jar.store(setCookie: ["c\(index)=v"], from: "http://one.com/", now: Self.now.addingTimeInterval(Double(index)))
        }
        let names = Set(jar.all.map(\.name))
        #expect(names.count == CookieJar.maxCookiesPerDomain)
        #expect(names == Set((10..<60).map { "c\($0)" }))
        for domain in 0..<61 {
            let fields = (0..<50).map { "c\($0)=v" }
            jar.store(setCookie: fields, from: "http://d\(domain).com/", now: Self.now.addingTimeInterval(Double(100 + domain)))
        }
        let all = jar.all
        #expect(all.count == CookieJar.maxCookies)
        #expect(!all.contains { $0.domain == "one.com" || $0.domain == "d0.com" }, "the oldest domains' cookies went first")
        #expect(all.filter { $0.domain == "d1.com" }.count == 50)
        #expect(all.filter { $0.domain == "d60.com" }.count == 50)
    }

    @Test func oversizedAndControlCharacterCookiesAreIgnored() {
        let big = String(repeating: "x", count: CookieJar.maxNameAndValueBytes - 1)
        let jar = jar(["n=" + big, "m=" + big + "x", "ctl=a\u{0}b", "crlf=a\r\nInjected: yes", "tab=a\tb"])
        #expect(jar.all.map(\.name) == ["n"])
    }

    @Test func hostileInputNeverTraps() {
        var generator = SeededGenerator(seed: SeededGenerator.seed())
        let pieces = ["=", ";", " ", "a", "Domain=", "Path=", "/", ".", "Max-Age=", "-", "9", "Expires=", ",", ":", "\u{0}",
                      "é", "\r\n", "Secure", "[", "]", "@", "%", "99999999999999999999", "\t"]
        let urls = ["http://h.com/", "https://[::1]/", "http://", "http://@/", "x", "http://[/", "http://a.b.c./d/e", ""]
        let jar = CookieJar()
        for _ in 0..<2000 {
            let count = Int.random(in: 0...12, using: &generator)
            let field = (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            let url = urls.randomElement(using: &generator) ?? ""
            jar.store(setCookie: [field], from: url, now: Self.now)
            _ = jar.cookieHeader(for: url, now: Self.now)
            _ = CookieDate.parse(field)
            try? jar.load(netscapeText: field.replacingOccurrences(of: ";", with: "\t"), now: Self.now)
        }
        _ = jar.netscapeText(now: Self.now)
    }

    /// Asking for other URLs in between, over http and https, still gives each its own cookies.
    @Test func lookupsOfOtherURLsInBetweenGetTheirOwnCookies() {
        let jar = jar(["plain=1", "sec=2; Secure"], from: "https://example.com/")
        jar.store(setCookie: ["deep=3; Path=/a"], from: "http://example.com/a/x", now: Self.now)
        #expect(jar.cookieHeader(for: "http://example.com/a/b", now: Self.now) == "deep=3; plain=1")
        #expect(jar.cookieHeader(for: "https://example.com/a/b", now: Self.now) == "deep=3; plain=1; sec=2")
        jar.store(setCookie: ["other=4"], from: "http://other.example/", now: Self.now)
        #expect(jar.cookieHeader(for: "http://example.com/a/b", now: Self.now) == "deep=3; plain=1")
        #expect(jar.cookieHeader(for: "http://example.com/", now: Self.now) == "plain=1")
        #expect(jar.cookieHeader(for: "http://other.example/", now: Self.now) == "other=4")
    }

    @Test func clearEmptiesTheJar() {
        let jar = jar(["a=1", "b=2"])
        #expect(!jar.isEmpty)
        jar.clear()
        #expect(jar.isEmpty)
        #expect(jar.cookieHeader(for: "http://example.com/", now: Self.now) == nil)
    }
}

extension CookieJarTests.MatchRow {
    /// A row whose cookie came from `http://h.com/`.
    init(setCookie: String, request: String, sent: String?) {
        self.init(setCookie: setCookie, from: "http://h.com/", request: request, sent: sent)
    }
}
