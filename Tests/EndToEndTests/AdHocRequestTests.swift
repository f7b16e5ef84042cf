import Foundation
import Testing
import TestSupport

/// `get URL items...` and the other method commands, `request METHOD`, `target NAME from last`:
/// what the built binary sends, compared with what curl sends for the same intention, on the
/// loopback server's echo route.
@Suite struct AdHocRequestTests {
    /// What the echo route saw, with the headers that say what the request meant (not the
    /// client's own: User-Agent, Accept, Host, Content-Length, Connection, Expect).
    struct Echo: Equatable, CustomStringConvertible {
        var method: String
        var path: String
        var query: String
        var headers: [String: String]
        var body: String

        static let clientHeaders: Set<String> = ["user-agent", "accept", "accept-encoding", "host", "content-length", "connection", "expect"]

        init(json text: String) throws {
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                throw NotAnEcho(text: text)
            }
            method = object["method"] as? String ?? ""
            path = object["path"] as? String ?? ""
            query = object["query"] as? String ?? ""
            var meaningful: [String: String] = [:]
            for pair in object["headers"] as? [[String]] ?? [] where pair.count == 2 {
                let name = pair[0].lowercased()
                guard !Self.clientHeaders.contains(name) else { continue }
                meaningful[name] = pair[1]
            }
            var text = object["body"] as? String ?? ""
            // Multipart boundaries are random: the same form has the same body with them named alike.
            if let type = meaningful["content-type"], let range = type.range(of: "boundary=") {
                let boundary = String(type[range.upperBound...])
                text = text.replacingOccurrences(of: boundary, with: "BOUNDARY")
                meaningful["content-type"] = type.replacingOccurrences(of: boundary, with: "BOUNDARY")
            }
            // A form is compared as its pairs: curl writes a blank as `+`, wsh as `%20`, both the same form.
            if meaningful["content-type"] == "application/x-www-form-urlencoded" {
                text = text.split(separator: "&").map { pair in
                    let decoded = pair.replacingOccurrences(of: "+", with: " ")
                    return decoded.removingPercentEncoding ?? decoded
                }.joined(separator: "\n")
            }
            headers = meaningful
            body = text
        }

        var description: String { "\(method) \(path)?\(query) \(headers.sorted { $0.key < $1.key }) \(body)" }
    }

    struct NotAnEcho: Error, CustomStringConvertible {
        var text: String
        var description: String { "not an echo: \(text.prefix(500))" }
    }

    /// What the echo route saw from curl run with `arguments` (the URL among them).
    static func curlEcho(_ arguments: [String], directory: URL) async throws -> Echo {
        try Echo(json: String(decoding: try await runCurl(arguments, directory: directory), as: UTF8.self))
    }

    /// wsh's statement and curl's arguments for the same request, each against the echo route.
    @Test func itemsSendWhatCurlSends() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try Data(#"{"id": 7, "tags": ["a"]}"#.utf8).write(to: directory.appendingPathComponent("item.json"))
        try Data("hello\nthere\n".utf8).write(to: directory.appendingPathComponent("note.txt"))
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: directory.appendingPathComponent("logo.png"))
        try await withLoopbackServer { server in
            let url = "\(server.baseURL)/echo/items"
            let port = server.baseURL.split(separator: ":").last.map(String.init) ?? ""
            let cases: [(wsh: String, curl: [String])] = [
                ("get \(url) q==1 X-Trace:1", ["\(url)?q=1", "-H", "X-Trace: 1"]),
                ("get \(url)?a=1 b==two%20words", ["\(url)?a=1&b=two%2520words"]),
                // Brackets after the host are escaped with the rest: the client escaped the whole URL again (`Ana%2520Lee`).
                (#"get "\#(url)/x[1]?filter[name]=Ana Lee&ids[]=1&q=<a>""#, ["\(url)/x%5B1%5D?filter%5Bname%5D=Ana%20Lee&ids%5B%5D=1&q=%3Ca%3E"]),
                ("post \(url) name=Ana age:=31 ok:=true", ["--json", #"{"name":"Ana","age":31,"ok":true}"#, url, "-H", "Accept:"]),
                // A list of strings written as JSON keeps its strings' quotes (it was the text [a,b c], no JSON);
                // quoted whole, as before.
                (#"post \#(url) tags:=["a","b c"] o:='{"k":"v"}'"#, ["--json", #"{"tags":["a","b c"],"o":{"k":"v"}}"#, url, "-H", "Accept:"]),
                ("post :\(port)/echo/items name=Ana", ["--json", #"{"name":"Ana"}"#, "http://localhost:\(port)/echo/items", "-H", "Accept:"]),
                ("put \(url) @item.json", ["-X", "PUT", "--data-binary", "@item.json", "-H", "Content-Type: application/json", url]),
                ("post \(url) --form title=x \"note=two words\"", ["--data-urlencode", "title=x", "--data-urlencode", "note=two words", url]),
                ("post \(url) title=x doc@note.txt", ["-F", "title=x", "-F", "doc=@note.txt", url]),
                ("post \(url) --multipart title=x", ["-F", "title=x", url]),
                ("patch \(url) text=@note.txt", ["-X", "PATCH", "--json", #"{"text":"hello\nthere\n"}"#, url, "-H", "Accept:"]),
                ("delete \(url)/3 X-Why:done", ["-X", "DELETE", "\(url)/3", "-H", "X-Why: done"]),
                ("options \(url)", ["-X", "OPTIONS", url]),
                ("request PROPFIND \(url) Depth:1", ["-X", "PROPFIND", url, "-H", "Depth: 1"]),
                ("request purge \(url)", ["-X", "PURGE", url]),
            ]
            for (statement, curl) in cases {
                let result = try await WSHProcess.run(["-c", statement], directory: directory)
                #expect(result.status == 0, "\(statement): \(result.stderr)")
                let sent = try Echo(json: result.stdout)
                let expected = try await Self.curlEcho(curl, directory: directory)
                #expect(sent == expected, "\(statement)\n  wsh:  \(sent)\n  curl: \(expected)")
            }
        }
    }

    /// `/path` goes to `set base`; a path with no base, or another scheme, is an error at the URL.
    @Test func relativeURLsAndTheirErrors() async throws {
        try await withLoopbackServer { server in
            let relative = try await WSHProcess.run(["-c", "set base \(server.baseURL)/echo\nget /users/7\nprint .path"])
            #expect(relative.status == 0, "\(relative.stderr)")
            #expect(relative.stdout.hasSuffix("/echo/users/7\n"))
            let noBase = try await WSHProcess.run(["-c", "get /users/7"])
            #expect(noBase.status == 3)
            #expect(noBase.stderr.contains("<command line>:1:5: error: a path needs a base URL: '/users/7'"), "\(noBase.stderr)")
            #expect(noBase.stderr.contains("set base URL"))
            let ftp = try await WSHProcess.run(["-c", "get ftp://example.com/x"])
            #expect(ftp.status == 3)
            #expect(ftp.stderr.contains("only http:// and https:// URLs can be requested"))
            let badItem = try await WSHProcess.run(["-c", "get \(server.baseURL)/echo justaword"])
            #expect(badItem.status == 3)
            #expect(badItem.stderr.contains("<command line>:1:"), "\(badItem.stderr)")
            #expect(badItem.stderr.contains("expected an item"))
            let missing = try await WSHProcess.run(["-c", "post \(server.baseURL)/echo @nothing.json"])
            #expect(missing.status == 3)
            #expect(missing.stderr.contains("no such file: "), "\(missing.stderr)")
            let mixed = try await WSHProcess.run(["-c", "post \(server.baseURL)/echo --form n:=1"])
            #expect(mixed.status == 3)
            #expect(mixed.stderr.contains("name:=JSON is a typed JSON field"), "\(mixed.stderr)")
            let badJSON = try await WSHProcess.run(["-c", "post \(server.baseURL)/echo a=1 n:=notjson"])
            #expect(badJSON.status == 3)
            let column = "post \(server.baseURL)/echo a=1 ".count + 1
            #expect(badJSON.stderr.contains("<command line>:1:\(column): error: 'n:=' is not valid JSON: "), "\(badJSON.stderr)")
            let badMethod = try await WSHProcess.run(["-c", "request \"GET X\" \(server.baseURL)/echo"])
            #expect(badMethod.status == 3)
            #expect(badMethod.stderr.contains("is not a method"), "\(badMethod.stderr)")
            #expect(server.hits("/echo") == 0)
        }
    }

    /// An answer to `head` has no body: shown pretty (as at a terminal), its headers are printed.
    @Test func aHeadAnswerShowsItsHeaders() async throws {
        try await withLoopbackServer { server in
            let result = try await WSHProcess.run(["-c", "set output pretty; head \(server.baseURL)/echo; print status"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.lowercased().contains("content-type: application/json\n"), "\(result.stdout)")
            #expect(result.stdout.hasSuffix("200\n"))
        }
    }

    /// The request's answer is the last response: queries, `expect`, `> FILE` and pipes work on it.
    @Test func answersAreQueriedCheckedAndSaved() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try await withLoopbackServer { server in
            let script = """
                set output quiet
                get \(server.baseURL)/echo/a q==1
                expect status == 200
                expect .method == "GET"
                print .query
                post \(server.baseURL)/echo/b n:=2 > out.json
                print .body
                """
            let result = try await WSHProcess.run(["-c", script], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "q=1\n{\"n\":2}\n")
            let saved = try String(contentsOf: directory.appendingPathComponent("out.json"), encoding: .utf8)
            #expect(saved.contains(#""method":"POST""#))
        }
    }

    /// `~/` in `> FILE` and `-o FILE` is `$HOME`, as in `save` and `source` (it was a directory named `~`).
    @Test func aBodyFileUnderTheHomeDirectory() async throws {
        let home = try WSHProcess.temporaryDirectory()
        try await withLoopbackServer { server in
            let script = """
                get \(server.baseURL)/echo/a > ~/a.json
                get \(server.baseURL)/echo/b -o ~/b.json
                target c { base \(server.baseURL); path /echo/c }
                call c > ~/c.json
                """
            let result = try await WSHProcess.run(["-c", script], environment: ["HOME": home.path], directory: try WSHProcess.temporaryDirectory())
            #expect(result.status == 0, "\(result.stderr)")
            for name in ["a", "b", "c"] {
                let saved = try? String(contentsOf: home.appendingPathComponent("\(name).json"), encoding: .utf8)
                #expect(saved?.contains(#""path":"/echo/\#(name)""#) == true, "\(name): \(saved ?? "no file")")
            }
        }
    }

    /// `target NAME from last` keeps the request: calling it sends the same request again, `show`
    /// prints a declaration a person would write, and a secret is a reference to its variable.
    @Test func targetFromLastSendsTheSameRequest() async throws {
        try await withLoopbackServer { server in
            let script = """
                set output quiet
                let token = env ADHOC_TOKEN
                post \(server.baseURL)/echo/users q==1 name=Ana age:=31 "X-Token:$token" "note=a \\"b\\" \\$x"
                target user from last
                show user
                call user
                print body
                call user age:=40
                print .body
                """
            let result = try await WSHProcess.run(["-c", script], environment: ["ADHOC_TOKEN": "s3cr3t-value-123"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.contains("s3cr3t-value-123"))
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains("  header \"X-Token:${token}\""), "\(result.stdout)")
            #expect(lines.contains("  method POST"))
            #expect(lines.contains("  base \(server.baseURL)"), "\(result.stdout)")
            #expect(lines.contains("  path /echo/users"))
            #expect(lines.contains("  query q=1"))
            let echoes = lines.filter { $0.hasPrefix("{") }
            #expect(echoes.count == 2, "\(result.stdout)")
            guard echoes.count == 2 else { return }
            #expect(echoes[1] == #"{"name":"Ana","age":40,"note":"a \"b\" $x"}"#)
            #expect(server.hits("/echo/users") == 3)
        }
    }

    /// A query written in the URL stayed in `path`, so its items were no parameters: `call mine
    /// x=5` was an unknown parameter. A query that cannot be parameters stays in the path.
    @Test func targetFromLastMakesTheURLsQueryParameters() async throws {
        try await withLoopbackServer { server in
            let script = """
                set output quiet
                get "\(server.baseURL)/echo/q?x=1&y=a%20b" z==3
                target mine from last
                show mine
                call mine x=5
                print .query
                get "\(server.baseURL)/echo/r?flag&x=1"
                target raw from last
                show raw
                """
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("  path /echo/q\n  query x=1 \"y=a b\" z=3\n"), "\(result.stdout)")
            #expect(result.stdout.contains("x=5&y=a%20b&z=3\n"), "\(result.stdout)")
            #expect(result.stdout.contains("  path \"/echo/r?flag&x=1\"\n") || result.stdout.contains("  path /echo/r?flag&x=1\n"), "\(result.stdout)")
        }
    }

    /// `-a` wins over credentials written in the URL, as curl's `-u` and HTTPie's `-a` do; without
    /// it the URL's are sent.
    @Test func dashAWinsOverCredentialsInTheURL() async throws {
        try await withLoopbackServer { server in
            let withCredentials = server.baseURL.replacingOccurrences(of: "http://", with: "http://urlu:UrlPw555@")
            let given = try await WSHProcess.run(["get", "\(withCredentials)/echo/a", "-a", "cli:CliPw666"])
            #expect(given.status == 0, "\(given.stderr)")
            #expect(try Echo(json: given.stdout).headers["authorization"] == "Basic " + Data("cli:CliPw666".utf8).base64EncodedString())
            let plain = try await WSHProcess.run(["get", "\(withCredentials)/echo/a"])
            #expect(try Echo(json: plain.stdout).headers["authorization"] == "Basic " + Data("urlu:UrlPw555".utf8).base64EncodedString())
            #expect(!(given.stdout + given.stderr + plain.stderr).contains("Pw6") && !(given.stderr + plain.stderr).contains("UrlPw"))
        }
    }

    /// `-a` is kept as the Authorization header it sent, as a typed one is, and shown masked.
    @Test func targetFromLastKeepsTheCredentialsOfDashA() async throws {
        try await withLoopbackServer { server in
            for (flags, sent) in [("-a bob:FlPw888", "Basic Ym9iOkZsUHc4ODg="), ("-A bearer -a FlTok888", "Bearer FlTok888")] {
                let script = """
                    set output quiet
                    get \(server.baseURL)/echo/\(sent.prefix { $0 != " " }) \(flags)
                    target t from last
                    show t
                    call t
                    expect $.headers[?@[0] == 'Authorization'][1] | first == "\(sent)"
                    """
                let result = try await WSHProcess.run(["-c", script])
                #expect(result.status == 0, "\(flags): \(result.stderr)")
                #expect(result.stdout.contains("  header \"Authorization:\(sent.prefix { $0 != " " }) ***\"\n"), "\(flags): \(result.stdout)")
                #expect(server.hits("/echo/\(sent.prefix { $0 != " " })") == 2)
            }
        }
    }

    /// From a declared target's call: the path filled, the call's values as defaults, a secret in
    /// the query written as its variable; `save` writes it and a new session sends the same again.
    @Test func targetFromADeclaredTargetsCall() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try await withLoopbackServer { server in
            let script = """
                set output quiet
                let key = env FROM_LAST_KEY
                target u { base \(server.baseURL); path /echo/users/{id}; query appid lang=en; validate 2xx }
                call u id=7 appid=$key
                target v from last
                show v
                target u from last
                show u
                save session.wsh
                """
            let environment = ["FROM_LAST_KEY": "k3y-from-the-environment"]
            let first = try await WSHProcess.run(["-c", script], environment: environment, directory: directory)
            #expect(first.status == 0, "\(first.stderr)")
            // `target u from last` names the target it replaces, as `target u { ... }` would.
            #expect(first.stdout.components(separatedBy: "  path /echo/users/7\n").count == 3, "\(first.stdout)")
            #expect(first.stdout.contains("  query \"appid=${key}\" lang=en\n"), "\(first.stdout)")
            #expect(first.stdout.contains("  validate 2xx\n"))
            let saved = try String(contentsOf: directory.appendingPathComponent("session.wsh"), encoding: .utf8)
            #expect(!saved.contains("k3y-from-the-environment"))
            let again = try await WSHProcess.run(["-c", "set output quiet\nsource session.wsh\ncall v\nexpect .query == \"appid=$key&lang=en\"\nprint .path .query"],
                                                 environment: environment, directory: directory)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout == "/echo/users/7 appid=***&lang=en\n")
        }
    }

    /// Under `set stub` an ad-hoc request has no sample: an error, never a made-up answer.
    @Test func underStubAnAdHocRequestIsAnError() async throws {
        let result = try await WSHProcess.run(["--stub", "-c", "get http://127.0.0.1:9/x"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("a request with no target has no sample to answer with under set stub"))
    }
}
