import Foundation
import Testing
import TestSupport
@testable import WeatherShell

/// Environments read from the files other HTTP clients keep: which wins, which are secrets.
@Suite struct EnvironmentFilesTests {
    static func directory(_ files: [String: String]) throws -> URL {
        let directory = try ScratchDirectory.make("wsh-env")
        for (name, text) in files {
            let url = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return directory
    }

    /// REST Client's settings as its README shows them (`$shared`, `{{$shared NAME}}`), JetBrains'
    /// public and private files, and dotenv files, together.
    @Test func laterSourcesWinAndPrivateOnesAreSecret() throws {
        let directory = try Self.directory([
            ".vscode/settings.json": """
                {
                  // comments and trailing commas, as VS Code allows
                  "rest-client.environmentVariables": {
                    "$shared": { "version": "v1", "region": "eu", "nonProdToken": "bar", },
                    "local": { "version": "v2", "host": "localhost", "token2": "{{$shared nonProdToken}}" },
                  },
                }
                """,
            "http-client.env.json": #"{"local": {"host": "127.0.0.1", "port": 8080}, "prod": {"host": "example.com"}}"#,
            "http-client.private.env.json": #"{"local": {"token": "private-token"}}"#,
            ".env": "SHARED_KEY=from-dotenv\n",
            "staging.env": "export host='staging.example.com'\n",
        ])
        defer { ScratchDirectory.remove(directory) }
        #expect(EnvironmentFiles.names(in: directory.path) == ["local", "prod", "staging"])
        let local = try #require(try EnvironmentFiles.values(of: "local", in: directory.path))
        let byName = Dictionary(uniqueKeysWithValues: local.map { ($0.name, $0) })
        #expect(byName["version"]?.value == "v2")
        #expect(byName["region"]?.value == "eu")
        #expect(byName["host"]?.value == "127.0.0.1")
        #expect(byName["host"]?.source == "http-client.env.json")
        #expect(byName["port"]?.value == "8080")
        #expect(byName["token2"]?.value == "bar")
        #expect(byName["token"]?.isSecret == true)
        #expect(byName["SHARED_KEY"]?.isSecret == true)
        #expect(byName["host"]?.isSecret == false)
        let staging = try #require(try EnvironmentFiles.values(of: "staging", in: directory.path))
        #expect(staging.first { $0.name == "host" }?.value == "staging.example.com")
        #expect(try EnvironmentFiles.values(of: "nope", in: directory.path) == nil)
    }

    /// JetBrains' `$shared` environment gives its values to every environment of the file, the
    /// environment's own winning, and neither it nor `$schema` is an environment: `$shared` was
    /// not read (`{{host}}` was undefined) and both were listed as environments.
    @Test func jetBrainsSharedValuesReachEveryEnvironment() throws {
        let directory = try Self.directory([
            "http-client.env.json": """
                {"$schema": "https://json.schemastore.org/http-client.env.json",
                 "$shared": {"host": "http://127.0.0.1:1", "version": "v1"},
                 "dev": {"version": "v2"}, "prod": {}}
                """,
            "http-client.private.env.json": #"{"$shared": {"token": "shared-secret"}, "dev": {"token": "dev-secret"}}"#,
        ])
        defer { ScratchDirectory.remove(directory) }
        #expect(EnvironmentFiles.names(in: directory.path) == ["dev", "prod"])
        let dev = Dictionary(uniqueKeysWithValues: try #require(try EnvironmentFiles.values(of: "dev", in: directory.path)).map { ($0.name, $0) })
        #expect(dev["host"]?.value == "http://127.0.0.1:1" && dev["version"]?.value == "v2")
        #expect(dev["token"]?.value == "dev-secret" && dev["token"]?.isSecret == true)
        let prod = Dictionary(uniqueKeysWithValues: try #require(try EnvironmentFiles.values(of: "prod", in: directory.path)).map { ($0.name, $0) })
        #expect(prod["version"]?.value == "v1" && prod["token"]?.value == "shared-secret" && prod["token"]?.isSecret == true)
        #expect(try EnvironmentFiles.values(of: "$schema", in: directory.path) == nil)
        #expect(try EnvironmentFiles.values(of: "$shared", in: directory.path) == nil)
    }

    @Test func aFileThatIsNotJSONIsNamed() throws {
        let directory = try Self.directory(["http-client.env.json": "{\"dev\": "])
        defer { ScratchDirectory.remove(directory) }
        #expect(throws: EnvironmentFiles.Failure.self) { try EnvironmentFiles.values(of: "dev", in: directory.path) }
    }

    @Test func dotenvSyntax() {
        let values = DotenvFile.values("""
            # a comment
            PLAIN=value # trailing comment
            export EXPORTED=yes
            SINGLE='raw $PLAIN \\n'
            DOUBLE="line\\nnext ${PLAIN}"
            BARE=$PLAIN-x
            EMPTY=
            not a line
            """)
        #expect(values == ["PLAIN": "value", "EXPORTED": "yes", "SINGLE": "raw $PLAIN \\n", "DOUBLE": "line\nnext value",
                           "BARE": "value-x", "EMPTY": ""])
    }
}
