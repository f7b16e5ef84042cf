import Foundation
import Testing
import TestSupport

/// The end-of-file pass of `wsh test` masks again with the session's secrets some record lacked,
/// on top of what each record was masked with; the values of `env NAME`s are secrets from the
/// first line, but not where the parser reads `public`, nor a name in a comment.
@Suite struct EndOfFileMaskTests {
    /// The 4-character pieces of `values` that `text` shows.
    static func pieces(of values: [String], shownIn text: String) -> [String] {
        values.flatMap { value in
            let characters = Array(value)
            return (0...(characters.count - 4)).map { String(characters[$0..<($0 + 4)]) }
        }.filter(text.contains)
    }

    static func run(_ files: [String], environment: [String: String], in directory: URL) async throws -> (WSHProcess.Result, [(String, String)]) {
        let result = try await WSHProcess.run(
            ["test"] + files.map { "tests/" + $0 } + ["--jobs", "1", "--report-junit", "out/junit.xml", "--report-json", "out/report.json",
                                                     "--report-html", "out/html", "--report-har", "out/report.har"],
            environment: environment, directory: directory)
        var texts = [("stdout", result.stdout), ("stderr", result.stderr)]
        for name in ["junit.xml", "report.json", "html/index.html", "report.har"] {
            texts.append((name, try String(contentsOf: directory.appendingPathComponent("out/" + name), encoding: .utf8)))
        }
        return (result, texts)
    }

    @Test func anEarlierCallsCredentialStaysMaskedAndTheLastCallsMasksNoEarlierCall() async throws {
        try await withLoopbackServer { server in
            let late = "RjTgHdFsYuIoPw"
            let directory = try TestRunnerTests.suite([
                "cred.wsh": """
                    set bail off
                    get \(server.baseURL)/status/200?appid=Lq7Cred1Zq&city=Sw9Town
                    expect "a" == "Lq7Cred1Zq"
                    expect "a" == "\(late)"
                    let k = env REVIEW_KEY
                    get \(server.baseURL)/status/200?appid=Sw9Town

                    """,
            ])
            let (result, texts) = try await Self.run(["cred.wsh"], environment: ["REVIEW_KEY": late], in: directory)
            #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("    expect \"a\" == \"***\"\n"), "\(result.stdout)")
            for (name, text) in texts {
                let shown = Self.pieces(of: ["Lq7Cred1Zq", late], shownIn: text)
                #expect(shown.isEmpty, "\(name) shows \(shown): \(text)")
            }
            // Sw9Town is the last call's credential only: the first call's city shows.
            let json = texts.first { $0.0 == "report.json" }?.1 ?? ""
            #expect(json.contains("/status/200?appid=***&city=Sw9Town"), "\(json)")
        }
    }

    @Test func aPublicEnvValueOrANameInACommentShows() async throws {
        try await withLoopbackServer { server in
            let directory = try TestRunnerTests.suite([
                "public.wsh": """
                    # Run with the loopback server; set env PORT_OF_THE_TEST to choose it.
                    let base = env BASE_OF_THE_TEST public   # the server
                    let again = env BASE_OF_THE_TEST public; if 1 == 1 { let other = env BASE_OF_THE_TEST public }
                    get $base/status/200?city=Suwon

                    """,
            ])
            let environment = ["BASE_OF_THE_TEST": server.baseURL, "PORT_OF_THE_TEST": String(server.port)]
            let (result, texts) = try await Self.run(["public.wsh"], environment: environment, in: directory)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            for name in ["report.json", "report.har"] {
                let text = texts.first { $0.0 == name }?.1 ?? ""
                #expect(text.contains("\"\(server.baseURL)/status/200?city=Suwon\""), "\(name): \(text)")
            }
        }
    }

    @Test func aSourcedFileThatDoesNotParseShowsNoEnvValueItNames() async throws {
        let directory = try TestRunnerTests.suite([
            "source.wsh": "set bail off\nsource lib_bad.wsh\n",
            "lib_bad.wsh": "let k = env SOURCED_KEY\nexpect \"a\" == \"Hq3SrcBad9\" ((\n",
        ])
        let (result, texts) = try await Self.run(["source.wsh"], environment: ["SOURCED_KEY": "Hq3SrcBad9"], in: directory)
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("    expect \"a\" == \"***\" ((\n"), "\(result.stdout)")
        for (name, text) in texts {
            let shown = Self.pieces(of: ["Hq3SrcBad9"], shownIn: text)
            #expect(shown.isEmpty, "\(name) shows \(shown): \(text)")
        }
    }
}
