import Foundation
import Targets
import Testing

/// curl's Netscape cookie file, written and read back by the jar; malformed lines named by number.
@Suite struct NetscapeCookieFileTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func everyKindOfCookieSurvivesARoundTrip() throws {
        let jar = CookieJar()
        jar.store(setCookie: [
            "session=abc; Path=/; HttpOnly", "wide=1; Domain=example.com; Path=/app; Max-Age=3600",
            "secure=s; Secure; Expires=Fri, 31 Dec 9999 23:59:59 GMT", "empty=",
        ], from: "https://www.example.com/login", now: Self.now)
        let text = jar.netscapeText(now: Self.now)
        #expect(text.hasPrefix("# Netscape HTTP Cookie File\n"))
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("# ") }
        #expect(lines == [
            ".example.com\tTRUE\t/app\tFALSE\t1700003600\twide\t1",
            "www.example.com\tFALSE\t/\tFALSE\t0\tempty\t",
            "www.example.com\tFALSE\t/\tTRUE\t253402300799\tsecure\ts",
            "#HttpOnly_www.example.com\tFALSE\t/\tFALSE\t0\tsession\tabc",
        ])
        let loaded = CookieJar()
        try loaded.load(netscapeText: text, now: Self.now)
        #expect(loaded.all == jar.all)
        #expect(loaded.netscapeText(now: Self.now) == text)
    }

    @Test func commentsBlankLinesCRLFAndSixFieldLinesAreRead() throws {
        let jar = CookieJar()
        try jar.load(netscapeText: "# a comment\r\n\r\n  \t\r\nh.com\tFALSE\t/\tFALSE\t0\tnovalue\r\n#HttpOnly_.h.com\tTRUE\t/x\ttrue\t0\tn\tv\r\n",
                     now: Self.now)
        let cookies = jar.all
        #expect(cookies.map(\.name) == ["novalue", "n"])
        #expect(cookies.first?.value == "")
        #expect(cookies.last?.httpOnly == true && cookies.last?.secure == true && cookies.last?.hostOnly == false)
        #expect(jar.cookieHeader(for: "https://a.h.com/x", now: Self.now) == "n=v")
    }

    @Test func expiredLinesAreLeftOut() throws {
        let jar = CookieJar()
        try jar.load(netscapeText: "h.com\tFALSE\t/\tFALSE\t1600000000\told\tv\nh.com\tFALSE\t/\tFALSE\t1800000000\tnew\tv\n", now: Self.now)
        #expect(jar.all.map(\.name) == ["new"])
    }

    @Test(arguments: [
        ("h.com\tFALSE\t/\tFALSE\t0", "expected 7 tab-separated fields"),
        ("h.com FALSE / FALSE 0 n v", "expected 7 tab-separated fields"),
        ("h.com\tMAYBE\t/\tFALSE\t0\tn\tv", "the second field must be TRUE or FALSE"),
        ("h.com\tFALSE\trel\tFALSE\t0\tn\tv", "the path must start with /"),
        ("h.com\tFALSE\t/\tyes\t0\tn\tv", "the fourth field must be TRUE or FALSE"),
        ("h.com\tFALSE\t/\tFALSE\tsoon\tn\tv", "the expiry must be a number of seconds since 1970, or 0"),
        ("h.com\tFALSE\t/\tFALSE\t99999999999999999999999\tn\tv", "the expiry must be a number of seconds since 1970, or 0"),
        ("h.com\tFALSE\t/\tFALSE\t-5\tn\tv", "the expiry must be a number of seconds since 1970, or 0"),
        (".\tFALSE\t/\tFALSE\t0\tn\tv", "the domain is empty"),
        ("h.com\tFALSE\t/\tFALSE\t0\t\tv", "the name is empty, has control characters or ';', or name and value pass 4096 bytes"),
    ])
    func aMalformedLineIsNamedAndNothingIsLoaded(line: String, reason: String) {
        let jar = CookieJar()
        let text = "# Netscape HTTP Cookie File\nh.com\tFALSE\t/\tFALSE\t0\tgood\tv\n\(line)\n"
        do {
            try jar.load(netscapeText: text, source: "cookies.txt", now: Self.now)
            Issue.record("loaded \(line)")
        } catch {
            #expect(error.description == "cookies.txt:3: \(reason)")
            #expect(error == CookieFileError(source: "cookies.txt", line: 3, reason: reason))
        }
        #expect(jar.isEmpty, "a file with a bad line adds nothing")
        #expect((try? jar.load(netscapeText: line, now: Self.now)) == nil)
    }

    @Test func anErrorWithoutAFileNameNamesTheLine() {
        #expect(CookieFileError(source: nil, line: 2, reason: "x").description == "line 2: x")
    }
}
