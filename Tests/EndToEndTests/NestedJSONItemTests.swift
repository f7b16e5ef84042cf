import Foundation
import Testing
import TestSupport

/// HTTPie 3's nested JSON items (`address[city]=Seoul`, `tags[]=a`, `[]:=1`): the body wsh sends to
/// the echo route is the body `http --offline --print=B` prints for the same items.
@Suite struct NestedJSONItemTests {
    static let cases: [[String]] = [
        ["address[city]=Seoul", "address[zip]:=12345", "name=Ana"],
        ["tags[]=a", "tags[]=b"],
        ["tags[1]=b"],
        ["a[b][c]:=1", "a[b][d]=2", "x[0][y]=1", "x[0][z]=2"],
        ["[]:=1", "[]=q"],
        ["[1]=x"],
        [#"\[k\]=v"#, #"c\[d=1"#, #"a[\1]=3"#],
        ["a[]:=[1,2]", "a[]=x", "a[][k]=v"],
        ["items[0][name]=pen", "items[2][name]=ink", "n:=null"],
        ["a[b]=1", "a[b]=2"],
        ["n=1", "o[p]=2", "o[q][]:=true"],
    ]

    @Test(.enabled(if: httpieProgram != nil, "HTTPie is not installed: scripts/ensure-httpie.sh installs it"), arguments: cases)
    func itemsNestAsHTTPieNestsThem(_ items: [String]) async throws {
        let expected = try await httpieBody(items)
        try await withLoopbackServer { server in
            let result = try await WSHProcess.run(["post", "\(server.baseURL)/echo/nested"] + items)
            #expect(result.status == 0, "\(items): \(result.stderr)")
            let echo = try AdHocRequestTests.Echo(json: result.stdout)
            #expect(echo.headers["content-type"] == "application/json", "\(items)")
            let sent = try JSONSerialization.jsonObject(with: Data(echo.body.utf8), options: .fragmentsAllowed) as? NSObject
            #expect(sent == expected, "\(items): wsh sent \(echo.body)")
        }
    }

    /// What HTTPie sends for `POST example.org ITEMS`, parsed.
    func httpieBody(_ items: [String]) async throws -> NSObject? {
        let program = try #require(httpieProgram)
        let result = try await runHTTPie(program, ["--ignore-stdin", "--offline", "--print=B", "POST", "example.org"] + items)
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: .fragmentsAllowed) as? NSObject
    }

    @Test func aMalformedPathIsAnErrorWithACaretAtItsPlace() async throws {
        // The item starts at column 27; the caret goes under the place in it, as HTTPie's does.
        let cases: [(item: String, message: String, offset: Int, caret: String)] = [
            ("a[b=1", "'a[b' is not a JSON path: expected ']'", 3, "^"),
            ("a[x]y=1", "'a[x]y' is not a JSON path: expected '['", 4, "^"),
            ("a[-1]=1", "'a[-1]' is not a JSON path: an index cannot be negative", 2, "^~"),
            ("a[]]=1", "'a[]]' is not a JSON path: expected '['", 3, "^"),
        ]
        for testCase in cases {
            let line = "post http://127.0.0.1:1/x \(testCase.item)"
            let result = try await WSHProcess.run(["-c", line])
            #expect(result.status == 3)
            let column = 27 + testCase.offset
            #expect(result.stderr.hasPrefix("<command line>:1:\(column): error: \(testCase.message)\n   \(line)\n"
                + "   " + String(repeating: " ", count: column - 1) + testCase.caret + "\n"), "\(result.stderr)")
            #expect(result.stderr.contains("note: a path is name[key], name[0] or name[] (append)"))
        }
        let clash = try await WSHProcess.run(["-c", "post http://127.0.0.1:1/x a=2 a[b]=1"])
        #expect(clash.stderr.hasPrefix("<command line>:1:32: error: 'key' access on 'a' needs an object, and an earlier item made it a string\n"),
                "\(clash.stderr)")
        let rootClash = try await WSHProcess.run(["-c", "post http://127.0.0.1:1/x []=1 a=2"])
        #expect(rootClash.stderr.hasPrefix("<command line>:1:32: error: 'key' access on the body needs an object, and an earlier item made it an array\n"),
                "\(rootClash.stderr)")
    }

    @Test func aFormKeepsBracketsInItsNames() async throws {
        try await withLoopbackServer { server in
            let result = try await WSHProcess.run(["post", "\(server.baseURL)/echo/f", "--form", "a[b]=1"])
            #expect(try AdHocRequestTests.Echo(json: result.stdout).body == "a[b]=1", "\(result.stdout)")
        }
    }
}

/// Runs HTTPie's `http` with `arguments`, as the system shell would pass them.
func runHTTPie(_ program: String, _ arguments: [String]) async throws -> WSHProcess.Result {
    try await offPool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        return try WSHProcess.runToEnd(process, stdin: "")
    }
}
