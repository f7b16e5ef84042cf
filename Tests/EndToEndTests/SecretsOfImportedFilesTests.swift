import Foundation
import Testing
import TestSupport

/// Secrets of files from other tools: `export http` writes a `{{NAME}}` the user gives for each
/// secret, never `***` as if it were the value; and the mask hides a secret in values, not in
/// wsh's own words nor in a placeholder's name, where a short secret that is also a word
/// (httpyac's example password `doe`, newman's `password`) would garble them and give it away.
@Suite struct SecretsOfImportedFilesTests {
    static let httpFiles = HTTPBinServer.repository.appendingPathComponent("Tests/Files/http")

    /// A scratch directory holding httpyac's oauth2/intellij example (password `doe`).
    static func httpyacOAuth2Files() throws -> URL {
        let directory = try WSHProcess.temporaryDirectory()
        for name in ["http-client.env.json", "http-client.private.env.json", "test.http"] {
            try FileManager.default.copyItem(at: httpFiles.appendingPathComponent("httpyac-oauth2-intellij/" + name),
                                             to: directory.appendingPathComponent(name))
        }
        return directory
    }

    /// A value read from a login's answer that holds a secret (`{{login.response.body...}}`) is a
    /// `{{http_1}}` the note asks for, not `@http_1 = ***`; the note names only what the file uses.
    @Test func aComputedValueHoldingASecretIsAVariableToGive() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            // httpyac's private environment (Tests/Files/http/SOURCES.md): clientSecret, password `doe`...
            try FileManager.default.copyItem(at: Self.httpFiles.appendingPathComponent("httpyac-oauth2-intellij/http-client.private.env.json"),
                                             to: directory.appendingPathComponent("http-client.private.env.json"))
            try #"{"local": {"base": "\#(httpbin.baseURL)"}}"#.write(to: directory.appendingPathComponent("http-client.env.json"),
                                                                     atomically: true, encoding: .utf8)
            try """
                ### login
                # @name login
                POST {{base}}/anything
                Authorization: Basic {{username}}:{{password}}
                Content-Type: application/json

                {"secret": "{{clientSecret}}"}

                ### use token
                GET {{base}}/anything/{{login.response.body.$.json.secret}}

                """.write(to: directory.appendingPathComponent("api.http"), atomically: true, encoding: .utf8)
            let exported = try await WSHProcess.run(["-c", "set env local\nset output quiet\nsource api.http\nexport http > exported.http"],
                                                    directory: directory)
            #expect(exported.status == 0, "\(exported.stderr)")
            let file = try String(contentsOf: directory.appendingPathComponent("exported.http"), encoding: .utf8)
            #expect(!file.contains("***") && !file.contains("@http_1"), "\(file)")
            #expect(file.contains("GET {{base}}/anything/{{http_1}}") && file.contains("Basic {{username}}:{{password}}"), "\(file)")
            let note = exported.stderr.split(separator: "\n").first { $0.contains("stand for secrets") } ?? ""
            #expect(["{{username}}", "{{password}}", "{{clientSecret}}", "{{http_1}}"].allSatisfy(note.contains), "\(exported.stderr)")
            #expect(!note.contains("tokenUrl") && !note.contains("authUrl"), "names the file does not use: \(exported.stderr)")
            #expect(exported.stderr.contains("note: {{base}} comes from the environment 'local'"), "\(exported.stderr)")
            for secret in ["dBBg5uRBE2eZbvMVbGD40DTdEL6wTGak", "am9objpkb2U="] {
                #expect(!file.contains(secret) && !exported.stderr.contains(secret), "\(file) \(exported.stderr)")
            }
        }
    }

    /// A secret holding a quote, a backslash or a tab is escaped in a JSON body (`abc\"def`): it is
    /// a `{{k1_json}}` the note asks for, escaped, not `***`; the file run with it sends the secret.
    @Test func aSecretEscapedInAJSONBodyIsAVariableToGiveEscaped() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try #"{"dev": {"k1": "abc\"def", "k2": "abcé123", "k3": "back\\slash", "k4": "tab\there"}}"#
                .write(to: directory.appendingPathComponent("http-client.private.env.json"), atomically: true, encoding: .utf8)
            try """
                target j {
                  base \(httpbin.baseURL)
                  path /anything/j
                  header X-K1:$k1
                  json a=$k1 b=$k2 c=$k3 d=$k4
                }

                """.write(to: directory.appendingPathComponent("s.wsh"), atomically: true, encoding: .utf8)
            let exported = try await WSHProcess.run(["-c", "set env dev\nsource s.wsh\nexport http > o.http"], directory: directory)
            #expect(exported.status == 0, "\(exported.stderr)")
            let file = try String(contentsOf: directory.appendingPathComponent("o.http"), encoding: .utf8)
            #expect(!file.contains("***") && file.contains(#"{"a":"{{k1_json}}","b":"{{k2}}","c":"{{k3_json}}","d":"{{k4_json}}"}"#), "\(file)")
            #expect(file.contains("X-K1: {{k1}}"), "\(file)")
            let escapedNote = exported.stderr.split(separator: "\n").first { $0.contains("inside a JSON string") } ?? ""
            #expect(["{{k1_json}}", "{{k3_json}}", "{{k4_json}}"].allSatisfy(escapedNote.contains), "\(exported.stderr)")
            let note = exported.stderr.split(separator: "\n").first { $0.contains("stand for secrets") } ?? ""
            #expect(["{{k1}}", "{{k2}}", "{{k1_json}}", "{{k3_json}}", "{{k4_json}}"].allSatisfy(note.contains), "\(exported.stderr)")
            // The user gives the escaped forms as the note says.
            try #"{"dev": {"k1": "abc\"def", "k2": "abcé123", "k1_json": "abc\\\"def", "k3_json": "back\\\\slash", "k4_json": "tab\\there"}}"#
                .write(to: directory.appendingPathComponent("http-client.private.env.json"), atomically: true, encoding: .utf8)
            let sent = try await WSHProcess.run(["--env", "dev", "-c", """
                set output quiet
                source o.http
                expect .json.a == $k1
                expect .json.b == $k2
                expect .json.c == "back\\\\slash"
                expect .json.d == "tab\\there"
                expect .headers.X-K1 == $k1
                """], directory: directory)
            #expect(sent.status == 0, "\(sent.stdout) \(sent.stderr)")
        }
    }

    /// newman's echo collection (Tests/Files/postman): its basic auth's password is the word
    /// `password`, which the export writes as `{{password}}`, not `{{***}}`: the request exported
    /// runs, given the password, and httpbin's basic-auth answers it.
    @Test func aSecretThatIsAlsoThePlaceholdersNameKeepsTheName() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try PostmanCollectionTests.copies([("https://postman-echo.com/basic-auth", httpbin.baseURL + "/basic-auth/postman/password"),
                                                               ("https://postman-echo.com", httpbin.baseURL)])
            defer { ScratchDirectory.remove(directory) }
            let exported = try await WSHProcess.run(["-c", "use postman echo-v2.postman_collection.json as c\nexport http"], directory: directory)
            #expect(exported.status == 0, "\(exported.stderr)")
            #expect(exported.stdout.contains("Authorization: Basic postman:{{password}}") && !exported.stdout.contains("{{***}}"), "\(exported.stdout)")
            #expect(exported.stderr.contains("note: {{password}}, "), "\(exported.stderr)")
            let block = exported.stdout.components(separatedBy: "###").first { $0.contains("Basic postman:") } ?? ""
            try ("###" + block).write(to: directory.appendingPathComponent("basic.http"), atomically: true, encoding: .utf8)
            let sent = try await WSHProcess.run(["--var", "password=password", "-c", "set output quiet\nsource basic.http\nprint .authenticated"],
                                                directory: directory)
            #expect(sent.status == 0 && sent.stdout == "true\n", "\(sent.stdout) \(sent.stderr)")
        }
    }

    /// httpyac's JetBrains OAuth2 example, whose private password is `doe`: its `$auth.token` is
    /// refused in wsh's own words ("does"), while a secret in the value the message quotes is `***`.
    @Test func aShortSecretIsMaskedInValuesNotInWshsWords() async throws {
        let directory = try Self.httpyacOAuth2Files()
        defer { ScratchDirectory.remove(directory) }
        let result = try await WSHProcess.run(["--env", "local", "test.http"], directory: directory)
        #expect(result.stderr.contains(#"test.http:2:23: error: '{{$auth.token("auth-id")}}': wsh does not know this value"#), "\(result.stderr)")
        #expect(!result.stderr.contains("***s not"), "\(result.stderr)")
        try "GET http://127.0.0.1:9/\nX-Who: {{$auth.token(\"doe\")}}\n".write(to: directory.appendingPathComponent("quoted.http"),
                                                                              atomically: true, encoding: .utf8)
        let quoted = try await WSHProcess.run(["--env", "local", "quoted.http"], directory: directory)
        #expect(quoted.stderr.contains(#"error: '{{$auth.token("***")}}': wsh does not know this value"#), "\(quoted.stderr)")
        #expect(!quoted.stderr.contains(#""doe""#), "\(quoted.stderr)")
    }

    /// The same under `wsh test`, on its screen and in its JUnit report: the recorder masks the
    /// values an error quotes, not wsh's words, also when it masks them again at the file's end.
    @Test func underWshTestAShortSecretIsMaskedInValuesOnly() async throws {
        let directory = try Self.httpyacOAuth2Files()
        defer { ScratchDirectory.remove(directory) }
        try "GET http://127.0.0.1:9/\nX-Who: {{$auth.token(\"doe\")}}\n".write(to: directory.appendingPathComponent("quoted.http"),
                                                                              atomically: true, encoding: .utf8)
        let result = try await WSHProcess.run(["test", "--env", "local", "--report-junit", "junit.xml", "test.http", "quoted.http"],
                                              directory: directory)
        let junit = try String(contentsOf: directory.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(result.stdout.contains(#"test.http:2:23 '{{$auth.token("auth-id")}}': wsh does not know this value"#), "\(result.stdout)")
        #expect(result.stdout.contains(#"quoted.http:2:8 '{{$auth.token("***")}}': wsh does not know this value"#), "\(result.stdout)")
        #expect(junit.contains("wsh does not know this value") && !junit.contains("***s not"), "\(junit)")
        #expect(!result.stdout.contains("***s not") && !result.stdout.contains(#""doe""#), "\(result.stdout)")
        #expect(!junit.contains("&quot;doe&quot;") && !junit.contains(#""doe""#), "\(junit)")
    }

    /// A note is wsh's words too: the password `name` leaves "@name = value" as it is.
    @Test func aShortSecretIsNotMaskedInANotesWords() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(directory) }
        try #"{"local": {"password": "name"}}"#.write(to: directory.appendingPathComponent("http-client.private.env.json"),
                                                      atomically: true, encoding: .utf8)
        try "< {%\n  request.variables.set(\"x\", \"1\")\n%}\nGET http://127.0.0.1:9/x\n"
            .write(to: directory.appendingPathComponent("pre.http"), atomically: true, encoding: .utf8)
        let note = "note: set the values it computes as @name = value"
        let run = try await WSHProcess.run(["--env", "local", "pre.http"], directory: directory)
        #expect(run.stderr.contains(note), "\(run.stderr)")
        let test = try await WSHProcess.run(["test", "--env", "local", "pre.http"], directory: directory)
        #expect(test.stdout.contains(note), "\(test.stdout)")
    }
}
