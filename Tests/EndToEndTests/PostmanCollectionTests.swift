import Foundation
import Testing
import TestSupport

/// Postman collections written by Postman's team (Tests/Files/postman, SOURCES.md names each):
/// their requests declared as targets and sent to httpbin with only the host changed, what
/// httpbin saw compared with what Postman's documented semantics send, and their saved examples
/// served by `wsh serve`.
@Suite struct PostmanCollectionTests {
    static let files = HTTPBinServer.repository.appendingPathComponent("Tests/Files/postman")

    /// A copy of the files in a scratch directory, each host replaced as `hosts` says (in those in
    /// UTF-8: one in UTF-16 is copied as it is).
    static func copies(_ hosts: [(String, String)]) throws -> URL {
        let directory = try WSHProcess.temporaryDirectory()
        for name in try FileManager.default.contentsOfDirectory(atPath: files.path) where name.hasSuffix(".json") {
            guard var text = try? String(contentsOf: files.appendingPathComponent(name), encoding: .utf8) else {
                try FileManager.default.copyItem(at: files.appendingPathComponent(name), to: directory.appendingPathComponent(name))
                continue
            }
            for (from, to) in hosts { text = text.replacingOccurrences(of: from, with: to) }
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return directory
    }

    /// Postman Echo's collection (format v2.0): raw bodies with their Content-Type, the methods,
    /// query strings, cookies, a GET whose form body Postman prunes, as it does by default, and
    /// digest auth (httpbin's endpoint takes the user and password in its path).
    @Test func postmanEchoRequestsReachHTTPBinAsPostmanSendsThem() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try Self.copies([("https://postman-echo.com/digest-auth", httpbin.baseURL + "/digest-auth/auth/postman/password"),
                                             ("https://postman-echo.com", httpbin.baseURL), ("https://echo.getpostman.com", httpbin.baseURL)])
            defer { ScratchDirectory.remove(directory) }
            let result = try await WSHProcess.run(["-c", """
                use postman sample-collection.json as sample
                use postman echo-v2.postman_collection.json as echo
                set output quiet
                call echo.Request-Methods.POST-Request
                print .data .headers.Content-Type
                call echo.Request-Methods.PUT-Request
                print .headers.Content-Type
                call echo.Request-Methods.GET-Request
                print .args.test
                print .headers
                call echo.Cookies.Set-Cookies
                print .cookies
                call echo.Auth-Digest.DigestAuth-Success
                print status .authenticated
                call sample.A-simple-POST-request-with-JSON-body
                print .json.text
                """], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.first?.hasPrefix("Duis posuere augue vel cursus pharetra.") == true, "\(result.stdout)")
            #expect(lines.count > 1 && lines[1].hasSuffix("volutpat. text/plain"), "the raw body, its two lines, and its Content-Type: \(result.stdout)")
            #expect(lines.contains("text/plain"), "PUT: \(result.stdout)")
            #expect(lines.contains("123"), "GET's query: \(result.stdout)")
            #expect(!result.stdout.contains("multipart/form-data"), "a GET's body is pruned, as Postman does: \(result.stdout)")
            #expect(lines.contains(#"{"foo1":"bar1","foo2":"bar2"}"#), "\(result.stdout)")
            #expect(lines.contains("Duis posuere augue vel cursus pharetra. In luctus a ex nec pretium..."), "newman's sample: \(result.stdout)")
            #expect(lines.contains("200 true"), "digest auth answered httpbin's challenge: \(result.stdout)")
            #expect(result.stderr.contains("note: echo.Auth-Others.OAuth1-0-Verify-Signature: its oauth1 auth is not sent"), "\(result.stderr)")
        }
    }

    /// Collection-level basic auth and variables, and the environment file beside the collection:
    /// the environment's value wins over the collection's (newman's own test expects "correct").
    @Test func inheritedAuthAndVariablesWithTheirEnvironment() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try Self.copies([("https://postman-echo.com/basic-auth", httpbin.baseURL + "/basic-auth/postman/password"),
                                             ("https://postman-echo.com", httpbin.baseURL)])
            defer { ScratchDirectory.remove(directory) }
            let result = try await WSHProcess.run(["--env", "inherited-entities", "-c", """
                use postman inherited-entities.postman_collection.json as inh
                set output quiet
                call inh.Collection-level-stuff.Auth
                print .authenticated
                print $duplicate_var $collection_var $env_var
                show inh.Collection-level-stuff.Auth
                """], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "true", "\(result.stdout)")
            #expect(lines.dropFirst().first == "correct collection level variable environment value", "\(result.stdout)")
            #expect(result.stdout.contains("header   \"Authorization:Basic ***\""), "the credential is masked: \(result.stdout)")
            #expect(!result.stdout.contains(Data("postman:password".utf8).base64EncodedString()))
        }
    }

    /// `wsh serve COLLECTION.json` answers each request's route with its saved examples: the
    /// success by default, another status with `Prefer: code=N`, as Postman's mock server does.
    @Test func aCollectionIsAMockServerInOneCommand() async throws {
        let directory = try Self.copies([])
        defer { ScratchDirectory.remove(directory) }
        let (server, port) = try await ServeTests.serve(["echo-v2.postman_collection.json"], directory: directory)
        defer { server.interrupt() }
        let answers = try await offPool { () -> [String] in
            [try ServeTests.curl(["http://127.0.0.1:\(port)/basic-auth"]),
             try ServeTests.curl(["-H", "Prefer: code=401", "http://127.0.0.1:\(port)/basic-auth"])]
        }
        #expect(answers[0].hasPrefix("HTTP/1.1 200 OK\n"), "\(answers[0])")
        #expect(answers[0].hasSuffix("\n\n{\"authenticated\":true}"), "\(answers[0])")
        #expect(answers[1].hasPrefix("HTTP/1.1 401 Unauthorized\n"), "\(answers[1])")
        #expect(answers[1].hasSuffix("\n\nUnauthorized"), "\(answers[1])")
        #expect(server.stderr.contains("GET     /basic-auth        Auth-Others.Basic-Auth                         200, 401"), "\(server.stderr)")
    }

    @Test func aCollectionOfFormatOneIsRefusedWithWhatToDo() async throws {
        let directory = try Self.copies([])
        defer { ScratchDirectory.remove(directory) }
        let result = try await WSHProcess.run(["-c", "use postman v1.postman_collection.json"], directory: directory)
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("<command line>:1:13: error: cannot use v1.postman_collection.json: this is a Postman collection of format v1: "
                                        + "export it again from Postman as Collection v2.1\n"), "\(result.stderr)")
        // A collection given where a script or a .http file goes says what reads it: a runtime
        // error (exit 3), as use postman's own errors and source's are.
        let run = try await WSHProcess.run(["sample-collection.json"], directory: directory)
        #expect(run.status == 3)
        let sourced = try await WSHProcess.run(["-c", "source sample-collection.json"], directory: directory)
        #expect(sourced.status == 3, "\(sourced.stderr)")
        #expect(run.stderr.hasPrefix("wsh: error: sample-collection.json is JSON: wsh runs .wsh and .http files\n"
                                     + "note: a Postman collection: use postman sample-collection.json"), "\(run.stderr)")
        // The note names only what the file is: a collection was offered `import har`, and a HAR
        // file given to `wsh test` was read as statements ("a block must follow a command").
        #expect(!run.stderr.contains("import har"), "\(run.stderr)")
        try #"{"log": {"version": "1.2", "entries": []}}"#.write(to: directory.appendingPathComponent("browser.har"), atomically: true, encoding: .utf8)
        let har = try await WSHProcess.run(["test", "browser.har"], directory: directory)
        #expect(har.stdout.contains("browser.har is JSON: wsh runs .wsh and .http files") && har.stdout.contains("a HAR: import har browser.har")
                && !har.stdout.contains("postman"), "\(har.stdout)")
        let used = try await WSHProcess.run(["-c", "use http sample-collection.json"], directory: directory)
        #expect(used.status == 3)
        #expect(used.stderr.contains("note: a Postman collection is read with: use postman sample-collection.json"), "\(used.stderr)")
    }

    /// A bearer token and an API key from a collection's auth are credentials: masked in `show`,
    /// `export http` and errors, though sent; a request with a value wsh has no form for is a
    /// warning that writes it as the collection does.
    @Test func authCredentialsOfACollectionAreSecrets() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(directory) }
        let token = "pm-token-\(UUID().uuidString.prefix(8))", key = "pm-key-\(UUID().uuidString.prefix(8))"
        try """
            {"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [
               {"name": "bearer", "request": {"method": "GET", "url": "http://127.0.0.1:9/a",
                 "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "\(token)"}]}}},
               {"name": "apikey", "request": {"method": "GET", "url": "http://127.0.0.1:9/b",
                 "auth": {"type": "apikey", "apikey": [{"key": "key", "value": "X-Client"}, {"key": "value", "value": "\(key)"}, {"key": "in", "value": "header"}]}}},
               {"name": "odd", "request": {"method": "GET", "url": "http://127.0.0.1:9/{{%token}}"}},
               {"name": "random", "request": {"method": "GET", "url": "http://127.0.0.1:9/?n={{$randomInt}}"}}
             ]}
            """.write(to: directory.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        let result = try await WSHProcess.run(["-c", "use postman c.json\nshow bearer\nshow apikey\nexport http"], directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        for secret in [token, key] {
            #expect(SecretLeakCheck(secret: secret, basicUser: "").leaks(in: result.stdout + result.stderr).isEmpty, "\(result.stdout)")
        }
        #expect(result.stdout.contains("Authorization: Bearer {{token}}") && result.stdout.contains("X-Client: {{X_Client}}"), "\(result.stdout)")
        #expect(result.stderr.contains("{{token}}, {{X_Client}} stand for secrets"), "\(result.stderr)")
        #expect(result.stderr.contains("warning: c.json: 'odd' not declared: wsh has no value for {{%token}} in a target"), "\(result.stderr)")
        #expect(result.stderr.contains("warning: c.json: 'random' not declared: wsh has no value for Postman's {{$randomInt}} in a target"),
                "\(result.stderr)")
    }

    /// A collection's variable of type `secret`, and a folder's, are secrets as an environment's
    /// are: sent to httpbin, but `***` in `vars`, `targets` and the history.
    @Test func secretVariablesOfACollectionAndAFolderAreMasked() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory(), state = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory); ScratchDirectory.remove(state) }
            let secret = "col-secret-\(UUID().uuidString.prefix(8))", folderSecret = "folder-secret-\(UUID().uuidString.prefix(8))"
            try """
                {"info": {"name": "s", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
                 "variable": [{"key": "colSecret", "value": "\(secret)", "type": "secret"}, {"key": "host", "value": "\(httpbin.baseURL)"}],
                 "item": [{"name": "f", "variable": [{"key": "inner", "value": "\(folderSecret)", "type": "secret"}],
                   "item": [{"name": "echo", "request": {"method": "GET", "header": [{"key": "X-Custom", "value": "{{colSecret}}"}],
                             "url": "{{host}}/anything?q={{colSecret}}&r={{inner}}"}}]}]}
                """.write(to: directory.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
            let environment = ["XDG_STATE_HOME": state.path]
            let result = try await WSHProcess.run(["-c", "use postman s.json\nvars\ntargets"], environment: environment, directory: directory)
            #expect(result.stdout.contains("colSecret = ***") && result.stdout.contains("/anything?q=***&r=***"), "\(result.stdout)")
            // The answer is printed as httpbin wrote it, the values and all: the checks say they were sent.
            let sent = try await WSHProcess.run(["-c", "use postman s.json\ncall f.echo\nexpect .args.q == $colSecret\nexpect .args.r == $inner"],
                                                environment: environment, directory: directory)
            #expect(sent.status == 0, "\(sent.stdout) \(sent.stderr)")
            let history = try await WSHProcess.run(["-c", "history"], environment: environment)
            #expect(history.stdout.contains("/anything?q=***&r=***"), "\(history.stdout)")
            for value in [secret, folderSecret] {
                #expect(SecretLeakCheck(secret: value, basicUser: "").leaks(in: result.stdout + result.stderr + history.stdout).isEmpty,
                        "\(result.stdout) \(result.stderr) \(history.stdout)")
            }
        }
    }

    /// A GraphQL body is JSON that wsh makes: a variable's `"` in its variables is JSON-escaped, so
    /// httpbin reads the body as JSON.
    @Test func aGraphQLVariableHoldingAQuoteKeepsTheBodyJSON() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try """
                {"info": {"name": "g", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
                 "variable": [{"key": "who", "value": "O\\"Brien"}],
                 "item": [{"name": "gql", "request": {"method": "POST", "url": "\(httpbin.baseURL)/anything",
                   "body": {"mode": "graphql", "graphql": {"query": "query ($n: String) { user(name: $n) { id } }", "variables": "{\\"n\\": \\"{{who}}\\"}"}}}}]}
                """.write(to: directory.appendingPathComponent("g.json"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["-c", "use postman g.json\ncall gql"], directory: directory)
            let echo = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let json = echo?["json"] as? [String: Any]
            #expect((json?["variables"] as? [String: String]) == ["n": "O\"Brien"], "\(result.stdout) \(result.stderr)")
            #expect(json?["query"] as? String == "query ($n: String) { user(name: $n) { id } }", "\(result.stdout)")
        }
    }

    /// Postman's auth helpers as newman sends them: an API key in the query is encoded, so an `&`
    /// in it adds no parameter; an empty bearer token sends no Authorization header.
    @Test func anAPIKeyInTheQueryIsEncodedAndAnEmptyBearerTokenIsNotSent() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try """
                {"info": {"name": "a", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
                 "item": [
                   {"name": "k", "request": {"method": "GET", "url": "\(httpbin.baseURL)/anything?x=1",
                     "auth": {"type": "apikey", "apikey": [{"key": "key", "value": "apikey"}, {"key": "value", "value": "a&b=c+d#e"}, {"key": "in", "value": "query"}]}}},
                   {"name": "v", "request": {"method": "GET", "url": "\(httpbin.baseURL)/anything",
                     "auth": {"type": "apikey", "apikey": [{"key": "key", "value": "k"}, {"key": "value", "value": "{{key}}"}, {"key": "in", "value": "query"}]}}},
                   {"name": "empty", "request": {"method": "GET", "url": "\(httpbin.baseURL)/anything",
                     "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{token}}"}]}}}]}
                """.write(to: directory.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
            // The keys are credentials, masked in what wsh prints: checked by `expect`.
            let script = """
                let token = ""
                let key = "p&q"
                use postman a.json
                call k
                expect .args.apikey == "a&b=c d#e"
                expect .args.x == "1"
                expect .args.b not exists
                call v
                expect .args.k == $key
                call empty
                """
            let result = try await WSHProcess.run(["-c", script], directory: directory)
            #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
            let echoes = try HTTPFileTests.documents(result.stdout)
            #expect(echoes.count == 3, "\(result.stdout) \(result.stderr)")
            #expect((echoes.last?["headers"] as? [String: String])?["Authorization"] == nil, "\(result.stdout)")
            #expect(result.stderr.contains("its bearer token is empty, so no Authorization header is sent"), "\(result.stderr)")
        }
    }

    /// A collection whose auth reads an environment's variable is served with `--env`, from the
    /// Postman environment file beside it.
    @Test func aCollectionIsServedInItsEnvironment() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(directory) }
        try """
            {"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{token}}"}]},
             "item": [{"name": "user", "request": {"method": "GET", "url": "{{baseUrl}}/users/1"},
                       "response": [{"name": "ok", "code": 200, "body": "{\\"id\\": 1}"}]}]}
            """.write(to: directory.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        try #"{"name": "dev", "values": [{"key": "token", "value": "t-123456", "type": "secret"}, {"key": "baseUrl", "value": "http://127.0.0.1:9/api"}]}"#
            .write(to: directory.appendingPathComponent("dev.postman_environment.json"), atomically: true, encoding: .utf8)
        let (server, port) = try await ServeTests.serve(["c.json", "--env", "dev"], directory: directory)
        defer { server.interrupt() }
        let answer = try await offPool { try ServeTests.curl(["http://127.0.0.1:\(port)/api/users/1"]) }
        #expect(answer.hasSuffix("\n\n{\"id\": 1}"), "\(answer)\n\(server.stderr)")
    }

    /// Two digest credentials in one collection: the session's plugin auth holds one, the first in
    /// the collection; a warning names the request whose credential is not used, the one that is,
    /// and what to give (never a password). httpbin then refuses that request's call.
    @Test func twoDigestCredentialsWarnAndTheFirstIsUsed() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            func digest(_ name: String, _ user: String, _ password: String) -> String {
                """
                {"name": "\(name)", "request": {"method": "GET", "url": "\(httpbin.baseURL)/digest-auth/auth/\(user)/\(password)",
                  "auth": {"type": "digest", "digest": [{"key": "username", "value": "\(user)"}, {"key": "password", "value": "\(password)"}]}}}
                """
            }
            try """
                {"info": {"name": "d", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
                 "item": [\(digest("first", "ann", "pw-ann-1")), \(digest("same", "ann", "pw-ann-1")), \(digest("other user", "bob", "pw-bob-2"))]}
                """.write(to: directory.appendingPathComponent("d.json"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["-c", "use postman d.json\nset output quiet\ncall first\nprint status\ncall other-user\nprint status"],
                                                  directory: directory)
            #expect(result.stderr.hasPrefix("warning: d.json: 'other user' has digest auth as bob for 127.0.0.1, and 'first' as ann for 127.0.0.1: "
                                            + "the session's plugin auth holds one credential, so ann's is used; before calling other-user, "
                                            + "give plugin auth digest USER:PASS host 127.0.0.1\n"
                                            + "note: digest auth for 127.0.0.1: plugin auth digest, with the collection's credential\n"), "\(result.stderr)")
            #expect(result.stdout == "200\n401\n", "bob's request goes with ann's credential: \(result.stdout)")
            #expect(!(result.stdout + result.stderr).contains("pw-"), "\(result.stderr)")
        }
    }

    /// A Postman environment given to `use postman` says what it is and how an environment is used.
    @Test func anEnvironmentGivenForACollectionSaysHowEnvironmentsAreUsed() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(directory) }
        let environment = #"{"name": "Shop Staging", "values": [{"key": "user", "value": "ann", "enabled": true}], "_postman_variable_scope": "environment"}"#
        try environment.write(to: directory.appendingPathComponent("Shop Staging.postman_environment.json"), atomically: true, encoding: .utf8)
        try environment.write(to: directory.appendingPathComponent("env.json"), atomically: true, encoding: .utf8)
        let named = try await WSHProcess.run(["-c", "use postman 'Shop Staging.postman_environment.json'"], directory: directory)
        #expect(named.status == 3)
        #expect(named.stderr.hasPrefix("<command line>:1:13: error: cannot use Shop Staging.postman_environment.json: "
                                       + "this is a Postman environment, not a collection\n"), "\(named.stderr)")
        #expect(named.stderr.hasSuffix("note: its variables are the environment \"Shop Staging\": give --env \"Shop Staging\" or set env \"Shop Staging\" "
                                       + "(read beside the script, else in the current directory), then use postman COLLECTION.json\n"), "\(named.stderr)")
        let other = try await WSHProcess.run(["-c", "use postman env.json"], directory: directory)
        #expect(other.stderr.hasSuffix("note: name it NAME.postman_environment.json, beside the script (or in the current directory), "
                                       + "and give --env NAME or set env NAME; then use postman COLLECTION.json\n"), "\(other.stderr)")
        // What the note says works: the environment's variable is set.
        let used = try await WSHProcess.run(["--env", "Shop Staging", "-c", "print $user"], directory: directory)
        #expect(used.stdout == "ann\n", "\(used.stderr)")
    }
}
