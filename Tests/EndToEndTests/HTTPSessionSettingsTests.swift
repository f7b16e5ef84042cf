import Foundation
import TestSupport
import Testing

/// The transport settings at the shell (`set follow|compress|max-body|user-agent`, a target's
/// `follow`), and compression against httpbin, a server nobody here wrote, compared with curl.
@Suite struct HTTPSessionSettingsTests {
    @Test func followOffAnswersWithTheRedirectAndATargetsFollowWins() async throws {
        try await withLoopbackServer { server in
            let (result, _) = try await runScript("""
            set base \(server.baseURL)
            set follow off
            get /redirect?n=2
            expect status == 302
            expect header Location == "/redirect?n=1"
            target two { path /redirect; query n=2; follow 5 }
            call two
            expect status == 200
            expect redirects | length == 2
            target short { path /redirect; query n=3; follow 1 }
            set follow on
            set follow
            call short
            """)
            #expect(result.status != 0)
            #expect(result.stdout.contains("follow  on  (script.wsh:11)"), "\(result.stdout)")
            #expect(result.stderr.contains("script.wsh:13:6: error: too many redirects for GET \(server.baseURL)/redirect?n=3 (more than 1 is followed)"), "\(result.stderr)")
            #expect(result.stderr.contains("note: set follow N (or a target's follow N) follows more"))
        }
    }

    @Test func theLoggerShowsEachHopAndTheDefaultHeaders() async throws {
        try await withLoopbackServer { server in
            let (result, _) = try await runScript("""
            plugin logger on summary
            get \(server.baseURL)/redirect?n=2 > /dev/null
            set user-agent "probe/1.0"
            get \(server.baseURL)/echo
            expect .headers[0][1] == "probe/1.0"
            set user-agent off
            get \(server.baseURL)/echo
            expect .headers[0][0] == "Accept"
            """)
            #expect(result.status == 0, "\(result.stderr)")
            let hops = result.stderr.split(separator: "\n").filter { $0.contains("/redirect?n=") }
            #expect(hops.count == 3, "\(result.stderr)")
        }
    }

    /// Quiet: a body printed into a pipe streams past the limit (StreamedBodyTests); one kept must fit.
    @Test func maxBodyIsNamedInTheErrorAndOffLiftsIt() async throws {
        try await withLoopbackServer { server in
            let (result, _) = try await runScript("""
            set bail off
            set max-body 1KB
            set output quiet
            get \(server.baseURL)/large?bytes=4096
            set max-body off
            get \(server.baseURL)/large?bytes=4096 > big.bin
            set max-body lots
            """)
            #expect(result.stderr.contains("error: response to GET \(server.baseURL)/large?bytes=4096 is larger than the limit of 1.0 KB"))
            #expect(result.stderr.contains("note: set max-body raises the limit (set max-body 200MB), or lifts it (set max-body off)"))
            #expect(result.stderr.contains("error: invalid value 'lots' for 'max-body'"))
            #expect(result.stderr.components(separatedBy: "error:").count == 3, "only the two errors: \(result.stderr)")
        }
    }

    @Test func aTargetTakesAnyMethodToken() async throws {
        try await withLoopbackServer { server in
            let (result, _) = try await runScript("""
            target dav { base \(server.baseURL); path /echo; method PROPFIND }
            call dav
            expect .method == "PROPFIND"
            let method = "GET /x"
            target bad { base \(server.baseURL); path /echo; method $method }
            call bad
            """)
            #expect(result.status != 0)
            #expect(result.stderr.contains("error: 'GET /x' is not an HTTP method"), "\(result.stderr)")
        }
    }

    /// httpbin's /gzip, /deflate and /brotli answer with those codings; wsh's decoded body is what
    /// `curl --compressed` prints, and with `set compress off` it is the bytes curl gets without it.
    @Test func httpbinsCompressedAnswersDecodeAsCurlDecodesThem() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try await HTTPBinServer.with { httpbin in
            let (result, _) = try await runScript("""
            get \(httpbin.baseURL)/gzip > gzip.json
            get \(httpbin.baseURL)/deflate > deflate.json
            get \(httpbin.baseURL)/brotli > brotli.json
            set compress off
            get \(httpbin.baseURL)/gzip Accept-Encoding:gzip > raw.bin
            """, directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            for (name, flag) in [("gzip", "gzipped"), ("deflate", "deflated"), ("brotli", "brotli")] {
                let fromWSH = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("\(name).json"))) as? [String: Any]
                let curl = try await runCurl(["--compressed", "\(httpbin.baseURL)/\(name)"], directory: directory)
                let fromCurl = try JSONSerialization.jsonObject(with: curl) as? [String: Any]
                #expect(fromWSH?[flag] as? Bool == true, "\(name)")
                #expect(fromCurl?[flag] as? Bool == true, "\(name)")
                #expect((fromWSH?["method"] as? String) == (fromCurl?["method"] as? String))
            }
            let raw = try Data(contentsOf: directory.appendingPathComponent("raw.bin"))
            #expect(Array(raw.prefix(2)) == [0x1F, 0x8B], "gzip's magic number: the bytes as sent")
        }
    }

    /// Text in the charset its Content-Type names is shown and queried as text; `> FILE` and raw
    /// output keep the bytes as sent.
    @Test func textIsDecodedFromItsCharsetForShowingAndQueries() async throws {
        let cases: [(path: String, charset: String, bytes: [UInt8], text: String)] = [
            ("/latin1", "iso-8859-1", [0x63, 0x61, 0x66, 0xE9], "café"),
            ("/cp1252", "windows-1252", [0x80, 0x35], "€5"),
            ("/gb2312", "gb2312", [0xC4, 0xE3, 0xBA, 0xC3], "你好"),
            ("/sjis", "shift_jis", [0x82, 0xB1, 0x82, 0xF1], "こん"),
            ("/euckr", "EUC-KR", [0xC7, 0xD1, 0xB1, 0xDB], "한글"),
        ]
        var routes: [String: StaticRoute] = [:]
        for item in cases {
            routes[item.path] = StaticRoute(headers: [("Content-Type", "text/plain; charset=\(item.charset)")], body: item.bytes)
        }
        let directory = try WSHProcess.temporaryDirectory()
        try await withLoopbackServer(routes: routes) { server in
            var script = "set output pretty\n"
            for (index, item) in cases.enumerated() {
                script += "get \(server.baseURL)\(item.path)\nexpect body == \"\(item.text)\"\nget \(server.baseURL)\(item.path) > raw-\(index).bin\n"
            }
            let (result, _) = try await runScript(script, directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == cases.map { $0.text + "\n" }.joined())
            for (index, item) in cases.enumerated() {
                #expect(Array(try Data(contentsOf: directory.appendingPathComponent("raw-\(index).bin"))) == item.bytes)
            }
        }
    }

    /// `http://user:pass@host/` is Basic authentication, as curl sends it, and the password is
    /// masked wherever the logger shows the request.
    @Test func credentialsInAURLAreBasicAuthAndMasked() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try await HTTPBinServer.with { httpbin in
            let host = httpbin.baseURL.replacingOccurrences(of: "http://", with: "")
            let (result, _) = try await runScript("""
            plugin logger on verbose
            get http://ann:s%40cret-pw@\(host)/basic-auth/ann/s@cret-pw
            expect status == 200
            expect .user == "ann"
            """, directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.contains("cret-pw@"), "\(result.stderr)")
            #expect(result.stderr.contains("> Authorization: ***"))
            let curl = try await runCurl(["http://ann:s%40cret-pw@\(host)/basic-auth/ann/s@cret-pw"], directory: directory)
            #expect((try JSONSerialization.jsonObject(with: curl) as? [String: Any])?["user"] as? String == "ann")
        }
    }
}
