import Foundation
import TestSupport
import Testing
@testable import WeatherShell

/// Checks that must fail on a wrong answer, and hold on the right one: each row an answer, a
/// check that passed on it though it was wrong (found by an adversarial tester), and the check
/// that holds. A test tool's first duty.
@Suite struct WrongAnswerTests {
    /// `{"a":1}`, gzip-compressed.
    static let gzipped: [UInt8] = [31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 171, 86, 74, 84, 178, 50, 172, 5, 0, 175, 172, 27, 86, 7, 0, 0, 0]
    static let routes: [String: StaticRoute] = [
        "/t2": StaticRoute(body: #"{"tok":null,"b":false,"num":123,"arr":["not-admin"],"e":"[]","x":"[1,2]","kelvin":"\u212aEVIN","nfd":"cafe\u0301","nbsp":"two \u00a0x"}"#),
        "/json-text": StaticRoute(headers: [("Content-Type", "application/json"), ("X-Json", #"{"a":1}"#)],
                                  body: Array(#"{"good":{"a":1,"tags":["x"]},"bad":"{\"a\":1,\"tags\":[\"x\"]}","badl":"[1,2]","s":"{}","o":{}}"#.utf8)),
        "/names": StaticRoute(body: #"{"cafe\u0301":"decomposed","":11,"x":{"y":1},"dup":1,"dup":2}"#),
        "/none": StaticRoute(body: #"{"items":[],"full":[{"st":"ok","n":1},{"n":2},{"st":"ok","n":3}]}"#),
        "/items": StaticRoute(body: #"{"items":[{"id":1,"st":"ok"},{"id":2}],"s":"abc"}"#),
        "/numbers": StaticRoute(body: #"{"price":"12.5","pad":" 12 ","exp":"1e3","whole":"12","signed":"-012","n":12.9,"big":12345678901234567890}"#),
        "/dates": StaticRoute(body: #"{"feb":"2025-02-29","hour":"2025-01-02T24:00:00Z","ok":"2024-02-29T23:59:59Z"}"#),
        "/repeated": StaticRoute(headers: [("Cache-Control", "public"), ("Cache-Control", "no-store"), ("Content-Type", "text/plain")], body: Array("ok".utf8)),
        "/html": StaticRoute(status: 502, contentType: "text/html", body: "<html><h1>502 Bad Gateway</h1></html>"),
        "/cookie": StaticRoute(headers: [("Set-Cookie", "token=; Path=/"), ("Set-Cookie", "session=deleted; Max-Age=0"), ("Content-Type", "application/json")],
                               body: Array("{}".utf8)),
        "/gz": StaticRoute(headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], body: gzipped),
        "/hello": StaticRoute(contentType: "text/plain", body: "hello\n"),
        "/latin1": StaticRoute(contentType: "application/json; charset=iso-8859-1", body: Array(#"{"name":"caf"#.utf8) + [0xE9] + Array(#""}"#.utf8)),
        "/notutf8": StaticRoute(contentType: "application/json", body: Array(#"{"name":"caf"#.utf8) + [0xE9] + Array(#""}"#.utf8)),
    ]

    /// What `script` did after a GET of `path`: how it ended and what it said.
    @ShellActor static func run(_ path: String, _ script: String, on server: TestServer) async -> (halt: Halt?, stderr: String) {
        let shell = ShellHarness()
        let halt = await shell.run("set output quiet\nget \(server.baseURL)\(path)\n\(script)\n")
        return (halt, shell.stderr)
    }

    static let rows: [(path: String, wrong: [String], right: [String])] = [
        // Tests of text hold only on text.
        ("/t2", [#"expect .tok matches "^[a-z]+$""#, "expect .tok startsWith nu", "expect .num startsWith 12", "expect .b contains f",
                 #"expect .arr matches "admin""#, "expect status startsWith 2"],
         [#"expect .arr contains "not-admin""#, "expect status < 300"]),
        // A list written bare is a list, never a string; so is its JSON text, quoted (`.x` is the
        // string "[1,2]", whose text `| toString` compares).
        ("/t2", ["expect .e == []", "expect .x == [1,2]", #"expect .x == "[1,2]""#], [#"expect .x | toString == "[1,2]""#, #"expect .arr == '["not-admin"]'"#]),
        // Quoted JSON text of an object or list is that object or list: a double-encoded string is
        // not it, `==` or `!=`, from a path, a JSONPath or a variable; the body and headers are text.
        ("/json-text", [#"expect .bad == '{"a":1,"tags":["x"]}'"#, "expect .badl == '[1,2]'", #"expect .s == "{}""#,
                        #"expect $.bad == '{"a":1,"tags":["x"]}'"#, #"expect .good != '{"a":1,"tags":["x"]}'"#,
                        "let d = .bad\nexpect $d == '{\"a\":1,\"tags\":[\"x\"]}'"],
         [#"expect .good == '{"a":1,"tags":["x"]}'"#, #"expect .bad != '{"a":1,"tags":["x"]}'"#, #"expect .o == "{}""#,
          #"expect .s | toString == "{}""#, #"expect .good | toString == '{"a":1,"tags":["x"]}'"#,
          #"expect body == '{"good":{"a":1,"tags":["x"]},"bad":"{\"a\":1,\"tags\":[\"x\"]}","badl":"[1,2]","s":"{}","o":{}}'"#,
          #"expect header X-Json == '{"a":1}'"#]),
        // A node list of one compared with a list is a list, its strings as its numbers, bare or quoted.
        ("/items", [#"expect .items[? .id == 1].st != ["ok"]"#, #"expect .items[? .id == 1].st == ["no"]"#,
                    #"expect .items[? .id == 1].st != '["ok"]'"#, #"expect $.items[?@.id == 1].st != ["ok"]"#],
         [#"expect .items[? .id == 1].st == ["ok"]"#, #"expect .items[? .id == 1].st == '["ok"]'"#, #"expect $.items[?@.id == 1].st == ["ok"]"#,
          #"expect .items[0:1].st == ["ok"]"#, #"expect .items[? .id == 1].id == [1]"#, #"expect .items[? .id == 1].st != ["no"]"#,
          #"expect .items[? .id == 1].st == "ok""#]),
        // Keys match by their Unicode scalars, as `==` and JSONPath compare them; `.""` is the
        // member named "", never the object itself.
        ("/names", ["expect .caf\u{E9} exists", "expect .\"caf\u{E9}\" == decomposed", "expect .[\"caf\u{E9}\"] == decomposed",
                    "expect ..caf\u{E9} exists", #"expect ."" isObject"#, #"expect .x."" exists"#, #"expect .[""] isObject"#],
         ["expect .\"cafe\u{301}\" == decomposed", "expect .caf\u{E9} not exists", #"expect ."" == 11"#, #"expect .[""] == 11"#,
          #"expect $[''] == 11"#, #"expect .x."" not exists"#]),
        // A repeated name is one member, the last value, for every check.
        ("/names", ["expect .dup == 1", "expect . | length == 5", "expect . | keys | length == 5", #"expect . | values contains 1"#],
         ["expect .dup == 2", "expect . | length == 4", #"expect . | keys == ["cafe\#u{301}","","x","dup"]"#,
          #"expect . == '{"cafe\#u{301}":"decomposed","":11,"x":{"y":1},"dup":2}'"#]),
        // A list with strings written as JSON is that list, not the text `[not-admin]`.
        ("/t2", [#"expect .arr != ["not-admin"]"#, #"expect .x == ["1","2"]"#], [#"expect .arr == ["not-admin"]"#]),
        // Strings by their Unicode scalars.
        ("/t2", [#"expect .kelvin == "KEVIN""#, "expect .kelvin startsWith K", "expect .nfd == \"caf\u{E9}\""],
         ["expect .nfd startsWith cafe", "expect .nfd contains e"]),
        // Nothing is unequal to anything in a filter, as in JSONPath; a regex group that took no part is nothing.
        ("/items", [#"expect .items[? .st != "ok"] isEmpty"#, #"expect .s | regex "b(x)?" exists"#],
         [#"expect .items[? .st != "ok"].id == 2"#, #"expect .s | regex "b(c)?" == c"#]),
        // Dates that are none.
        ("/dates", ["expect .feb isDate", "expect .hour isIsoDate"], ["expect .ok isDate"]),
        // A repeated header is all of its values.
        ("/repeated", [#"expect header Cache-Control not contains "no-store""#, #"expect header Cache-Control == "public""#],
         [#"expect header Cache-Control == "public, no-store""#]),
        // Cookies named like secrets are compared as they are.
        ("/cookie", ["expect cookie token not isEmpty", #"expect cookie token == "***""#, #"expect cookie session != "deleted""#],
         ["expect cookie token isEmpty", #"expect cookie session == "deleted""#]),
        // JSON in the charset its Content-Type names; not U+FFFD.
        ("/latin1", ["expect .name == \"caf\u{FFFD}\""], ["expect .name == \"caf\u{E9}\""]),
        // The body as bytes.
        ("/hello", ["expect body != hex:68656c6c6f0a", "expect body == hex:68656c6c6f"], ["expect body == hex:68656c6c6f0a"]),
        // A digest against a byte literal compares the digest's bytes, as Hurl's `sha256 == hex,…;`
        // does; quoted, it is the digest's hex text.
        ("/hello", ["expect bytes | sha256 == hex:5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be04",
                    "expect bytes | sha256 != hex:5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03",
                    "expect bytes | md5 == hex:b1946ac92492d2347c6235b4d2611185", "expect body | sha256 == base64:WJG1tSLV3whtD/CxEPvZ0hu0/HFjrzTQgoai6Eb2vgQ="],
         ["expect bytes | sha256 == hex:5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03",
          "expect bytes | sha256 == hex:5891B5B522D5DF086D0FF0B110FBD9D21BB4FC7163AF34D08286A2E846F6BE03",
          "expect bytes | sha256 == base64:WJG1tSLV3whtD/CxEPvZ0hu0/HFjrzTQgoai6Eb2vgM=", "expect bytes | md5 == hex:b1946ac92492d2347c6235b4d2611184",
          "expect body | sha256 == hex:5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03",
          #"expect bytes | sha256 == "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03""#,
          "if bytes | sha256 == hex:5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03 { echo same } else { exit 4 }"]),
    ]

    @Test(arguments: rows.indices)
    func aWrongAnswerFailsAndTheRightOneHolds(_ index: Int) async throws {
        let row = Self.rows[index]
        try await TestServer.with(routes: Self.routes) { server in
            for check in row.wrong {
                let result = await Self.run(row.path, check, on: server)
                guard case .failure(.expectation)? = result.halt else { Issue.record("\(row.path): '\(check)' did not fail as a check: \(result.stderr)"); continue }
            }
            for check in row.right {
                let result = await Self.run(row.path, check, on: server)
                #expect(result.halt == nil, "\(row.path): '\(check)' failed on the right answer: \(result.stderr)")
            }
        }
    }

    /// Errors where a check cannot be made: a JSONPath on a body that is not JSON, rawbytes of an
    /// answer decoded on its way to a file; a path into a variable holding text is that text.
    @Test func aCheckThatCannotBeMadeIsAnError() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            for (path, script, said) in [
                ("/html", #"expect body | jsonpath "$.error" not exists"#, "needs JSON, and the text is not JSON"),
                ("/html", "let raw = body\nexpect $raw.error not exists", "expectation failed"),
                ("/notutf8", "expect .name isString", "the string is not UTF-8"),
            ] {
                let result = await Self.run(path, script, on: server)
                #expect(result.halt != nil && result.stderr.contains(said), "\(script): \(result.stderr)")
            }
            // A path into text is the text, as a file name is written: `$name.json`.
            let named = await Self.run("/items", "let name = report\nlet file = $name.json\nexpect $file == report.json", on: server)
            #expect(named.halt == nil, "\(named.stderr)")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("gz-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: file) }
            let written = await Self.run("/gz > \(file.path)", "expect rawbytes startsWith hex:1f8b", on: server)
            #expect(written.halt != nil && written.stderr.contains("its raw bytes were not kept"), "\(written.stderr)")
            let kept = await Self.run("/gz", "expect rawbytes startsWith hex:1f8b\nexpect .a == 1", on: server)
            #expect(kept.halt == nil, "\(kept.stderr)")
            // `body == @FILE` compares the body with the file's bytes, not with the text `@FILE`.
            let hello = FileManager.default.temporaryDirectory.appendingPathComponent("hello-\(UUID().uuidString).txt")
            defer { try? FileManager.default.removeItem(at: hello) }
            try Data("hello\n".utf8).write(to: hello)
            let same = await Self.run("/hello", "expect body == @\(hello.path)", on: server)
            #expect(same.halt == nil, "\(same.stderr)")
            let differs = await Self.run("/hello", "expect body != @\(hello.path)", on: server)
            #expect(differs.halt != nil, "body != @FILE held on the file's own bytes")
        }
    }

    /// Two strings that show the same (NFC and NFD, a no-break space and a space) fail with a note that says where they differ.
    @Test func stringsThatShowAlikeSayWhereTheyDiffer() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            let result = await Self.run("/t2", "expect .nfd == \"caf\u{E9}\"", on: server)
            guard case .failure(.expectation)? = result.halt else { Issue.record("\(result.stderr)"); return }
            #expect(result.stderr.contains("note: they show alike but differ at character 4: expected U+00E9, actual U+0065 U+0301"), "\(result.stderr)")
            let plain = await Self.run("/t2", "expect .nfd == cafe", on: server)
            #expect(!plain.stderr.contains("show alike"), "\(plain.stderr)")
            // A no-break space shows as a space (xpath over HTML's `&nbsp;`): no note said so.
            let spaced = await Self.run("/t2", "expect .nbsp == \"two  x\"", on: server)
            guard case .failure(.expectation)? = spaced.halt else { Issue.record("\(spaced.stderr)"); return }
            #expect(spaced.stderr.contains("note: they show alike but differ at character 5: expected U+0020 U+0078, actual U+00A0 U+0078"),
                    "\(spaced.stderr)")
        }
    }

    /// `| toInt` reads text as Hurl does, an integer or an error: `"12.5"` and `" 12 "` were 12, so
    /// `expect .price | toInt == 12` held on a price of 12.5. A JSON number is cut toward zero, as Hurl cuts a float.
    @Test func toIntOfTextThatIsNoIntegerIsAnError() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            for (check, given) in [(".price", #""12.5""#), (".pad", #"" 12 ""#), (".exp", #""1e3""#)] {
                let result = await Self.run("/numbers", "expect \(check) | toInt == 12", on: server)
                #expect(result.halt != nil && result.stderr.contains("found a string: \(given)"), "\(check): \(result.stderr)")
                if case .failure(.expectation)? = result.halt { Issue.record("\(check) | toInt failed as a check, not as an error") }
            }
            for check in ["expect .whole | toInt == 12", "expect .signed | toInt == -12", "expect .n | toInt == 12",
                          "expect .price | toFloat == 12.5", "expect .pad | trim | toInt == 12"] {
                let result = await Self.run("/numbers", check, on: server)
                #expect(result.halt == nil, "\(check): \(result.stderr)")
            }
        }
    }

    /// After `| toFloat` the number compared with is read as a double too (docs tester's F16):
    /// `== 12345678901234567891` failed on `12345678901234567890 | toFloat`, the same double, with
    /// a note saying '| toFloat' compares as doubles; a different double still fails.
    @Test func afterToFloatALiteralComparesAsADouble() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            for check in ["expect .big | toFloat == 12345678901234567891", "expect .n | toFloat == 12.9000000000000003552713678800500929355621337890625",
                          "expect .n | toFloat >= 12.9000000000000003552713678800500929355621337890625", "expect .big | toFloat != 12345678901234569999"] {
                let result = await Self.run("/numbers", check, on: server)
                #expect(result.halt == nil, "\(check): \(result.stderr)")
            }
            for check in ["expect .n | toFloat == 12.91", "expect .big == 12345678901234567891"] {
                let result = await Self.run("/numbers", check, on: server)
                guard case .failure(.expectation)? = result.halt else { Issue.record("\(check): \(result.stderr)"); continue }
            }
        }
    }

    /// `for` over a list that a key no element has made empty (`.full[*].stauts`, a typo) is an
    /// error, as `for x in .stauts` is, and so are `let` and `print` of it: the loop's checks ran
    /// zero times and the file passed. A list empty in the answer (`.items[*]` of `[]`) is none.
    @Test func aKeyNoElementHasIsAnErrorForForAndLet() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            for script in [#"for st in .full[*].stauts { expect $st != "error" }"#, "let y = .full[*].nope", "print .full[*].nope",
                           "let v = .\nfor st in $v.full[*].stauts { echo $st }"] {
                let result = await Self.run("/none", script, on: server)
                #expect(result.halt != nil && result.stderr.contains("no key '"), "\(script): \(result.stderr)")
            }
            // So is a `[? ]` that kept nothing because its condition reads a key no element has, one
            // close to a key they have (`stt` for `st`).
            for script in [#"for st in .full[? .stt == "ok"] { expect $st.n > 100 }"#, #"let y = .full[? .stt == "ok"]"#,
                           #"print .[*][? .stt == "ok"].n"#, "print .full[? .nn > 1]", "let v = .\nfor x in $v.full[? .nn > 1] { echo $x }"] {
                let result = await Self.run("/none", script, on: server)
                #expect(result.halt != nil && result.stderr.contains("elements '[? ]' went over"), "\(script): \(result.stderr)")
                if case .failure(.expectation)? = result.halt { Issue.record("\(script) failed as a check, not as an error") }
            }
            // `for` over an object says how to go over its keys or values.
            let object = await Self.run("/none", "for y in .full[0] { echo $y }", on: server)
            #expect(object.halt != nil && object.stderr.contains("for x in .full[0] | keys, for x in .full[0] | values"), "\(object.stderr)")
            let keys = await Self.run("/none", #"for y in .full[0] | keys { expect $y != "x" }"#, on: server)
            #expect(keys.halt == nil, "\(keys.stderr)")
            // A check on it names the key in its note.
            let check = await Self.run("/none", #"expect .full[? .stt == "error"] isList"#, on: server)
            #expect(check.stderr.contains("no key 'stt' in any of the 3 elements '[? ]' went over"), "\(check.stderr)")
            for script in ["for x in .items[*] { expect $x == 1 }", "for x in .items[*].n { expect $x == 1 }",
                           #"for st in .full[*].st { expect $st == "ok" }"#, "let y = .items[*].n\nexpect $y == []",
                           #"let y = .full[*].st"# + "\n" + #"expect $y == ["ok","ok"]"#,
                           #"for x in .full[? .st == "error"] { exit 4 }"#, "for x in .full[? .deleted exists] { exit 4 }",
                           "for x in .items[? .nope == 1] { exit 4 }", #"expect .full[? .st == "error"] isEmpty"#,
                           // An optional key no element has, and no key close to it: rightly nothing.
                           #"for x in .full[? .error == "fatal"] { exit 4 }"#, #"let y = .full[? .parent == 1]"#,
                           "expect .full[? .deleted exists] isEmpty", #"expect .full[? .stauts not exists] | length == 3"#] {
                let result = await Self.run("/none", script, on: server)
                #expect(result.halt == nil, "\(script): \(result.stderr)")
            }
        }
    }

    /// `..stauts` (and `$..stauts`), a key no member has at any depth while one has `st`... close
    /// to it, went round zero times in `for`, gave `[]` to `let` and held for `isEmpty`: the file
    /// passed with no check. It is the error `.stauts` is, with a did-you-mean over the keys seen.
    @Test func aDescendantKeyNoMemberHasIsAnError() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            for script in [#"for s in ..stt { expect $s == "ok" }"#, "let all = ..stt", "print ..stt", "expect ..stt isEmpty",
                           "expect ..stt | length == 0", #"for s in .full..stt { expect $s == "ok" }"#,
                           #"for s in $..stt { expect $s == "ok" }"#, "expect $..stt isEmpty"] {
                let result = await Self.run("/none", script, on: server)
                #expect(result.halt != nil && result.stderr.contains("no key 'stt' at any depth (did you mean 'st'?)"), "\(script): \(result.stderr)")
                if case .failure(.expectation)? = result.halt { Issue.record("\(script) failed as a check, not as an error") }
            }
            // A key that is there, at any depth, goes round its values; an absent key far from any
            // is an empty list a check may ask about.
            // `for`, `let` and `print` of such a key go over nothing, as `.[*].key` on an empty list does (review):
            // a cleanup loop over an answer that has none.
            for script in [#"for s in ..st { expect $s == "ok" }"#, #"expect ..st == ["ok","ok"]"#, #"expect $..st == ["ok","ok"]"#,
                           "expect ..error isEmpty", "expect $..error isEmpty", "expect ..items == [[]]",
                           "for e in ..errors { echo $e }", "let none = ..errors", "print ..errors", "for e in $..errors { echo $e }"] {
                let result = await Self.run("/none", script, on: server)
                #expect(result.halt == nil, "\(script): \(result.stderr)")
            }
        }
    }

    /// A list a key no element has made empty, while one has a key close to it, is an error in a
    /// check too: `isEmpty`, `== []`, `| length == 0` and `not exists` held on `[? .stt == "error"]`
    /// (a typo for `st`) whatever the answer. A key none has and none is close to may be absent.
    @Test func anEmptinessCheckOnAListATypoMadeEmptyIsAnError() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            for script in [#"expect .full[? .stt == "error"] isEmpty"#, #"expect .full[? .stt == "error"] == []"#,
                           #"expect .full[? .stt == "error"] | length == 0"#, #"expect .full[? .stt == "error"] not exists"#,
                           "expect .full[*].nn == []", "let v = .\nexpect $v.full[? .stt == \"error\"] isEmpty",
                           "expect $.full[*].nn == []", "expect $.full[*].nn isEmpty", "expect $.full[*].nn | length == 0",
                           #"if .full[? .stt == "error"] isEmpty { echo none }"#] {
                let result = await Self.run("/none", script, on: server)
                #expect(result.halt != nil && result.stderr.contains("(did you mean '"), "\(script): \(result.stderr)")
                #expect(result.stderr.contains("to check that none has '"), "\(script): \(result.stderr)")
                if case .failure(.expectation)? = result.halt { Issue.record("\(script) failed as a check, not as an error") }
            }
            // A key renamed to a close one, checked gone (`user_name` after `username`), is no typo.
            for script in [#"expect .full[? .st == "error"] isEmpty"#, "expect .full[? .stt exists] isEmpty", "expect .full[*].parent == []",
                           "expect .full[*].nn not exists", "expect not .full[*].nn exists",
                           #"expect .full[? .parent == 1] not exists"#, "expect .items[? .stt == 1] isEmpty",
                           "expect $.full[*].parent == []", "expect $.errors[*] isEmpty", "expect $.full[*].nn not exists"] {
                let result = await Self.run("/none", script, on: server)
                #expect(result.halt == nil, "\(script): \(result.stderr)")
            }
        }
    }

    /// `[? ]` in a path into a variable, as in a path into the answer: `$d.items[? .n > 1].n`.
    @Test func aFilterInAPathIntoAVariable() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            for script in ["let d = .\nexpect $d.full[? .n > 1].n == [2,3]", #"let d = .\#nexpect $d.full[? .st == "ok"] | length == 2"#,
                           "let d = .full\nexpect $d[? .n >= 3].n == 3", "let d = .\nfor x in $d.full[? .n > 2] { expect $x.n == 3 }",
                           "let name = report\nlet file = $name.json\nexpect $file == report.json"] {
                let result = await Self.run("/none", script, on: server)
                #expect(result.halt == nil, "\(script): \(result.stderr)")
            }
            let wrong = await Self.run("/none", "let d = .\nexpect $d.full[? .n > 1].n == [2]", on: server)
            guard case .failure(.expectation)? = wrong.halt else { Issue.record("\(wrong.stderr)"); return }
        }
    }

    /// `!=` one value (or `not ==`) on a list of two or more values reached would hold whatever the
    /// answer: an error, as `<` is, that says how to check each value; in a `[? ]` it is a filter.
    @Test func notEqualOnAListOfValuesReachedIsAnError() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            for script in ["expect .full[*].n != 2", "expect .full[*].n != 10", "expect not .full[*].n == 2",
                           #"if .full[*].st != "ok" { echo different }"#, #"expect $.full[*].n != 2"#] {
                let result = await Self.run("/none", script, on: server)
                #expect(result.halt != nil && result.stderr.contains("always holds") && result.stderr.contains("not contains"),
                        "\(script): \(result.stderr)")
                if case .failure(.expectation)? = result.halt { Issue.record("\(script) failed as a check, not as an error") }
            }
            let contains = await Self.run("/none", "expect .full[*].n not contains 2", on: server)
            guard case .failure(.expectation)? = contains.halt else { Issue.record("not contains held: \(contains.stderr)"); return }
            for script in ["expect .full[*].n not contains 10", "expect .full[*].n != [1,2]", "expect .full[? .n == 2].n != 3",
                           "expect .full[? .n != 2] | length == 2", "expect .full[? .[*] != 1] | length == 3"] {
                let result = await Self.run("/none", script, on: server)
                #expect(result.halt == nil, "\(script): \(result.stderr)")
            }
        }
    }

    /// A test of text (`startsWith`, `matches`, `isIsoDate`), of text or a collection (`contains`,
    /// `isEmpty`) on a value of another type fails with `not` as without it, as Hurl's type
    /// mismatch does: `expect status not startsWith 5` held on a 503, `.items not isEmpty` on null.
    /// In `if` it is false either way; in a `[? ]` it is false and `not` makes it true, as in JSONPath.
    @Test func aTestOfAnotherTypeFailsWithNotAsWithout() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            for (path, check) in [("/html", "expect status not startsWith 5"), ("/t2", "expect .num not startsWith 9"),
                                  ("/t2", #"expect .tok not matches "x""#), ("/t2", "expect .tok not isEmpty"), ("/t2", "expect .b not isEmpty"),
                                  ("/t2", "expect .num not contains 7"), ("/t2", "expect .b not endsWith x"), ("/t2", "expect .num not isIsoDate"),
                                  ("/t2", "expect .tok not isUuid")] {
                let result = await Self.run(path, check, on: server)
                guard case .failure(.expectation)? = result.halt else { Issue.record("'\(check)' did not fail as a check: \(result.stderr)"); continue }
                #expect(result.stderr.contains("it fails with 'not' as without it"), "\(check): \(result.stderr)")
            }
            for (path, script) in [("/html", "expect status | toString startsWith 5"), ("/html", "expect status >= 500"),
                                   ("/t2", "expect .arr not isEmpty"), ("/t2", "expect .num not isString"), ("/t2", "expect .tok not isList"),
                                   ("/t2", "expect .arr not contains null"), ("/t2", "if .tok isEmpty { exit 6 }\nif .tok not isEmpty { echo optional }"),
                                   ("/t2", "if .num startsWith 1 { exit 5 }\nif .num not isUuid { echo numeric } else { exit 6 }"),
                                   ("/none", #"expect .full[? .n not startsWith "x"] | length == 3"#)] {
                let result = await Self.run(path, script, on: server)
                #expect(result.halt == nil, "\(script): \(result.stderr)")
            }
        }
    }

    /// A node list of one (`.items[? .id == 1].st`) is that value to a type test, as to `==` and
    /// `startsWith`, as in Hurl: `not isString` held on `["ok"]`. `contains`, `isList` and
    /// `isEmpty` ask about the list. On two or more values a negated type test always holds: an error.
    @Test func aTypeTestOnANodeListOfOneTestsItsValue() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            for check in ["expect .items[? .id == 1].st not isString", "expect .items[? .id == 1].id isString",
                          "expect $.items[?@.id == 1].st isNumber", "expect .items[? .id == 1] not isObject"] {
                let result = await Self.run("/items", check, on: server)
                guard case .failure(.expectation)? = result.halt else { Issue.record("'\(check)' did not fail as a check: \(result.stderr)"); continue }
            }
            for check in ["expect .items[? .id == 1].st isString", "expect .items[? .id == 1].id isInteger", "expect $.items[?@.id == 1].st isString",
                          "expect .items[? .id == 1] isObject", "expect .items[? .id == 1].id not contains 6", "expect .items[? .id == 1].id contains 1",
                          #"expect .items[? .id == 1] contains '{"id":1,"st":"ok"}'"#, "expect .items[? .id == 2] isList",
                          "expect .items[? .id == 1].st not isEmpty"] {
                let result = await Self.run("/items", check, on: server)
                #expect(result.halt == nil, "\(check): \(result.stderr)")
            }
            for check in ["expect .items[*].id not isString", "expect $.items[*].id not isNull"] {
                let result = await Self.run("/items", check, on: server)
                #expect(result.halt != nil && result.stderr.contains("tests one value, and the query reached a list of 2"), "\(check): \(result.stderr)")
                if case .failure(.expectation)? = result.halt { Issue.record("\(check) failed as a check, not as an error") }
            }
        }
    }

    /// `contains` on a list of one text asks whether the text holds it or whether it is the value:
    /// where the two differ it is an error (`.users[? .id == 1].name not contains Bo` held on
    /// "Bob", tester C1); where they agree it is a check. A positive type test on two or more values
    /// never holds: an error (C7). A JSONPath typo before `[*]` is one (C3). A bad pattern is an
    /// error whatever the value (C9).
    @Test func questionsWithTwoReadingsOrNoAnswerAreErrors() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            for (path, script, said) in [
                ("/items", "expect .items[? .id == 1].st not contains o", "asks two things"),
                ("/items", "expect .items[? .id == 1].st contains o", "asks two things"),
                ("/items", "expect .items[*].id isNumber", "tests one value, and the query reached a list of 2"),
                ("/t2", #"expect .num not matches "(""#, "is not a valid regular expression"),
                ("/t2", #"if .nope matches "(" { echo no }"#, "is not a valid regular expression"),
                // A key close to one there, before `[*]`, is nothing there, as `.itemz[*]` is (C3).
                ("/items", "let n = $.itemz[*] | length", "(did you mean 'items'?)"),
            ] {
                let result = await Self.run(path, script, on: server)
                #expect(result.halt != nil && result.stderr.contains(said), "\(script): \(result.stderr)")
                if case .failure(.expectation)? = result.halt { Issue.record("\(script) failed as a check, not as an error") }
            }
            for script in ["expect .items[? .id == 1].st contains ok", "expect .items[? .id == 1].st not contains x",
                           "expect $.errors[*] isEmpty", "let n = $.errors[*] | length\nexpect $n == 0",
                           "expect .items[*].st not contains o", "expect .items[*].id not contains 3"] {
                let result = await Self.run("/items", script, on: server)
                #expect(result.halt == nil, "\(script): \(result.stderr)")
            }
            // `includes` is a list's, as Hurl's: `contains` finds text in text.
            for (path, check) in [("/t2", "expect .x includes 2"), ("/t2", "expect .x not includes 9"), ("/t2", "expect .arr includes admin"),
                                  ("/items", "expect .items[*].id includes 3"), ("/t2", "expect .kelvin includes K")] {
                let result = await Self.run(path, check, on: server)
                guard case .failure(.expectation)? = result.halt else { Issue.record("'\(check)' did not fail as a check: \(result.stderr)"); continue }
            }
            for (path, check) in [("/t2", #"expect .arr includes "not-admin""#), ("/items", "expect .items[*].id includes 2"),
                                  ("/items", "expect .items[*].id not includes 3"), ("/items", #"expect .items includes '{"id":2}'"#),
                                  ("/t2", "expect .x contains 2")] {
                let result = await Self.run(path, check, on: server)
                #expect(result.halt == nil, "\(check): \(result.stderr)")
            }
            let wrong = await Self.run("/items", "expect .items[? .id == 1].st contains x", on: server)
            guard case .failure(.expectation)? = wrong.halt else { Issue.record("\(wrong.stderr)"); return }
        }
    }

    /// In `if` and `until`, a value that is not there is unequal to nothing (an error body without
    /// `state` must not end `until .state != "pending"`); in `[? ]` it is unequal to all, as in JSONPath.
    @Test func notEqualOnNothingHoldsOnlyInAFilter() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            let branch = await Self.run("/items", #"if .error != null { echo took it }"# + "\nexpect .s == abc", on: server)
            #expect(branch.halt == nil, "\(branch.stderr)")
            let until = await Self.run("/items", #"until .state != "pending" max 2 every 10ms { get "# + "\(server.baseURL)/items }", on: server)
            guard case .failure(.expectation)? = until.halt else { Issue.record("until ended on a body without state: \(until.stderr)"); return }
        }
    }

    /// The parts of a secret reached by a path are secrets: masked wherever they show, and a
    /// variable made from one is a secret.
    @Test func aSecretsPartsStaySecret() async throws {
        EnvironmentOverlay.define("WSH_TEST_SECRET_OBJECT", #"{"tokens":["aaaa1111","bbbb2222"],"o":{"k":"cccc3333"}}"#)
        try await TestServer.with(routes: Self.routes) { server in
            let shell = await ShellHarness()
            let halt = await shell.run("let s = env WSH_TEST_SECRET_OBJECT\nprint $s.tokens[0]\nfor t in $s.tokens { echo $t }\nlet o = $s.o\nprint $o.k\necho $o\nvars\n")
            let out = await shell.stdout + shell.stderr
            #expect(halt == nil, "\(out)")
            for secret in ["aaaa1111", "bbbb2222", "cccc3333"] { #expect(!out.contains(secret), "\(secret) shows: \(out)") }
            _ = server
        }
    }

    /// A value from `env` checked directly (`expect env T startsWith x`) showed in the failure, and
    /// the parts of a secret split into a list showed (`["Zebra","***","Horse"]`; tester C4, C5).
    @Test func aSecretCheckedDirectlyOrSplitStaysSecret() async throws {
        EnvironmentOverlay.define("WSH_TEST_SECRET_SPLIT", "Zebra-Horse42-Moose")
        let shell = await ShellHarness()
        let halt = await shell.run("set bail off\nexpect env WSH_TEST_SECRET_SPLIT startsWith x\nlet t = env WSH_TEST_SECRET_SPLIT\n"
                                   + "expect $t | split \"-\" == \"x\"\nprint $t | split \"-\"\n")
        let out = await shell.stdout + shell.stderr
        _ = halt
        #expect(out.contains("expectation failed"), "\(out)")
        for part in ["Zebra", "Horse42", "Moose"] { #expect(!out.contains(part), "\(part) shows: \(out)") }
    }

    /// A bare `exit` in a script after a failed check (bail off) exits with the check's code.
    @Test func aBareExitAfterAFailedCheckIsItsCode() async throws {
        try await TestServer.with(routes: Self.routes) { server in
            let result = await Self.run("/items", "set bail off\nexpect .s == x\nexit", on: server)
            guard case .exit(let code)? = result.halt else { Issue.record("\(String(describing: result.halt))"); return }
            #expect(code == FailureKind.expectation.exitCode)
        }
    }
}
