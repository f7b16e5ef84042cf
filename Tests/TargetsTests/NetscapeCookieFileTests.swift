import Foundation
import Targets
import TestSupport
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

    /// A file's cookie for every site under a public suffix (`.com`, `com` with TRUE, `.co.uk`)
    /// went to every such site; `Set-Cookie` could not set it. A host-only one for the host stays.
    @Test func aCookieForEverySiteUnderAPublicSuffixIsLeftOut() throws {
        let jar = CookieJar(publicSuffixes: PublicSuffixList(text: "com\nuk\nco.uk\n"))
        let refused = try jar.load(netscapeText: [
            ".com\tTRUE\t/\tFALSE\t0\tcomcookie\t1", "com\tTRUE\t/\tFALSE\t0\tbarecom\t1",
            ".co.uk\tTRUE\t/\tFALSE\t0\tcouk\t1", ".example.com\tTRUE\t/\tFALSE\t0\tsite\t1",
            "co.uk\tFALSE\t/\tFALSE\t0\thostonly\t1",
        ].joined(separator: "\n"), now: Self.now)
        #expect(refused == [".com", ".com", ".co.uk"])
        #expect(jar.cookieHeader(for: "http://shop.example.com/", now: Self.now) == "site=1")
        #expect(jar.cookieHeader(for: "http://bbc.co.uk/", now: Self.now) == nil)
        #expect(jar.cookieHeader(for: "http://co.uk/", now: Self.now) == "hostonly=1")
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

/// The jar and the real curl read each other's cookie files: what `curl -c` stored from a loopback
/// server is what the jar stores from the same answer, and what `curl -b` sends from the jar's file
/// is the Cookie header the jar makes.
@Suite struct CookieCurlInteropTests {
    static let setCookies = [
        "session=abc123; Path=/; HttpOnly",
        "pref=dark; Max-Age=3600; Path=/app",
        "wide=1; Domain=127.0.0.1",
        "quoted=\"a b\"; Path=/app/deep/",
        "empty=; Path=/",
        "old=x; Expires=Wed, 09 Jun 2021 10:18:14 GMT",
        "deleted=x; Max-Age=0",
    ]

    /// Compares what matters of two cookies; expiry within a minute (curl and the jar read the clock apart).
    func sameCookie(_ a: Cookie, _ b: Cookie) -> Bool {
        let closeExpiry = switch (a.expires, b.expires) {
        case (nil, nil): true
        case let (x?, y?): abs(x.timeIntervalSince(y)) < 60
        default: false
        }
        return closeExpiry && a.name == b.name && a.value == b.value && a.domain == b.domain && a.hostOnly == b.hostOnly
            && a.path == b.path && a.secure == b.secure && a.httpOnly == b.httpOnly
    }

    @Test func whatCurlStoresIsWhatTheJarStores() async throws {
        let login = StaticRoute(status: 200, headers: Self.setCookies.map { ("Set-Cookie", $0) }, body: Array("{}".utf8))
        try await TestServer.with(routes: ["/login": login]) { server in
            let directory = try temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let file = directory.appendingPathComponent("cookies.txt")
            let url = server.baseURL + "/login"
            let status = try await curl(["-o", "/dev/null", "-c", file.path, url])
            #expect(status == 0)

            let fromCurl = CookieJar()
            try fromCurl.load(netscapeText: try String(contentsOf: file, encoding: .utf8), source: "cookies.txt")
            let direct = CookieJar()
            direct.store(setCookie: Self.setCookies, from: url)
            let loaded = fromCurl.all
            let stored = direct.all
            #expect(loaded.map(\.name) == ["empty", "session", "wide", "pref", "quoted"])
            #expect(loaded.count == stored.count)
            for (a, b) in zip(loaded, stored) {
                #expect(sameCookie(a, b), "curl: \(a)\njar: \(b)")
            }
        }
    }

    @Test func whatCurlSendsFromTheJarsFileIsTheJarsCookieHeader() async throws {
        try await TestServer.with { server in
            let directory = try temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let jar = CookieJar()
            let base = server.baseURL
            jar.store(setCookie: ["root=1; Path=/", "echo=2; Path=/echo; HttpOnly"], from: base + "/")
            jar.store(setCookie: ["deep=3; Max-Age=86400", "elsewhere=4; Path=/other"], from: base + "/echo/x/page")
            jar.store(setCookie: ["other-host=5"], from: "http://localhost:\(server.port)/")
            let file = directory.appendingPathComponent("jar.txt")
            try jar.netscapeText().write(to: file, atomically: true, encoding: .utf8)

            let url = base + "/echo/x/y?q=1"
            let expected = try #require(jar.cookieHeader(for: url))
            #expect(expected == "deep=3; echo=2; root=1")
            let output = try await curlOutput(["-b", file.path, url])
            let echoed = try JSONDecoder().decode(EchoedHeaders.self, from: output)
            let sent = echoed.headers.filter { $0.first?.lowercased() == "cookie" }.compactMap { $0.last }
            #expect(sent == [expected])
        }
    }

    /// What the test server's `/echo` route returns, the headers only.
    struct EchoedHeaders: Decodable {
        var headers: [[String]]
    }

    func temporaryDirectory() throws -> URL {
        try ScratchDirectory.make("wsh-cookies")
    }

    /// Runs /usr/bin/curl with `arguments` and returns its exit status.
    func curl(_ arguments: [String]) async throws -> Int32 {
        try await runCurl(arguments).status
    }

    /// Runs /usr/bin/curl with `arguments`, expects it to succeed, and returns what it wrote on stdout.
    func curlOutput(_ arguments: [String]) async throws -> Data {
        let result = try await runCurl(arguments)
        #expect(result.status == 0)
        return result.output
    }
}
