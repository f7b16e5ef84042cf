import Foundation
import TestSupport
import Testing

/// The v2 queries and checks against an answer of the loopback server: `[*]`, slices, `..name`,
/// filters with arguments, `version`, and the type predicates, with their errors.
@Suite struct QueryLanguageTests {
    private static let store = StaticRoute(body: """
        {"store":{"books":[{"id":1,"title":"Dune","price":9.5,"tags":["sf","classic"]},
        {"id":2,"title":"Emma","price":12,"tags":[]},{"id":3,"title":"Ulysses","price":20,"author":{"id":77}}],
        "owner":{"email":"Kim@Example.com ","since":"2026-11-25T08:00:00Z","day":"2026-11-25","count":"42","html":"&lt;b&gt;Tom &amp; J&#233;r&#xF4;me&lt;/b&gt; &bogus; & x"}},
        "empty":{},"nothing":null,"ok":true,"big":12345678901234567890}
        """)

    private static func run(_ lines: String, _ server: TestServer) async throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try await WSHProcess.run(["-c", "set output quiet\nget \(server.baseURL)/store\n" + lines])
        return (result.status, result.stdout, result.stderr)
    }

    @Test func pathsGoOverListsSlicesAndDepths() async throws {
        try await withLoopbackServer(routes: ["/store": Self.store]) { server in
            let result = try await Self.run("""
            print .store.books[*].title
            print .store.books[1:].id .store.books[-1:].title .store.books[:1].id
            print ..id
            print .store.books[*].tags | length          # the third book has none: left out
            print version
            """, server)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == """
            ["Dune","Emma","Ulysses"]
            [2,3] ["Ulysses"] [1]
            [1,2,3,77]
            2
            HTTP/1.1

            """, "\(result.stdout)")
        }
    }

    @Test func filtersChainLeftToRight() async throws {
        try await withLoopbackServer(routes: ["/store": Self.store]) { server in
            let result = try await Self.run("""
            print .store.owner.email | trim | lower | split "@" | last
            print .store.books[*].title | join ", "
            print .store.books | first | keys
            print .store.books | nth -1 | values | length
            print .store.owner.count | toInt
            print .store.books[0].price | toInt
            print .store.owner.email | replace Example Sample | upper
            print .store.owner.since | regex "T([0-9:]+)Z"
            print .store.owner.email | trim | urlEncode
            print .store.owner.day | base64Encode | base64Decode
            print .store.owner.html | htmlUnescape
            """, server)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == """
            example.com
            Dune, Emma, Ulysses
            ["id","title","price","tags"]
            4
            42
            9
            KIM@SAMPLE.COM 
            08:00:00
            Kim%40Example.com
            2026-11-25
            <b>Tom & Jérôme</b> &bogus; & x

            """, "\(result.stdout.debugDescription)")
        }
    }

    @Test func typePredicatesAndTheirNegations() async throws {
        try await withLoopbackServer(routes: ["/store": Self.store]) { server in
            let result = try await Self.run("""
            expect .store.books isList
            expect .store isObject
            expect .store.books[0].title isString
            expect .store.books[0].id isInteger
            expect .store.books[0].price isFloat
            expect .store.books[1].price not isFloat
            expect .big isInteger
            expect .ok isBool
            expect .nothing isNull
            expect .empty isEmpty
            expect .store.books[1].tags isEmpty
            expect .store.owner.since isIsoDate
            expect .store.owner.day isDate
            expect .store.owner.email not isDate
            expect .store.owner.count isString
            expect .store.owner.count not isNumber
            echo all
            """, server)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "all\n")
        }
    }

    @Test func comparisonsAreTyped() async throws {
        try await withLoopbackServer(routes: ["/store": Self.store]) { server in
            let passing = try await Self.run("""
            expect .store.owner.count == "42"
            expect .store.owner.count != 42
            expect .big == 12345678901234567890
            expect .big != 12345678901234567891
            expect .store.books[1].price == 12.0
            expect .store.books[0].title < Emma
            expect .store.books[2].title > "Emma"
            expect .ok == true
            expect .nothing == null
            expect .store.books[*].id contains 2
            expect .store.books[*].id not contains "2"
            expect .store.books[0].tags == '["sf", "classic"]'
            expect .store.owner.email startsWith Kim@
            expect .store.owner.email not endsWith .com
            expect .store.owner.since endsWith Z
            echo all
            """, server)
            #expect(passing.status == 0, "\(passing.stderr)")
            #expect(passing.stdout == "all\n")
            let failing = try await Self.run("expect .store.owner.count == 42", server)
            #expect(failing.status == 4)
            #expect(failing.stderr.contains("note: expected: 42 (number)\nnote: actual:   \"42\" (string)"), "\(failing.stderr)")
            let mixed = try await Self.run("expect .store.owner.count < 50", server)
            #expect(mixed.status == 3)
            #expect(mixed.stderr.contains("'<' compares two numbers, two dates or two strings that are not numbers"), "\(mixed.stderr)")
            #expect(mixed.stderr.contains("read the value as a number with '| toInt'"), "\(mixed.stderr)")
            // As text "42" comes after "100": two strings that are numbers do not order as text.
            let asText = try await Self.run("expect .store.owner.count > \"100\"", server)
            #expect(asText.status == 3 && asText.stderr.contains("'| toInt'"), "\(asText.stderr)")
        }
    }

    /// A path into a captured value after the operator is the path, as before it: as text
    /// (`{"id":1,...}.id`) `expect .id != $first.id` always held and `==` never did.
    @Test func aPathIntoAVariableAfterTheOperatorIsAPath() async throws {
        try await withLoopbackServer(routes: ["/store": Self.store]) { server in
            let holding = try await Self.run("""
            let first = .store.books[0]
            let tags = .store.books[0].tags
            get \(server.baseURL)/store
            expect .store.books[0].id == $first.id
            expect .store.books[1].id != $first.id
            expect .store.books[0].tags[1] == $tags[1]
            expect .store.books[0].title contains $first.title
            expect .store.books[? .id == $first.id].title == Dune
            if .store.books[0].price == $first.price { echo same } else { echo other }
            """, server)
            #expect(holding.status == 0 && holding.stdout == "same\n", "\(holding.stderr)")
            let failing = try await Self.run("let first = .store.books[0]\nexpect .store.books[0].id != $first.id", server)
            #expect(failing.status == 4 && failing.stderr.contains("note: expected: not 1 (number)"), "\(failing.stderr)")
            let nothing = try await Self.run("let first = .store.books[0]\nexpect .store.books[0].id == $first.nope", server)
            #expect(nothing.status == 3 && nothing.stderr.contains("'$first.nope' found nothing to compare with"), "\(nothing.stderr)")
        }
    }

    /// Dates order as the moments they name: as text, a time with a fraction of a second came
    /// before the same second without one (`.` before `Z`), so `05.500Z < 05Z` held.
    @Test func datesOrderAsMoments() async throws {
        let result = try await WSHProcess.run(["-c", """
            set bail off
            expect "2025-01-01T21:34:05.500Z" | toDate > "2025-01-01T21:34:05Z"
            expect "2025-01-01T21:34:05.500Z" | toDate < "2025-01-01T21:34:05Z"
            expect "2025-01-01T23:00:00-02:00" > "2025-01-02T00:30:00Z"
            expect "2025-01-02" > "2025-01-01T23:00:00-02:00"
            """])
        #expect(result.status == 4, "\(result.stderr)")
        let failed = result.stderr.components(separatedBy: "expectation failed: ").dropFirst().map { $0.prefix { $0 != "\n" } }
        #expect(failed == [#""2025-01-01T21:34:05.500Z" | toDate < "2025-01-01T21:34:05Z""#, #""2025-01-02" > "2025-01-01T23:00:00-02:00""#],
                "\(result.stderr)")
    }

    @Test func hashesDatesAndCookies() async throws {
        let login = StaticRoute(status: 200, headers: [
            ("Content-Type", "application/json"), ("Set-Cookie", "sid=abc123; Path=/; HttpOnly; SameSite=lax"),
            ("Set-Cookie", "token=s3cr3t-value; Max-Age=3600"),
        ], body: Array(#"{"day":"2026-11-25","since":"2026-11-25T08:00:00Z","german":"25.11.2026"}"#.utf8))
        try await withLoopbackServer(routes: ["/login": login]) { server in
            let result = try await WSHProcess.run(["-c", """
            set output quiet
            get \(server.baseURL)/login
            print .day | sha256
            print .day | md5
            print .day | hex
            print .day | toDate
            print .since | toDate | format "%d/%m/%Y %H:%M"
            print .german | toDate "%d.%m.%Y" | format "%F"
            expect .since | toDate | daysBeforeNow >= 0
            print cookie sid cookie sid.httponly cookie sid.path cookie token
            print cookie sid.samesite
            expect cookie token.samesite not exists
            expect cookie token.max-age > 3500
            expect cookie token.secure == false
            print cookie nope
            """])
            // The digests as `printf %s 2026-11-25 | sha256sum` (and md5sum) print them.
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.count >= 8, "\(result.stdout)\n\(result.stderr)")
            #expect(lines.prefix(2) == ["059da136dbf487af96e836ebb9e751b446402f1865b6089b797505d77749ae92",
                                        "e8d009afe4d01e7c84830c60fbfe5ec6"], "\(result.stdout)")
            #expect(lines.dropFirst(2).prefix(6) == ["323032362d31312d3235", "2026-11-25T00:00:00Z", "25/11/2026 08:00", "2026-11-25",
                                                     "*** true / ***", "Lax"], "\(result.stdout)")
            #expect(!result.stdout.contains("s3cr3t") && !result.stderr.contains("s3cr3t"))
            #expect(result.status == 3)
            #expect(result.stderr.contains("no cookie 'nope' set by the answer or for \(server.baseURL)/login; cookies: sid, token"), "\(result.stderr)")
        }
    }

    /// `rawbytes` is the body as it came, before its Content-Encoding is undone (Hurl's
    /// `rawbytes`); `bytes` is after.
    @Test func rawBytesAreTheBodyBeforeItsContentEncoding() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let text = "hello, compressed world\n"
        try Data(text.utf8).write(to: directory.appendingPathComponent("plain.txt"))
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
        gzip.arguments = ["-k", "-n", "plain.txt"]
        gzip.currentDirectoryURL = directory
        try gzip.runSerially()
        gzip.waitUntilExitPolling()
        let compressed = try Data(contentsOf: directory.appendingPathComponent("plain.txt.gz"))
        let route = StaticRoute(headers: [("Content-Type", "text/plain"), ("Content-Encoding", "gzip")], body: Array(compressed))
        try await withLoopbackServer(routes: ["/gz": route]) { server in
            let result = try await WSHProcess.run(["-c", """
            set output quiet
            get \(server.baseURL)/gz
            print bytes | length
            print rawbytes | length
            expect rawbytes startsWith hex:1f8b
            expect rawbytes == @plain.txt.gz
            expect bytes == @plain.txt
            """], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "\(text.utf8.count)\n\(compressed.count)\n", "\(result.stdout)")
        }
    }

    /// A gzip answer printed as it arrived, and one in `wsh test` (whose worker prints nowhere), keep
    /// their coded bytes for `rawbytes`, as Hurl does: `wsh test` said they were decoded "as written
    /// to its file or printed", with a note to leave out a `> FILE` the file did not have.
    @Test func rawBytesAreKeptWhenTheBodyIsPrintedAndInATest() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        // `{"a":1}`, gzip-compressed.
        let gzipped: [UInt8] = [31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 171, 86, 74, 84, 178, 50, 172, 5, 0, 175, 172, 27, 86, 7, 0, 0, 0]
        let route = StaticRoute(headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], body: gzipped)
        try await withLoopbackServer(routes: ["/gz": route]) { server in
            let checks = "get \(server.baseURL)/gz\nexpect rawbytes startsWith hex:1f8b\nexpect rawbytes | length == \(gzipped.count)\nexpect .a == 1\n"
            try Data(checks.utf8).write(to: directory.appendingPathComponent("gz.wsh"))
            let tested = try await WSHProcess.run(["test", "gz.wsh"], directory: directory)
            #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
            #expect(tested.stdout.contains("✓ gz.wsh  3 checks"), "\(tested.stdout)")
            let printed = try await WSHProcess.run(["gz.wsh"], directory: directory)
            #expect(printed.status == 0, "\(printed.stderr)")
            #expect(printed.stdout == #"{"a":1}"#, "\(printed.stdout)")
        }
    }

    /// `cookie NAME.ATTRIBUTE` reads what the answer set, as Hurl does: an expired cookie (which the
    /// jar drops) and one for another path (which the jar would not send to this URL) too, and an
    /// attribute the answer did not send is not there.
    @Test func cookiesAreReadAsTheAnswerSetThem() async throws {
        let login = StaticRoute(status: 200, headers: [
            ("Set-Cookie", "old=gone; Max-Age=0; Secure"), ("Set-Cookie", "scoped=1; Path=/other; Domain=127.0.0.1"),
        ], body: [])
        try await withLoopbackServer(routes: ["/login": login]) { server in
            let result = try await WSHProcess.run(["-c", """
            set output quiet
            get \(server.baseURL)/login
            print cookie old cookie old.max-age cookie old.secure cookie scoped.path cookie scoped.domain
            expect cookie old.expires not exists
            expect cookie scoped.max-age not exists
            cookies
            """])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("gone 0 true /other 127.0.0.1\n"), "\(result.stdout)")
        }
    }

    @Test func aFilterThatCannotApplyNamesItsInput() async throws {
        try await withLoopbackServer(routes: ["/store": Self.store]) { server in
            let cases: [(String, String)] = [
                ("print .store.books | upper", "<command line>:3:7: error: '| upper' needs a string, found an array"),
                ("print .store.owner.email | toInt", "'| toInt' needs a number, or text that is an integer (digits, a sign before them at most), found a string: \"Kim@Example.com \""),
                ("print .store.books[0].tags | nth 5", "'| nth 5' is outside a list of 2"),
                ("print .store | frobnicate", "unknown filter 'frobnicate'"),
                ("print .store | split", "'split' takes 1 value"),
                ("print .store.books[x]", "expected a number, '*', a slice or '? EXPR' inside '[ ]'"),
                ("expect .ok isBool true", "'isBool' takes no value"),
                ("print ." + String(repeating: "[*]", count: 65), "a query may hold at most 64 of [*], [a:b] and .."),
            ]
            for (line, expected) in cases {
                let result = try await Self.run(line, server)
                #expect(result.status != 0, "\(line)")
                #expect(result.stderr.contains(expected), "\(line): \(result.stderr)")
            }
        }
    }
}
