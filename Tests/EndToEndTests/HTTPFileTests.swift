import Foundation
import Testing
import TestSupport

/// `.http` files as the JetBrains HTTP Client and VS Code's REST Client write them, run by wsh:
/// files those projects published (Tests/Files/http, SOURCES.md names each), with only their host
/// changed to a loopback server, and what the server saw compared with what the format says.
@Suite struct HTTPFileTests {
    static let files = HTTPBinServer.repository.appendingPathComponent("Tests/Files/http")

    /// A copy of the published files in a scratch directory, each host replaced as `hosts` says.
    static func copies(_ hosts: [(String, String)]) throws -> URL {
        let directory = try WSHProcess.temporaryDirectory()
        for name in try FileManager.default.contentsOfDirectory(atPath: files.path) where name.contains(".") {
            var text = try String(contentsOf: files.appendingPathComponent(name), encoding: .utf8)
            for (from, to) in hosts { text = text.replacingOccurrences(of: from, with: to) }
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return directory
    }

    /// The JSON documents printed one after another, as `call` prints bodies into a pipe.
    static func documents(_ text: String) throws -> [[String: Any]] {
        var documents: [[String: Any]] = []
        var depth = 0, start: String.Index?, inString = false, escaped = false
        for index in text.indices {
            let char = text[index]
            if inString {
                if escaped { escaped = false } else if char == "\\" { escaped = true } else if char == "\"" { inString = false }
                continue
            }
            switch char {
            case "\"": inString = true
            case "{":
                if depth == 0 { start = index }
                depth += 1
            case "}":
                depth -= 1
                if depth == 0, let begin = start {
                    let object = try JSONSerialization.jsonObject(with: Data(text[begin...index].utf8)) as? [String: Any]
                    documents.append(object ?? [:])
                }
            default: break
            }
        }
        return documents
    }

    /// REST Client's own example file: seven requests with the QUERY method and POST, bodies of
    /// JSON, XML and a form, a file variable. REST Client sends each body as written, its lines
    /// joined by a line feed and the blank lines before `###` left out, with the headers as written.
    @Test func restClientsQueryExamplesSendWhatRestClientSends() async throws {
        try await withLoopbackServer { server in
            let directory = try Self.copies([("https://httpbin.org/anything", server.baseURL + "/echo/anything")])
            defer { ScratchDirectory.remove(directory) }
            let result = try await WSHProcess.run(["rest-client-query-method-examples.http"], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let echoes = try Self.documents(result.stdout)
            #expect(echoes.map { $0["method"] as? String } == ["QUERY", "QUERY", "QUERY", "QUERY", "QUERY", "QUERY", "POST"])
            let bodies = echoes.map { $0["body"] as? String ?? "" }
            #expect(bodies.first?.hasPrefix("{\n    \"filters\": {\n        \"status\": \"active\",") == true, "\(bodies)")
            #expect(bodies.first?.hasSuffix("\"order\": \"desc\"\n    }\n}") == true)
            #expect(bodies[1].hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<query>"))
            #expect(bodies[2] == "search=keyword&category=all&page=1")
            let headers = echoes.map { echo in
                Dictionary((echo["headers"] as? [[String]] ?? []).map { ($0[0].lowercased(), $0[1]) }, uniquingKeysWith: { $1 })
            }
            #expect(headers.map { $0["content-type"] } == ["application/json", "application/xml", "application/x-www-form-urlencoded",
                                                             "application/json", "application/json", "application/json", "application/json"])
            #expect(headers[3]["accept"] == "application/json")
            #expect(headers[4]["authorization"] == "Bearer your-bearer-token")
            #expect(headers[0]["authorization"] == nil)
        }
    }

    /// REST Client's README blocks that send a body of their own make: the url-encoded form whose
    /// lines go on with `&` (its 15th), the GraphQL request with its variables (16th), and a file
    /// read as latin1 with its variables substituted (13th); each went out as its raw text. And
    /// JetBrains' `GRAPHQL` request line.
    @Test func restClientsFormGraphQLAndLatin1ExamplesSendWhatRestClientSends() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let hosts = [("https://api.example.com", server.baseURL + "/echo"), ("https://api.github.com", server.baseURL + "/echo"),
                         ("https://example.com", server.baseURL + "/echo")]
            var names: [String] = []
            for number in ["15", "16", "13"] {
                var text = try String(contentsOf: Self.files.appendingPathComponent("rest-client-readme/\(number).http"), encoding: .utf8)
                for (from, to) in hosts { text = text.replacingOccurrences(of: from, with: to) }
                try text.write(to: directory.appendingPathComponent("\(number).http"), atomically: true, encoding: .utf8)
                names.append("\(number).http")
            }
            try (Data([0x3C, 0x61, 0x3E, 0x63, 0x61, 0x66, 0xE9, 0x20]) + Data("{{who}}</a>".utf8)).write(to: directory.appendingPathComponent("demo.xml"))
            try "GRAPHQL \(server.baseURL)/echo/graphql\n\nquery { user(id: \"{{who}}\") { name } }\n"
                .write(to: directory.appendingPathComponent("j.http"), atomically: true, encoding: .utf8)
            try "POST \(server.baseURL)/echo/form\nContent-Type: application/x-www-form-urlencoded\n\nname={{who}}\n&pw={{pw}}\n"
                .write(to: directory.appendingPathComponent("f.http"), atomically: true, encoding: .utf8)
            try "GRAPHQL \(server.baseURL)/echo/graphql\n\nquery { login(pw: \"{{pw}}\") }\n"
                .write(to: directory.appendingPathComponent("k.http"), atomically: true, encoding: .utf8)
            names += ["j.http", "f.http", "k.http"]
            var bodies: [String] = []
            var headers: [[String: String]] = []
            for name in names {
                let result = try await WSHProcess.run(["--var", "who=Zoë", "--var", #"pw=a "b"&c"#, name], directory: directory)
                #expect(result.status == 0, "\(name): \(result.stderr)")
                let echo = try #require(try Self.documents(result.stdout).first, "\(name): \(result.stdout)")
                #expect(echo["method"] as? String == "POST", "\(name)")
                bodies.append(echo["body"] as? String ?? "")
                headers.append(Dictionary((echo["headers"] as? [[String]] ?? []).map { ($0[0].lowercased(), $0[1]) }, uniquingKeysWith: { $1 }))
            }
            #expect(bodies[0] == "name=foo&password=bar")
            let graphQL = try #require(try JSONSerialization.jsonObject(with: Data(bodies[1].utf8)) as? [String: Any], "\(bodies[1])")
            #expect((graphQL["query"] as? String)?.hasPrefix("query ($name: String!, $owner: String!) {\n  repository(") == true, "\(bodies[1])")
            #expect(graphQL["variables"] as? [String: String] == ["name": "vscode-restclient", "owner": "Huachao"], "\(bodies[1])")
            #expect(headers[1]["x-request-type"] == nil && headers[1]["content-type"] == "application/json")
            #expect(bodies[2] == "<a>café Zoë</a>", "\(bodies[2])")
            #expect(bodies[3] == #"{"query": "query { user(id: \"Zoë\") { name } }", "variables": {}}"#, "\(bodies[3])")
            #expect(headers[3]["content-type"] == "application/json")
            // A value is encoded for where it stands: a form's percent-encoded.
            #expect(bodies[4] == "name=Zo%C3%AB&pw=a%20%22b%22%26c", "\(bodies[4])")
            // A GraphQL query's value is escaped for its string and for the JSON string holding the
            // query: the body stays JSON, and the value stays in its GraphQL string (F18).
            let login = try? JSONSerialization.jsonObject(with: Data(bodies[5].utf8)) as? [String: Any]
            #expect(login?["query"] as? String == #"query { login(pw: "a \"b\"&c") }"#, "\(bodies[5])")
        }
    }

    /// `.http` files run side by side (`wsh test`'s jobs) chose the same free `answer-N.json` and
    /// overwrote each other's answers (runner tester's D34): each name is claimed as it is chosen.
    @Test func answersSavedAtOnceAreAllKept() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let files = ["a", "b", "c"]
            for file in files {
                let requests = (1...3).map { "GET \(server.baseURL)/echo/x?r=\(file)\($0)\n>> ./answer.json\n" }
                try requests.joined(separator: "\n###\n").write(to: directory.appendingPathComponent("\(file).http"), atomically: true, encoding: .utf8)
            }
            try await withThrowingTaskGroup(of: WSHProcess.Result.self) { group in
                for file in files { group.addTask { try await WSHProcess.run(["\(file).http"], directory: directory) } }
                for try await result in group { #expect(result.status == 0, "\(result.stderr)") }
            }
            let answers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("answer") }
            let queries = try answers.map { name in
                let echo = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(name))) as? [String: Any]
                return echo?["query"] as? String ?? ""
            }
            #expect(Set(queries) == Set(files.flatMap { file in (1...3).map { "r=\(file)\($0)" } }), "\(answers) \(queries)")
        }
    }

    /// JetBrains' `>> FILE` saves the answer's body (beside a file of that name: `-1`), `>>! FILE`
    /// overwrites; `HTTP/2 (Prior Knowledge)` on the request line is read. Each was an error.
    @Test func jetBrainsSavesAnswersAndReadsPriorKnowledge() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try "old".write(to: directory.appendingPathComponent("over.json"), atomically: true, encoding: .utf8)
            try """
                GET \(server.baseURL)/echo/a HTTP/2 (Prior Knowledge)
                >> ./saved.json

                ###
                GET \(server.baseURL)/echo/b
                >> ./saved.json

                ###
                GET \(server.baseURL)/echo/c

                >>! ./over.json
                """.write(to: directory.appendingPathComponent("s.http"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["s.http"], directory: directory)
            #expect(result.status == 0 && result.stdout.isEmpty, "\(result.stdout)\(result.stderr)")
            for (file, path) in [("saved.json", "/echo/a"), ("saved-1.json", "/echo/b"), ("over.json", "/echo/c")] {
                let text = (try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)) ?? ""
                #expect((try? AdHocRequestTests.Echo(json: text))?.path == path, "\(file): \(text)")
            }
        }
    }

    /// The JetBrains specification's examples against httpbin: a JSON body (with the typographic
    /// quotes it was published with, sent as they are), the origin form with a Host header, and a
    /// multipart body with a file included by `< ./input.txt`, which httpbin parses into a form and a file.
    @Test func jetBrainsSpecificationExamplesReachHTTPBin() async throws {
        try await HTTPBinServer.with { httpbin in
            let authority = httpbin.baseURL.dropFirst("http://".count)
            let directory = try Self.copies([("http://example.com", httpbin.baseURL + "/anything"), ("Host: example.com", "Host: \(authority)"),
                                             ("GET /api/get", "GET /anything/api/get")])
            defer { ScratchDirectory.remove(directory) }

            let add = try await WSHProcess.run(["jetbrains-spec-add.http"], directory: directory)
            let added = try #require(try Self.documents(add.stdout).first, "\(add.stderr)")
            #expect(added["method"] as? String == "POST")
            #expect(added["data"] as? String == "{\n  \u{201C}name\u{201D}: \u{201C}entity\u{201D},\n  \u{201C}value\u{201D}: \u{201C}content\u{201D}\n}")
            #expect((added["headers"] as? [String: String])?["Content-Type"] == "application/json")

            let origin = try await WSHProcess.run(["jetbrains-spec-origin-form.http"], directory: directory)
            let got = try #require(try Self.documents(origin.stdout).first, "\(origin.stderr)")
            #expect(got["url"] as? String == httpbin.baseURL + "/anything/api/get")

            let upload = try await WSHProcess.run(["jetbrains-spec-multipart.http"], directory: directory)
            let uploaded = try #require(try Self.documents(upload.stdout).first, "\(upload.stderr)")
            #expect(uploaded["form"] as? [String: String] == ["text": "Text"])
            #expect(uploaded["files"] as? [String: String] == ["file_to_send": "the file the multipart example sends\n"])
        }
    }

    /// A body that is a file (`< ./body.json`) is read beside the `.http` file wherever wsh runs
    /// from: from its parent directory, by `wsh test` and by `use http`.
    @Test func aWholeBodyFileIsReadBesideTheHTTPFileFromAnotherDirectory() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let sub = directory.appendingPathComponent("sub")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try "{\"from\": \"file\"}\n".write(to: sub.appendingPathComponent("body.json"), atomically: true, encoding: .utf8)
            try "POST \(httpbin.baseURL)/anything\nContent-Type: application/json\n\n< ./body.json\n"
                .write(to: sub.appendingPathComponent("files.http"), atomically: true, encoding: .utf8)
            let run = try await WSHProcess.run(["sub/files.http"], directory: directory)
            let answer = try #require(try Self.documents(run.stdout).first, "\(run.stderr)")
            #expect(answer["data"] as? String == "{\"from\": \"file\"}\n", "\(answer)")
            let test = try await WSHProcess.run(["test", "sub/"], directory: directory)
            #expect(test.status == 0, "\(test.stdout) \(test.stderr)")
            let used = try await WSHProcess.run(["-c", "use http sub/files.http\ncall request-1"], directory: directory)
            #expect(try Self.documents(used.stdout).first?["data"] as? String == "{\"from\": \"file\"}\n", "\(used.stdout) \(used.stderr)")
        }
    }

    /// `< {{dir}}body.json`: a body file's path gets its variables as the file runs (httpyac's
    /// requestBodyImportVariable.http), both a whole body and a part of one; `use http` says it reads
    /// the path as written.
    @Test func aBodyFilesPathGetsItsVariablesAsTheFileRuns() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try "{\"from\": \"file\"}\n".write(to: directory.appendingPathComponent("body.json"), atomically: true, encoding: .utf8)
            try """
                @assetsDir=./
                @name = body
                POST \(httpbin.baseURL)/anything
                Content-Type: application/json

                < {{assetsDir}}{{name}}.json

                ###
                POST \(httpbin.baseURL)/anything
                Content-Type: text/plain

                first line
                <@ {{assetsDir}}body.json

                """.write(to: directory.appendingPathComponent("paths.http"), atomically: true, encoding: .utf8)
            let run = try await WSHProcess.run(["paths.http"], directory: directory)
            let answers = try Self.documents(run.stdout)
            #expect(run.status == 0 && answers.count == 2, "\(run.stdout) \(run.stderr)")
            #expect(answers.first?["data"] as? String == "{\"from\": \"file\"}\n", "\(answers)")
            #expect((answers.last?["data"] as? String)?.hasPrefix("first line\n{\"from\": \"file\"}") == true, "\(answers)")
            let used = try await WSHProcess.run(["-c", "use http paths.http"], directory: directory)
            #expect(used.status == 3 && used.stderr.contains("paths.http:6:1: error: cannot read the body file '{{assetsDir}}{{name}}.json'"), "\(used.stderr)")
            #expect(used.stderr.contains("note: a body file's path gets its variables when the .http file runs"), "\(used.stderr)")
            // A variable not set in the path is said at the `<` line (review-rmain8 L3).
            try "POST \(httpbin.baseURL)/anything\n\n< {{nowhere}}/body.json\n".write(to: directory.appendingPathComponent("unset.http"), atomically: true, encoding: .utf8)
            let unset = try await WSHProcess.run(["unset.http"], directory: directory)
            #expect(unset.status == 3 && unset.stderr.contains("unset.http:3:1: error: no variable 'nowhere' is set"), "\(unset.stderr)")
        }
    }

    /// httpyac reads the `.env` beside a `.http` file with no environment chosen: so does wsh, its
    /// values secrets; `--env dev` with only a `.env` there says what the `.env` is for.
    @Test func theDotenvBesideTheFileIsReadWithNoEnvironmentChosen() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try "host=\(httpbin.baseURL)\nkey=Dotenv-Secret-123\n".write(to: directory.appendingPathComponent(".env"), atomically: true, encoding: .utf8)
            try "GET {{host}}/anything?k={{key}}\n".write(to: directory.appendingPathComponent("t.http"), atomically: true, encoding: .utf8)
            let run = try await WSHProcess.run(["-c", "source t.http\nhistory 1"], directory: directory)
            let answer = try #require(try Self.documents(run.stdout).first, "\(run.stdout) \(run.stderr)")
            #expect(run.status == 0 && answer["args"] as? [String: String] == ["k": "Dotenv-Secret-123"], "\(answer)")
            let recorded = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
            #expect(recorded.contains("k=***") && !recorded.contains("Dotenv"), "a .env value is a secret in the history: \(run.stdout)")
            let chosen = try await WSHProcess.run(["--env", "dev", "t.http"], directory: directory)
            #expect(chosen.status != 0 && chosen.stderr.contains("its .env holds values for every environment: a .http file reads them without --env"),
                    "\(chosen.stderr)")
        }
    }

    /// A value is data: `{...}` in a variable's value (a JSON filter, `a{b}c`) is sent as it is, not
    /// read as a parameter of the URL, in a `.http` file and in a Postman collection alike.
    @Test func bracesInAVariablesValueAreSentNotTakenForParameters() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try "@w = a{b}c\nGET \(httpbin.baseURL)/anything/{{w}}?filter={{f}}\n"
                .write(to: directory.appendingPathComponent("brace.http"), atomically: true, encoding: .utf8)
            let run = try await WSHProcess.run(["--var", #"f={"status":"open"}"#, "brace.http"], directory: directory)
            let answer = try #require(try Self.documents(run.stdout).first, "\(run.stderr)")
            #expect(answer["args"] as? [String: String] == ["filter": #"{"status":"open"}"#], "\(answer)")
            #expect(run.status == 0 && (answer["url"] as? String)?.contains("/anything/a") == true, "\(answer)")
            try """
                {"info": {"name": "Br", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
                 "variable": [{"key": "filter", "value": "{\\"status\\":\\"open\\"}"}],
                 "item": [{"name": "q", "request": {"method": "GET", "url": "\(httpbin.baseURL)/anything?filter={{filter}}"}}]}
                """.write(to: directory.appendingPathComponent("br.json"), atomically: true, encoding: .utf8)
            let postman = try await WSHProcess.run(["-c", "use postman br.json\ncall q"], directory: directory)
            let sent = try #require(try Self.documents(postman.stdout).first, "\(postman.stderr)")
            #expect(sent["args"] as? [String: String] == ["filter": #"{"status":"open"}"#], "\(sent)")
        }
    }

    /// A `.http` variable whose name holds `-` or `.` (`{{base-url}}`) is given with `--var`, to a
    /// run and to `wsh test`, as the error for a missing one says.
    @Test func aDashedVariableIsGivenWithVar() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try "GET {{base-url}}/anything/x?k={{api.key}}\n".write(to: directory.appendingPathComponent("req.http"), atomically: true, encoding: .utf8)
            let missing = try await WSHProcess.run(["req.http"], directory: directory)
            #expect(missing.stderr.contains("with --var base-url=VALUE"), "\(missing.stderr)")
            let run = try await WSHProcess.run(["--var", "base-url=\(httpbin.baseURL)", "--var", "api.key=k1", "req.http"], directory: directory)
            #expect(run.status == 0, "\(run.stderr)")
            let answer = try #require(try Self.documents(run.stdout).first, "\(run.stderr)")
            #expect(answer["args"] as? [String: String] == ["k": "k1"], "\(answer)")
            let test = try await WSHProcess.run(["test", "--var", "base-url=\(httpbin.baseURL)", "--var", "api.key=k1", "req.http"], directory: directory)
            #expect(test.status == 0, "\(test.stdout) \(test.stderr)")
            let wrong = try await WSHProcess.run(["--var", "1x=1", "req.http"], directory: directory)
            #expect(wrong.status == 1 && wrong.stderr.contains("'1x' is not a variable name"), "\(wrong.status) \(wrong.stderr)")
        }
    }

    /// What wsh does not run is an error at its place before anything is sent: JavaScript, and a
    /// value REST Client gets from Azure.
    @Test func handlerScriptsAndUnknownValuesAreRefusedAtTheirPlace() async throws {
        let port = try LoopbackPort.free()
        let directory = try Self.copies([("http://example.com", "http://127.0.0.1:\(port)")])
        defer { ScratchDirectory.remove(directory) }
        let handler = try await WSHProcess.run(["jetbrains-spec-handler.http"], directory: directory)
        #expect(handler.status == 2)
        #expect(handler.stderr.hasPrefix("jetbrains-spec-handler.http:5:1: error: a response handler is JavaScript, which wsh does not run\n"),
                "\(handler.stderr)")
        let azure = try await WSHProcess.run(["rest-client-aad-token.http"], directory: directory)
        #expect(azure.status == 2)
        #expect(azure.stderr.hasPrefix("""
            rest-client-aad-token.http:19:16: error: '{{$aadToken}}': wsh does not know this value
               Authorization: {{$aadToken}}
                              ^~~~~~~~~~~~~
            """), "\(azure.stderr)")
    }

    /// A named request's answer feeds a later request (REST Client's `{{login.response.body.$.token}}`),
    /// file variables use each other, `{{$processEnv}}` and `{{$dotenv}}` are secrets: `***` in the
    /// history and in errors, though sent as they are.
    @Test func answersVariablesAndSecretsFlowBetweenRequests() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try "API_KEY=\"dotenv-secret-123\"\n# a comment\nexport OTHER=${API_KEY}-x\nREAL_KEY=indirect-789\n"
                .write(to: directory.appendingPathComponent(".env"), atomically: true, encoding: .utf8)
            try """
                @base = \(server.baseURL)
                @echo = {{base}}/echo
                @which = REAL_KEY

                ### log in
                # @name login
                POST {{echo}}/login?who={{user}}
                Content-Type: application/json

                {"token": "t-{{$processEnv WSH_TOKEN}}"}

                ###
                GET {{echo}}/me
                X-From-Body: {{login.response.body.$.method}}
                X-Key: {{$dotenv API_KEY}}
                X-Indirect: {{$dotenv %which}}
                X-Random: {{$randomInt 5 6}}
                """.write(to: directory.appendingPathComponent("flow.http"), atomically: true, encoding: .utf8)
            let state = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(state) }
            let result = try await WSHProcess.run(["--var", "user=ann", "flow.http"],
                                                  environment: ["WSH_TOKEN": "env-secret-456", "XDG_STATE_HOME": state.path], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let echoes = try Self.documents(result.stdout).map { try AdHocRequestTests.Echo(json: String(data: JSONSerialization.data(withJSONObject: $0), encoding: .utf8) ?? "") }
            #expect(echoes.count == 2)
            #expect(echoes.first?.path == "/echo/login")
            #expect(echoes.first?.query == "who=ann")
            #expect(echoes.first?.body == "{\"token\": \"t-env-secret-456\"}")
            #expect(echoes.last?.headers["x-from-body"] == "POST")
            #expect(echoes.last?.headers["x-key"] == "dotenv-secret-123")
            #expect(echoes.last?.headers["x-indirect"] == "indirect-789", "REST Client's {{$dotenv %NAME}}: the one NAME's value names")
            #expect(echoes.last?.headers["x-random"] == "5")
            var database = ""
            for file in (try? FileManager.default.contentsOfDirectory(atPath: state.path + "/wsh")) ?? [] {
                database += String(decoding: FileManager.default.contents(atPath: state.path + "/wsh/" + file) ?? Data(), as: UTF8.self)
            }
            #expect(database.contains("/echo/login"), "the calls are in the history")
            for secret in ["env-secret-456", "dotenv-secret-123", "indirect-789"] {
                let leaks = SecretLeakCheck(secret: secret, basicUser: "").leaks(in: database)
                #expect(leaks.isEmpty, "the history holds \(secret) as \(leaks)")
            }
        }
    }

    /// A variable with `#` in a URL's path is sent whole, the `#` as `%23`, with the query after it;
    /// it cut the URL there, sending and recording the first part of a private secret unmasked.
    @Test func aHashInAVariableInAPathIsPartOfTheValue() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try #"{"dev": {"host": "\#(server.baseURL)"}}"#.write(to: directory.appendingPathComponent("http-client.env.json"), atomically: true, encoding: .utf8)
            try #"{"dev": {"pw": "PwSecret#frag"}}"#.write(to: directory.appendingPathComponent("http-client.private.env.json"), atomically: true, encoding: .utf8)
            try "GET {{host}}/echo/{{pw}}?q=1\n".write(to: directory.appendingPathComponent("s.http"), atomically: true, encoding: .utf8)
            let state = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(state) }
            let result = try await WSHProcess.run(["--env", "dev", "s.http"], environment: ["XDG_STATE_HOME": state.path], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let echo = try AdHocRequestTests.Echo(json: result.stdout)
            #expect(echo.path == "/echo/PwSecret%23frag" && echo.query == "q=1", "\(result.stdout)")
            let history = try await WSHProcess.run(["-c", "history"], environment: ["XDG_STATE_HOME": state.path], directory: directory)
            #expect(history.stdout.contains("/echo/***?q=1") && !history.stdout.contains("PwSecret"), "\(history.stdout)")

            let typed = try await WSHProcess.run(["-c", "let x = \"a#b\"\nget \(server.baseURL)/echo/$x?q=1"])
            let typedEcho = try AdHocRequestTests.Echo(json: typed.stdout)
            #expect(typedEcho.path == "/echo/a%23b" && typedEcho.query == "q=1", "\(typed.stdout)")
        }
    }

    /// A variable standing as a segment (after a written `/`) or a query value (after a written
    /// `name=`) is data, percent-encoded. Sent as written, `?` started a query, `&x=1` added a
    /// parameter and a base64 token's `+` was read as a space; the logger showed `k=***` whole.
    /// Elsewhere a value is URL text: a whole query (`?$qs`), a path and query to follow a base
    /// (`$base$next`). A secret with `%` and `&` is masked in the form it was sent in.
    @Test func aVariableInAURLIsItsValueNotURLSyntax() async throws {
        try await withLoopbackServer { server in
            let state = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(state) }
            let script = """
                set output quiet
                let id = "a?b=1#c/d"
                let t = "Tk+cd/ef==&x=1"
                get \(server.baseURL)/echo/$id?k=$t&n=1
                print .
                target y { base \(server.baseURL); path "/echo/$id?k=$t" }
                call y n==1
                print .
                let s = env URL_TOKEN
                get \(server.baseURL)/echo/s/$id?k=$s&n=1
                let qs = "page=2&size=10"
                let base = "\(server.baseURL)/echo"
                let next = "/items?page=3"
                get $base/list?$qs
                print .query
                get $base$next
                print .path
                print .query
                let p = env URL_PASS
                get \(server.baseURL)/echo/p?pass=$p
                """
            let result = try await WSHProcess.run(["-c", script], environment: ["URL_TOKEN": "Sk+cd/ef==&x=1", "URL_PASS": "Q7%c1&zP", "XDG_STATE_HOME": state.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasSuffix("page=2&size=10\n/echo/items\npage=3\n"), "\(result.stdout)")
            let echoes = try Self.documents(result.stdout).map { try AdHocRequestTests.Echo(json: String(data: JSONSerialization.data(withJSONObject: $0), encoding: .utf8) ?? "") }
            #expect(echoes.count == 2, "\(result.stdout)")
            for echo in echoes {
                #expect(echo.path == "/echo/a%3Fb%3D1%23c/d", "\(echo)")
                #expect(echo.query == "k=Tk%2Bcd/ef%3D%3D%26x%3D1&n=1", "\(echo)")
            }
            let history = try await WSHProcess.run(["-c", "history"], environment: ["XDG_STATE_HOME": state.path])
            #expect(history.stdout.contains("/echo/s/a%3Fb%3D1%23c/d?k=***&n=1"), "\(history.stdout)")
            #expect(!history.stdout.contains("Sk") && !history.stdout.contains("Q7"), "\(history.stdout)")
            #expect(history.stdout.contains("/echo/p?pass=***"), "\(history.stdout)")
        }
    }

    /// REST Client's README examples of Basic authentication, which REST Client encodes itself, sent
    /// to httpbin's `/basic-auth/user/passwd`; its Digest shorthand is refused at its line.
    @Test func restClientsBasicAuthExamplesAuthenticateWithHTTPBin() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try Self.copies([])
            defer { ScratchDirectory.remove(directory) }
            for example in ["17", "18", "19"] {
                let text = try String(contentsOf: Self.files.appendingPathComponent("rest-client-readme/\(example).http"), encoding: .utf8)
                try text.replacingOccurrences(of: "https://httpbin.org", with: httpbin.baseURL)
                    .write(to: directory.appendingPathComponent("\(example).http"), atomically: true, encoding: .utf8)
                let result = try await WSHProcess.run(["\(example).http"], directory: directory)
                let answer = try Self.documents(result.stdout).first
                #expect(answer?["authenticated"] as? Bool == true, "example \(example): \(result.stdout) \(result.stderr)")
            }
            try String(contentsOf: Self.files.appendingPathComponent("rest-client-readme/20.http"), encoding: .utf8)
                .write(to: directory.appendingPathComponent("20.http"), atomically: true, encoding: .utf8)
            let digest = try await WSHProcess.run(["20.http"], directory: directory)
            #expect(digest.stderr.hasPrefix("20.http:2:1: error: wsh does not sign requests from REST Client's 'Digest ...' shorthand"), "\(digest.stderr)")
        }
    }

    /// The Basic shorthand as REST Client reads it: a `:` in the password, the scheme in any case;
    /// each request authenticates with httpbin. A lower-case `digest` is refused as `Digest` is,
    /// before anything is sent.
    @Test func basicShorthandInAnyCaseAndAColonInThePasswordAuthenticate() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try Self.copies([])
            defer { ScratchDirectory.remove(directory) }
            let file = """
                GET \(httpbin.baseURL)/basic-auth/ann/p:w
                Authorization: Basic ann p:w

                ###
                GET \(httpbin.baseURL)/basic-auth/ann/pw
                authorization: basic ann:pw

                ###
                GET \(httpbin.baseURL)/basic-auth/ann/pw
                Authorization: BASIC ann pw

                """
            try file.write(to: directory.appendingPathComponent("auth.http"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["auth.http"], directory: directory)
            let answers = try Self.documents(result.stdout)
            #expect(answers.count == 3 && answers.allSatisfy { $0["authenticated"] as? Bool == true }, "\(result.stdout) \(result.stderr)")
            try "GET \(httpbin.baseURL)/anything\nauthorization: digest ann secretpw\n"
                .write(to: directory.appendingPathComponent("digest.http"), atomically: true, encoding: .utf8)
            let digest = try await WSHProcess.run(["digest.http"], directory: directory)
            #expect(digest.stderr.hasPrefix("digest.http:2:1: error: wsh does not sign requests from REST Client's 'digest ...' shorthand"), "\(digest.stderr)")
            #expect(digest.stdout.isEmpty && digest.status != 0, "\(digest.stdout)")
        }
    }

    /// The issue's "done": a folder of `.http` files with `http-client.env.json` and its private file,
    /// run with `wsh test --env dev`. Each file is a test that passes when every request is answered;
    /// the private token reaches httpbin but no report and no history; an XPath reads an XML answer.
    @Test func aFolderOfHTTPFilesRunsAsTestsInAnEnvironment() async throws {
        try await HTTPBinServer.with { httpbin in
            let root = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(root) }
            let requests = root.appendingPathComponent("requests")
            try FileManager.default.createDirectory(at: requests, withIntermediateDirectories: true)
            let token = "private-token-\(UUID().uuidString.prefix(8))"
            let files = [
                "http-client.env.json": #"{"dev": {"host": "\#(httpbin.baseURL)", "user": "dev-user"}, "prod": {"host": "http://127.0.0.1:1"}}"#,
                "http-client.private.env.json": #"{"dev": {"token": "\#(token)"}}"#,
                "a-headers.http": "GET {{host}}/headers\nAuthorization: Bearer {{token}}\nX-User: {{user}}\n",
                "b-xml.http": "# @name slides\nGET {{host}}/xml\n\n###\nGET {{host}}/anything?title={{%slides.response.body.//slide[1]/title}}\n",
            ]
            for (name, text) in files { try text.write(to: requests.appendingPathComponent(name), atomically: true, encoding: .utf8) }
            let state = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(state) }
            let report = root.appendingPathComponent("report.json")
            let result = try await WSHProcess.run(["test", "--env", "dev", "requests/", "--report-json", report.path],
                                                  environment: ["XDG_STATE_HOME": state.path], directory: root)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("2 passed, 0 failed"), "\(result.stdout)")
            let json = try String(contentsOf: report, encoding: .utf8)
            #expect(json.contains("/anything?title=Wake%20up%20to%20WonderWidgets%21"), "the XPath's value, percent-encoded: \(json)")
            #expect(SecretLeakCheck(secret: token, basicUser: "").leaks(in: json + result.stdout + result.stderr).isEmpty)
            var database = ""
            for file in (try? FileManager.default.contentsOfDirectory(atPath: state.path + "/wsh")) ?? [] {
                database += String(decoding: FileManager.default.contents(atPath: state.path + "/wsh/" + file) ?? Data(), as: UTF8.self)
            }
            #expect(SecretLeakCheck(secret: token, basicUser: "").leaks(in: database).isEmpty)

            // The token did reach httpbin, and the prompt's env and vars say where values came from.
            let sent = try await WSHProcess.run(["--env", "dev", "requests/a-headers.http"], directory: root)
            #expect(sent.stdout.contains("\"Authorization\": \"Bearer \(token)\""), "\(sent.stdout)")
            let listed = try await WSHProcess.run(["-c", "set env dev\nenv\nvars"], directory: requests)
            #expect(listed.stdout == """
                * dev
                  prod
                  host = \(httpbin.baseURL)  (http-client.env.json)
                  user = dev-user  (http-client.env.json)
                  token = ***  (http-client.private.env.json)
                host = \(httpbin.baseURL)  (http-client.env.json)
                user = dev-user  (http-client.env.json)
                token = ***  (http-client.private.env.json)

                """, "\(listed.stderr)")
            // After `use http` of a file in another folder, its environments are the ones beside it.
            let used = try await WSHProcess.run(["-c", "use http requests/a-headers.http\nset env dev\nvars"], directory: root)
            #expect(used.status == 0 && used.stdout.contains("user = dev-user  (http-client.env.json)\n"), "\(used.stdout)\(used.stderr)")
            let wrong = try await WSHProcess.run(["test", "--env", "stage", "requests/"], directory: root)
            #expect(wrong.stdout.contains("no environment named 'stage'"), "\(wrong.stdout)")
            #expect(wrong.status == 3)
        }
    }

    /// examples/http, as its comment says to run it, against `wsh serve examples/mock-api.wsh`
    /// (on a free port, given with --var, which wins over the environment's host).
    @Test func theExampleFolderPassesAgainstTheMockServer() async throws {
        let examples = HTTPBinServer.repository.appendingPathComponent("examples")
        let (server, port) = try await ServeTests.serve(["mock-api.wsh"], directory: examples)
        defer { server.interrupt() }
        let result = try await WSHProcess.run(["test", "--env", "mock", "--var", "host=http://127.0.0.1:\(port)/api", "http"],
                                              directory: examples)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("✓ http/users.http"), "\(result.stdout)")
        let run = try await WSHProcess.run(["--env", "mock", "--var", "host=http://127.0.0.1:\(port)/api", "http/users.http"], directory: examples)
        let answers = try Self.documents(run.stdout)
        #expect(answers.map { $0["name"] as? String ?? $0["title"] as? String ?? "\($0["total"] ?? "")" }
                == ["Ada Lovelace", "Not Found", "Grace", "1"], "\(run.stdout)\(run.stderr)")
    }

    /// `export http` writes targets as a `.http` file that sends what `call` sends, with a required
    /// parameter as `{{name}}` and a secret from the environment as `{{$processEnv NAME}}`, never
    /// its value; run back with `--var`s, the echo server sees the same requests.
    @Test func exportedTargetsSendWhatTheirCallsSend() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let secret = "tok/\(UUID().uuidString.prefix(8)) +Ä"
            let declarations = """
                let token = env WSH_EXPORT_TOKEN
                target user { doc "One user"; base \(server.baseURL); path /echo/users/{id}; header Authorization:"Bearer $token" X-Need; query fields=name }
                target create { base \(server.baseURL); path /echo/users; method POST; json name age:=3 tags:='["a"]'; follow off }
                """
            let environment = ["WSH_EXPORT_TOKEN": secret]
            let called = try await WSHProcess.run(["-c", declarations + "\ncall user id=5 X-Need:1\ncall create name=Zed"],
                                                  environment: environment, directory: directory)
            #expect(called.status == 0, "\(called.stderr)")
            let exported = try await WSHProcess.run(["-c", declarations + "\nexport http > api.http"], environment: environment, directory: directory)
            #expect(exported.status == 0, "\(exported.stderr)")
            let file = try String(contentsOf: directory.appendingPathComponent("api.http"), encoding: .utf8)
            #expect(file.contains("GET \(server.baseURL)/echo/users/{{id}}?fields=name\n"), "\(file)")
            #expect(file.contains("Authorization: Bearer {{$processEnv WSH_EXPORT_TOKEN}}\n"), "\(file)")
            #expect(file.contains("X-Need: {{X_Need}}\n"), "\(file)")
            #expect(file.contains("# @no-redirect\n"))
            #expect(SecretLeakCheck(secret: secret, basicUser: "").leaks(in: file).isEmpty)
            let replayed = try await WSHProcess.run(["--var", "id=5", "--var", "X_Need=1", "--var", "name=Zed", "api.http"],
                                                    environment: environment, directory: directory)
            #expect(replayed.status == 0, "\(replayed.stderr)")
            let sent = try Self.documents(called.stdout), again = try Self.documents(replayed.stdout)
            #expect(sent.count == 2)
            for (one, other) in zip(sent, again) {
                #expect(one["method"] as? String == other["method"] as? String)
                #expect(one["path"] as? String == other["path"] as? String)
                #expect(one["query"] as? String == other["query"] as? String)
                #expect(one["body"] as? String == other["body"] as? String)
                let headers = { (echo: [String: Any]) in
                    (echo["headers"] as? [[String]] ?? []).filter { ["authorization", "x-need", "content-type"].contains($0[0].lowercased()) }
                }
                #expect(headers(one) == headers(other))
            }
        }
    }

    /// A literal `{{` a target sends (a Mustache template in a body or header) was written as it
    /// is, so the exported file substituted it or stopped on an unset variable (runner tester's
    /// D18): it is written `{{open_brace}}{`, and the file sends what the target sends.
    @Test func exportKeepsALiteralDoubleBraceLiteral() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            // A secret holding `{{` is still found and written as a variable, and a `{` just before
            // a value stays a brace (review 10 H1, M2).
            let declarations = #"""
                let who = "Ann"
                let token = env WSH_BRACE_TOKEN
                target tpl { base \#(server.baseURL); path /echo/tpl; method POST; header "X-Q:a {{not}} {{{x}}}" X-Who:$who "X-Greet:{{$who}}"
                             header "X-Token:Bearer $token"; json template="Hello {{who}}, {{{raw}}}!" }
                """#
            let environment = ["WSH_BRACE_TOKEN": "pass{{word123"]
            let called = try await WSHProcess.run(["-c", declarations + "\ncall tpl"], environment: environment, directory: directory)
            #expect(called.status == 0, "\(called.stderr)")
            let exported = try await WSHProcess.run(["-c", declarations + "\nexport http > tpl.http"], environment: environment, directory: directory)
            #expect(exported.status == 0 && exported.stderr.contains("{{open_brace}}{"), "\(exported.stderr)")
            let file = try String(contentsOf: directory.appendingPathComponent("tpl.http"), encoding: .utf8)
            #expect(!file.contains("word123") && file.contains("X-Token: Bearer {{$processEnv WSH_BRACE_TOKEN}}"), "\(file)")
            let replayed = try await WSHProcess.run(["tpl.http"], environment: environment, directory: directory)
            #expect(replayed.status == 0, "\(replayed.stderr)")
            let sent = try #require(try Self.documents(called.stdout).first), again = try #require(try Self.documents(replayed.stdout).first)
            #expect(sent["body"] as? String == #"{"template":"Hello {{who}}, {{{raw}}}!"}"#, "\(sent)")
            #expect(again["body"] as? String == sent["body"] as? String, "\(again)")
            let headers = { (echo: [String: Any]) in (echo["headers"] as? [[String]] ?? []).filter { $0[0].lowercased().hasPrefix("x-") } }
            #expect(headers(sent) == headers(again) && headers(sent).count == 4, "\(headers(sent)) \(headers(again))")
        }
    }

    /// A target that reads a variable named `open_brace` keeps it: the literal `{` is written
    /// with another name (review 10 L2: both were `@open_brace` lines, and the header sent `{`).
    @Test func exportNamesTheLiteralBraceApartFromAUsersVariable() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let declarations = """
                let open_brace = "zz"
                target tpl { base \(server.baseURL); path /echo/tpl; method POST; header X-A:$open_brace; body raw "t {{x}}" }
                """
            let called = try await WSHProcess.run(["-c", declarations + "\ncall tpl"], directory: directory)
            let exported = try await WSHProcess.run(["-c", declarations + "\nexport http > tpl.http"], directory: directory)
            #expect(exported.status == 0 && exported.stderr.contains("{{open_brace_2}}{"), "\(exported.stderr)")
            let file = try String(contentsOf: directory.appendingPathComponent("tpl.http"), encoding: .utf8)
            #expect(file.contains("@open_brace = zz\n") && file.contains("@open_brace_2 = {\n"), "\(file)")
            let replayed = try await WSHProcess.run(["tpl.http"], directory: directory)
            #expect(replayed.status == 0, "\(replayed.stderr)")
            let sent = try #require(try Self.documents(called.stdout).first), again = try #require(try Self.documents(replayed.stdout).first)
            #expect(sent["body"] as? String == "t {{x}}" && again["body"] as? String == "t {{x}}", "\(again)")
            let header = { (echo: [String: Any]) in (echo["headers"] as? [[String]] ?? []).first { $0[0].lowercased() == "x-a" } }
            #expect(header(sent) == ["X-A", "zz"] && header(again) == header(sent), "\(String(describing: header(again)))")
        }
    }

    /// Secrets written literally in targets (a query `appid`, an `X-API-Key` header, a Basic
    /// password) are exported as `{{variables}}` named for where they go, which the private
    /// environment file gives back: they were written `***`, which the file then sent.
    @Test func literalSecretsAreExportedAsVariables() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let declarations = """
                target keyed { base \(server.baseURL); path /echo/k; query appid=lit-appid-123 page=2; header X-API-Key:lit-key-456 }
                target basic { base \(server.baseURL); path /echo/b; header "Authorization:Basic \(Data("ann:lit-pass-789".utf8).base64EncodedString())" }
                """
            let called = try await WSHProcess.run(["-c", declarations + "\ncall keyed\ncall basic"], directory: directory)
            let exported = try await WSHProcess.run(["-c", declarations + "\nexport http > api.http"], directory: directory)
            #expect(exported.status == 0, "\(exported.stderr)")
            #expect(exported.stderr.contains("{{appid}}, {{X_API_Key}}, {{password}} stand for secrets"), "\(exported.stderr)")
            let file = try String(contentsOf: directory.appendingPathComponent("api.http"), encoding: .utf8)
            #expect(file.contains("/echo/k?appid={{appid}}&page=2\n") && file.contains("X-API-Key: {{X_API_Key}}\n"), "\(file)")
            #expect(file.contains("Authorization: Basic ann:{{password}}\n"), "\(file)")
            #expect(!file.contains("***") && !file.contains("lit-"), "\(file)")
            try #"{"dev": {"appid": "lit-appid-123", "X_API_Key": "lit-key-456", "password": "lit-pass-789"}}"#
                .write(to: directory.appendingPathComponent("http-client.private.env.json"), atomically: true, encoding: .utf8)
            let replayed = try await WSHProcess.run(["--env", "dev", "api.http"], directory: directory)
            #expect(replayed.status == 0, "\(replayed.stderr)")
            let sent = try Self.documents(called.stdout), again = try Self.documents(replayed.stdout)
            #expect(sent.count == 2 && again.count == 2)
            for (one, other) in zip(sent, again) {
                #expect(one["query"] as? String == other["query"] as? String)
                let headers = { (echo: [String: Any]) in
                    (echo["headers"] as? [[String]] ?? []).filter { ["authorization", "x-api-key"].contains($0[0].lowercased()) }
                }
                #expect(headers(one) == headers(other) && !headers(one).isEmpty)
            }
        }
    }

    /// `# @no-redirect` answers with the 3xx itself; `# @no-cookie-jar` sends no cookie of the jar
    /// and keeps none, while the requests around it do (httpbin sets and echoes cookies).
    @Test func noRedirectAndNoCookieJarApplyToTheirRequestOnly() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try """
                # @no-redirect
                GET \(httpbin.baseURL)/cookies/set?kept=1

                ###
                # @no-cookie-jar
                GET \(httpbin.baseURL)/cookies

                ###
                GET \(httpbin.baseURL)/cookies
                """.write(to: directory.appendingPathComponent("jar.http"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["-c", "set output quiet\nsource jar.http\nhistory 3"], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let statuses = result.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true) }
            #expect(statuses.first?.contains("302") == true, "the redirect itself: \(result.stdout)")
            let cookies = try await WSHProcess.run(["jar.http"], directory: directory)
            let answers = try Self.documents(cookies.stdout)
            #expect(answers.count == 2, "\(cookies.stdout)")
            #expect((answers.first?["cookies"] as? [String: String]) == [:], "no cookie with @no-cookie-jar")
            #expect((answers.last?["cookies"] as? [String: String]) == ["kept": "1"], "the jar's cookie after it")
        }
    }

    /// REST Client's README example of environments in `.vscode/settings.json` (with `$shared` and
    /// `{{$shared NAME}}`) and its request that uses them: "local" gives version v2 and the shared
    /// non-production token, "production" inherits v1 from `$shared`, as the README says.
    @Test func restClientsEnvironmentExampleGivesWhatItsReadmeSays() async throws {
        let directory = Self.files.appendingPathComponent("rest-client-readme-settings")
        let result = try await WSHProcess.run(["-c", """
            set env local
            use http comments.http
            show request-1 --curl
            set env production
            show request-1 --curl
            """], directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let unset = try await WSHProcess.run(["-c", "use http comments.http\ncall request-1"], directory: directory)
        #expect(unset.stderr.contains("note: or choose an environment that sets it: set env local|production\n"), "\(unset.stderr)")
        #expect(result.stdout == """
            curl -L --compressed \\
              https://localhost/api/v2comments/1 \\
              -H 'Authorization: bar'
            curl -L --compressed \\
              https://example.com/api/v1comments/1 \\
              -H 'Authorization: foo'

            """, "\(result.stdout)")
    }

    /// What a hostile or careless file can do ends in an error at its place, never a crash, and
    /// what the file itself gets wrong stops it before its first request is sent.
    @Test func hostileFilesEndInErrorsAndNothingIsSentBeforeAFileProblem() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let chain = (1..<200).map { "@v\($0) = {{v\($0 + 1)}}" }.joined(separator: "\n") + "\n@v200 = end\nGET \(server.baseURL)/echo/{{v1}}\n"
            let doubling = "@a0 = xxxxxxxx\n" + (1...60).map { "@a\($0) = {{a\($0 - 1)}}{{a\($0 - 1)}}" }.joined(separator: "\n")
                + "\nGET \(server.baseURL)/echo/{{a60}}\n"
            let files = [
                "chain.http": (chain, "file variables refer to one another more than 64 deep"),
                "doubling.http": (doubling, "doubling.http:20:8: error: a value made of file variables grew past"),
                "later.http": ("GET \(server.baseURL)/echo/first\n\n###\nPOST \(server.baseURL)/echo/second\n\n< ./missing.json\n",
                               "later.http:6:1: error: cannot read the body file './missing.json'"),
                "digest.http": ("@u = ann\nGET \(server.baseURL)/echo/d\nAuthorization: Digest {{u}} pw\n",
                                "digest.http:3:1: error: wsh does not sign requests from REST Client's 'Digest ...' shorthand"),
                "timeout.http": ("# @timeout 100000\nGET \(server.baseURL)/echo/t\n", "timeout.http:2:1: error: @timeout takes seconds"),
            ]
            for (name, (text, message)) in files {
                try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
                let result = try await WSHProcess.run([name], directory: directory)
                #expect(result.status == 3, "\(name): \(result.stderr)")
                #expect(result.stderr.contains(message), "\(name): \(result.stderr)")
                #expect(result.stdout.isEmpty, "\(name): nothing was sent: \(result.stdout)")
            }
            let served = try await WSHProcess.run(["serve", "later.http"], directory: directory)
            #expect(served.status == 1)
            #expect(served.stderr.hasPrefix("wsh: error: 'later.http' is a .http file: it has requests, not answers, to serve\n"), "\(served.stderr)")
        }
    }

    /// After a file ran, its requests are targets that `call` sends again, with the file's
    /// variables and the values computed for them.
    @Test func afterARunItsRequestsAreCallableAgain() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try """
                @host = \(server.baseURL)
                # @name login
                POST {{host}}/echo/login
                X-Id: {{$uuid}}

                ###
                # @name me
                GET {{host}}/echo/me?from={{login.response.body.$.path}}
                """.write(to: directory.appendingPathComponent("api.http"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["-c", "set output quiet\nsource api.http\ncall me\nprint .query\ncall login\nprint .path"],
                                                  directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "from=/echo/login\n/echo/login\n", "\(result.stdout)")
            // use http declares what a target can hold, and says which request it cannot, and where.
            let used = try await WSHProcess.run(["-c", "use http api.http\ntargets"], directory: directory)
            #expect(used.status == 0, "\(used.stderr)")
            #expect(used.stdout.hasPrefix("login  POST"), "\(used.stdout)")
            #expect(!used.stdout.contains("me "), "\(used.stdout)")
            #expect(used.stderr == "warning: api.http:8:27: 'me' not declared: {{login.response.body.$.path}} cannot be part of a target: "
                    + "it is computed when the file runs (wsh api.http sends it)\n", "\(used.stderr)")
        }
    }

    /// `export http` of targets that read variables writes the variables, set or not, so that the
    /// file it writes runs in any environment, as the file it came from did.
    @Test func exportKeepsVariablesAsVariables() async throws {
        let examples = HTTPBinServer.repository.appendingPathComponent("examples/http")
        let result = try await WSHProcess.run(["-c", "use http users.http\nexport http user create-a-user"], directory: examples)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("GET {{host}}/users/7\n"), "\(result.stdout)")
        #expect(result.stdout.contains("POST {{host}}/users\n"), "\(result.stdout)")
        #expect(result.stdout.contains("X-Request-Id: {{$uuid}}\n"), "\(result.stdout)")
    }

    /// A variable set in the session and not secret is the exported file's `@name = value`, so the
    /// file runs as it is and sends what the call sends; one not set, and a body whose last line
    /// break the format cannot hold, are named in notes.
    @Test func exportDefinesTheVariablesItReadsAndNamesWhatItCannotKeep() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            let declarations = """
                let plain = "visible value"
                target s { base \(httpbin.baseURL); path /anything/s; header "X-Plain:$plain" "X-Unset:$later" }
                target raw { base \(httpbin.baseURL); path /anything/raw; method PUT; header Content-Type:text/plain; body "line1\\n\\nline3\\n" }
                """
            let exported = try await WSHProcess.run(["-c", declarations + "\nexport http > api.http"], directory: directory)
            #expect(exported.status == 0, "\(exported.stderr)")
            let file = try String(contentsOf: directory.appendingPathComponent("api.http"), encoding: .utf8)
            #expect(file.hasPrefix("@plain = visible value\n\n###"), "\(file)")
            #expect(exported.stderr.contains("note: {{later}} is not set: give it with --var NAME=VALUE"), "\(exported.stderr)")
            #expect(exported.stderr.contains("note: 'raw': its body ends in a line break, which a .http file cannot hold"), "\(exported.stderr)")
            #expect(!exported.stderr.contains("carriage return"), "\(exported.stderr)")
            // A CR inside a text body is lost the same way, and said (runner tester's D19).
            let crlf = try await WSHProcess.run(["-c", "target r3 { base \(httpbin.baseURL); path /anything; method POST; header Content-Type:text/plain; body raw \"a\\r\\nb\" }\nexport http"],
                                                directory: directory)
            #expect(crlf.stderr.contains("note: 'r3': its body holds a carriage return"), "\(crlf.stderr)")
            // A credential typed as text, by its name or by where it is sent, stays a variable the user gives (review).
            let credentials = """
                let api_key = "abc123xyzSECRET"
                let h = "Bearer tok-SECRET-987"
                let q = "qsecret-555"
                target c { base \(httpbin.baseURL); path /anything/c; header X-Api-Key:$api_key; header Authorization:$h; query appid=$q }
                """
            let withCredentials = try await WSHProcess.run(["-c", credentials + "\nexport http"], directory: directory)
            #expect(withCredentials.status == 0 && !withCredentials.stdout.contains("SECRET") && !withCredentials.stdout.contains("qsecret"),
                    "\(withCredentials.stdout)")
            #expect(withCredentials.stderr.contains("{{api_key}}, {{h}}, {{q}} stand for secrets"), "\(withCredentials.stderr)")
            let replayed = try await WSHProcess.run(["--var", "later=1", "api.http"], directory: directory)
            #expect(replayed.status == 0, "\(replayed.stderr)")
            let answers = try Self.documents(replayed.stdout)
            #expect((answers.first?["headers"] as? [String: String])?["X-Plain"] == "visible value", "\(replayed.stdout)")
        }
    }

    /// A Postman form-data file part is exported as `< ./FILE` in the multipart body, so the file
    /// sends the file's bytes as they are (its line feeds not made CRLF) and as they are then.
    @Test func exportWritesAMultipartFilePartAsAFileReference() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try "line one\nline two\n".write(to: directory.appendingPathComponent("data.txt"), atomically: true, encoding: .utf8)
            try """
                {"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
                 "item": [{"name": "Upload", "request": {"method": "POST", "url": "\(httpbin.baseURL)/anything/up",
                   "body": {"mode": "formdata", "formdata": [{"key": "t", "value": "text", "type": "text"},
                                                             {"key": "f", "src": "data.txt", "type": "file"}]}}}]}
                """.write(to: directory.appendingPathComponent("c.postman_collection.json"), atomically: true, encoding: .utf8)
            let exported = try await WSHProcess.run(["-c", "use postman c.postman_collection.json\nexport http > rt.http"], directory: directory)
            #expect(exported.status == 0, "\(exported.stderr)")
            let file = try String(contentsOf: directory.appendingPathComponent("rt.http"), encoding: .utf8)
            #expect(file.contains("\r\n< ./data.txt\r\n") && !file.contains("line one"), "\(file)")
            try "line one\nline two, edited\n".write(to: directory.appendingPathComponent("data.txt"), atomically: true, encoding: .utf8)
            let replayed = try await WSHProcess.run(["rt.http"], directory: directory)
            #expect(replayed.status == 0, "\(replayed.stderr)")
            let answer = try #require(try Self.documents(replayed.stdout).first, "\(replayed.stderr)")
            #expect(answer["files"] as? [String: String] == ["f": "line one\nline two, edited\n"], "\(answer)")
            #expect(answer["form"] as? [String: String] == ["t": "text"], "\(answer)")
        }
    }

    /// A file included with `<@` has its `{{...}}` written in, a file variable's as a request's own.
    @Test func anIncludedFileHasItsVariablesWrittenIn() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try #"{"who": "{{name}}", "n": {{$randomInt 7 8}}}"#.write(to: directory.appendingPathComponent("body.json"), atomically: true, encoding: .utf8)
            try "@name = Ann\nPOST \(server.baseURL)/echo/x\nContent-Type: application/json\n\n<@ ./body.json\n"
                .write(to: directory.appendingPathComponent("a.http"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["a.http"], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try Self.documents(result.stdout).first?["body"] as? String == #"{"who": "Ann", "n": 7}"#, "\(result.stdout)")
        }
    }
}
