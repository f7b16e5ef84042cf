import Foundation
import TestSupport
import Testing

/// `[? EXPR]` element filters, the `bytes` source with byte literals, `replaceRegex`, `jsonpath`
/// and typed variables, against answers of the loopback server.
@Suite struct ElementFilterAndBytesTests {
    private static let store = StaticRoute(body: """
        {"books":[{"id":1,"title":"Dune","price":9.5,"tags":["sf","classic"]},
        {"id":2,"title":"Emma","price":12,"tags":[],"isbn":"0-14"},{"id":3,"title":"Ulysses","price":"n/a","tags":["new"]}],
        "owner":{"since":"2026-11-25T08:00:00Z","phone":"010-1234-5678"}}
        """)
    /// A PNG signature and two more bytes, one of them not UTF-8.
    private static let logo: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]
    private static let binary = StaticRoute(status: 200, headers: [("Content-Type", "image/png")], body: logo)

    private static func run(_ lines: String, _ server: TestServer, arguments: [String] = []) async throws -> WSHProcess.Result {
        try await WSHProcess.run(["-c", "set output quiet\nget \(server.baseURL)/store\n" + lines] + arguments)
    }

    @Test func elementFiltersKeepTheElementsForWhichTheExpressionHolds() async throws {
        try await withLoopbackServer(routes: ["/store": Self.store]) { server in
            let result = try await Self.run("""
            print .books[? .price < 10].title
            print .books[? .isbn exists].id
            print .books[? .tags contains "new"].title | first
            print .books[? .tags[? . == "classic"] | length > 0].title
            print .books[? .title matches "^[DE]"].id | length
            let cheap = 12
            print .books[? .price <= $cheap].id
            print .books[? not .price isNumber].title
            expect .books[? .price > 100] isEmpty
            """, server)
            // `.price < 10` on "n/a" is false, as in JSONPath, not an error.
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == """
            ["Dune"]
            [2]
            Ulysses
            ["Dune"]
            2
            [1,2]
            ["Ulysses"]

            """, "\(result.stdout)")
        }
    }

    @Test func aBadElementFilterIsAParseErrorWithACaret() async throws {
        try await withLoopbackServer(routes: ["/store": Self.store]) { server in
            let cases: [(String, String)] = [
                ("print .books[? ]", "3:13: error: '[?' needs an expression before ']'\n   print .books[? ]\n               ^~~~\n"),
                ("print .books[? .id == 1", "error: missing ']' after '[?'"),
                ("print .books[? .id = 1]", "3:20: error: '=' is not an operator; did you mean '=='?"),
                ("print .books[? .id = 1]", "note: usage: [? VALUE OP VALUE], [? VALUE [not] exists]; for example .books[? .price < 10].title"),
                ("print .books[? .id ; 1]", "'[? ...]' holds one expression"),
                ("print .a" + String(repeating: "[? .b", count: 17) + String(repeating: "]", count: 17), "a query may hold at most 16 '[? ...]'"),
            ]
            for (line, expected) in cases {
                let result = try await Self.run(line, server)
                #expect(result.status == 2, "\(line): \(result.stderr)")
                #expect(result.stderr.contains(expected), "\(line): \(result.stderr)")
            }
        }
    }

    @Test func bytesCompareWithHexBase64AndFileLiterals() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try Data(Self.logo).write(to: directory.appendingPathComponent("logo.png"))
        try await withLoopbackServer(routes: ["/store": Self.store, "/logo.png": Self.binary]) { server in
            let script = directory.appendingPathComponent("bytes.wsh")
            try """
            set output quiet
            get \(server.baseURL)/logo.png
            expect bytes == hex:89504e470d0a1a0a00ff
            expect bytes == base64:iVBORw0KGgoA/w==
            expect bytes == @logo.png
            expect bytes startsWith hex:89504e47
            expect bytes endsWith hex:00ff
            expect bytes contains hex:1a0a
            expect bytes != hex:00
            expect bytes | length == 10
            print bytes
            print bytes | sha256
            print bytes | base64Encode
            let saved = bytes
            expect bytes == $saved
            expect bytes == hex:89504e47
            """.write(to: script, atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run([script.path], directory: directory)
            #expect(result.status == 4, "\(result.stderr)")
            // As `sha256sum` prints the digest of these ten bytes.
            #expect(result.stdout == """
            hex:89504e470d0a1a0a00ff
            d44c4eee8f72efac76c1f294e7260408825c8dad42adaaf6e9bee7e7ef4c7de3
            iVBORw0KGgoA/w==

            """, "\(result.stdout)")
            #expect(result.stderr.contains("""
                bytes.wsh:16:8: error: expectation failed: bytes == hex:89504e47
                   expect bytes == hex:89504e47
                          ^~~~~~~~~~~~~~~~~~~~~
                note: expected: hex:89504e47 (bytes: 4)
                note: actual:   hex:89504e470d0a1a0a00ff (bytes: 10)
                """), "\(result.stderr)")
            let bad = try await WSHProcess.run(["-c", "set output quiet\nget \(server.baseURL)/logo.png\nexpect bytes == hex:abc"])
            #expect(bad.status == 3)
            #expect(bad.stderr.contains("'hex:abc' is not hex"), "\(bad.stderr)")
            let missing = try await WSHProcess.run(["-c", "set output quiet\nget \(server.baseURL)/logo.png\nexpect bytes == @nope.png"])
            #expect(missing.stderr.contains("cannot read 'nope.png'"), "\(missing.stderr)")
            let text = try await WSHProcess.run(["-c", "set output quiet\nget \(server.baseURL)/logo.png\nprint bytes | upper"])
            #expect(text.stderr.contains("'| upper' needs text, found the body's bytes"), "\(text.stderr)")
        }
    }

    @Test func byteSyntaxComesOnlyFromTheScriptAndSecretsStayMasked() async throws {
        let echo = StaticRoute(body: #"{"f":"@/etc/hostname","k":"supersecretvalue"}"#)
        try await withLoopbackServer(routes: ["/echo": echo]) { server in
            let result = try await WSHProcess.run(["-c", """
            let k = env WSH_TEST_KEY
            set output quiet
            get \(server.baseURL)/echo
            print bytes
            let f = .f
            expect bytes != $f
            expect bytes == $k
            """], environment: ["WSH_TEST_KEY": "supersecretvalue"])
            // `$f` is the text "@/etc/hostname" from the answer, not a file to read.
            #expect(result.status == 4, "\(result.stderr)")
            #expect(result.stdout.hasSuffix(" (secrets masked)\n"), "\(result.stdout)")
            #expect(result.stderr.contains("note: expected: *** (bytes)"), "\(result.stderr)")
            let hexOfSecret = "7375706572736563726574"
            #expect(!result.stdout.contains(hexOfSecret) && !result.stderr.contains(hexOfSecret))
            #expect(!result.stdout.contains("supersecret") && !result.stderr.contains("supersecret"))
        }
    }

    @Test func replaceRegexReplacesEveryMatchWithGroups() async throws {
        try await withLoopbackServer(routes: ["/store": Self.store]) { server in
            let result = try await Self.run("""
            print .owner.phone | replaceRegex "[0-9]" "#"
            print .owner.phone | replaceRegex "([0-9]+)-([0-9]+)-([0-9]+)" "$3/$2/$1"
            print .owner.since | replaceRegex "x*" "."
            """, server)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == """
            ###-####-####
            5678/1234/010
            .2.0.2.6.-.1.1.-.2.5.T.0.8.:.0.0.:.0.0.Z.

            """, "\(result.stdout)")
        }
    }

    @Test func jsonpathTakesQueriesCopiedFromElsewhere() async throws {
        try await withLoopbackServer(routes: ["/store": Self.store]) { server in
            let result = try await Self.run("""
            print . | jsonpath "$.books[?@.price < 10].title"
            print body | jsonpath "$.owner.phone"
            print . | jsonpath "$..tags[*]" | length
            print . | jsonpath "$.books[?search(@.title, 'ss')].id"
            expect . | jsonpath "$.books[?count(@.tags[*]) == 0]" | length == 1
            expect . | jsonpath "$.books[0].isbn" not exists
            print . | jsonpath "$.books[?lenght(@.x)]"
            """, server)
            #expect(result.status == 3, "\(result.stderr)")
            #expect(result.stdout == """
            ["Dune"]
            010-1234-5678
            3
            [3]

            """, "\(result.stdout)")
            #expect(result.stderr.contains("'| jsonpath': '$.books[?lenght(@.x)]' is not a JSONPath query: unknown function 'lenght'"),
                    "\(result.stderr)")
        }
    }

    @Test func variablesKeepTheirTypes() async throws {
        try await withLoopbackServer(routes: ["/store": Self.store]) { server in
            let result = try await Self.run("""
            let n = 3
            let s = "3"
            let first = .books[0]
            expect $n == 3
            expect $n isInteger
            expect $s == "3"
            expect $s isString
            expect $first isObject
            expect $first == '{"id":1,"title":"Dune","price":9.5,"tags":["sf","classic"]}'
            expect $arg isNumber
            expect $forced isString
            expect $list isList
            expect $word isString
            for id in .books[*].id { expect $id isInteger }
            echo "$s $n $first"
            vars
            expect $s == 3
            """, server, arguments: ["--var", "arg=42", "--var", #"forced:="42""#, "--var", #"list:=[1,"a"]"#, "--var", "word=abc"])
            #expect(result.status == 4, "\(result.stderr)")
            #expect(result.stdout.hasPrefix(#"3 3 {"id":1,"title":"Dune","price":9.5,"tags":["sf","classic"]}"# + "\n"), "\(result.stdout)")
            // `vars` writes each value so that `let` reads it back with its type.
            #expect(result.stdout.contains("\nn = 3\ns = \"3\"\n"), "\(result.stdout)")
            #expect(result.stdout.contains("\nforced = \"42\"\n") && result.stdout.contains("\narg = 42\n"), "\(result.stdout)")
            #expect(result.stderr.contains("note: expected: 3 (number)\nnote: actual:   \"3\" (string)"), "\(result.stderr)")
            let bad = try await WSHProcess.run(["-c", "echo x", "--var", "n:={oops"])
            #expect(bad.status == 1)
            #expect(bad.stderr.contains("script arguments are NAME=VALUE or NAME:=JSON, got 'n:={oops'"), "\(bad.stderr)")
        }
    }
}
