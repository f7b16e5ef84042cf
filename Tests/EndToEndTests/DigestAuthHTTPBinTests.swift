import Foundation
import Testing
import TestSupport

/// `plugin auth digest USER:PASS` against httpbin's Digest routes, a server nobody here wrote,
/// beside `curl --digest -u USER:PASS` on the same routes: both are let in the same way.
@Suite(.serialized) struct DigestAuthHTTPBinTests {
    static let password = "pa55-Digest-7q"

    /// httpbin's answer once authenticated.
    static let authenticated = #"{"authenticated":true,"user":"ann"}"#

    /// The JSON object in `data`, compact, or the text itself when it is not JSON.
    func normalized(_ data: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: data),
              let compact = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return String(decoding: data, as: UTF8.self)
        }
        return String(decoding: compact, as: UTF8.self)
    }

    /// The status of each answer in a verbose log: its `< 200 OK 4 ms 45 B` lines.
    static func statuses(inVerboseLog log: String) -> [String] {
        log.split(separator: "\n").compactMap { $0.wholeMatch(of: /< (\d{3}) .* ms .*/)?.1 }.map(String.init)
    }

    @Test func md5AndSHA256AreLetInAsCurlIs() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try await HTTPBinServer.with { httpbin in
            let base = httpbin.baseURL
            let routes = ["auth/ann/\(Self.password)/MD5", "auth/ann/\(Self.password)/SHA-256", "auth/ann/\(Self.password)/MD5"]
            var script = "plugin auth digest ann:\(Self.password) host 127.0.0.1\nplugin logger on summary file calls.log\n"
            for (index, route) in routes.enumerated() {
                script += "get \(base)/digest-auth/\(route) > out-\(index).json\nexpect status == 200\n"
            }
            script += "plugins\n"
            let (result, _) = try await runScript(script, directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("digest ann:*** host 127.0.0.1"), "\(result.stdout)")
            for (index, route) in routes.enumerated() {
                let fromWSH = try Data(contentsOf: directory.appendingPathComponent("out-\(index).json"))
                let fromCurl = try await runCurl(["--digest", "-u", "ann:\(Self.password)", "\(base)/digest-auth/\(route)"], directory: directory)
                #expect(normalized(fromWSH) == Self.authenticated, "\(route)")
                #expect(normalized(fromCurl) == normalized(fromWSH), "\(route)")
            }
            let log = try String(contentsOf: directory.appendingPathComponent("calls.log"), encoding: .utf8)
            #expect(log.contains(" -> 401 ") && log.contains(" -> 200 "), "\(log)")
            #expect(!log.contains(Self.password))
        }
    }

    @Test func aReusedNonceIsAnsweredWithTheNextCountWithoutAChallenge() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try await HTTPBinServer.with { httpbin in
            let url = "\(httpbin.baseURL)/digest-auth/auth/ann/\(Self.password)/SHA-256"
            let script = """
                plugin auth digest ann:\(Self.password) host 127.0.0.1
                plugin logger on verbose file calls.log
                get \(url) > first.json
                let other = env WSH_DIGEST_OTHER_SECRET
                get \(url) > second.json
                expect status == 200
                """
            // A new secret between the calls makes the plugins anew: the nonce answered is kept.
            let (result, _) = try await runScript(script, environment: ["WSH_DIGEST_OTHER_SECRET": "other-secret-1"], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let log = try String(contentsOf: directory.appendingPathComponent("calls.log"), encoding: .utf8)
            let statuses = Self.statuses(inVerboseLog: log)
            #expect(statuses == ["401", "200", "200"], "\(log)")
            #expect(!log.contains(Self.password))
        }
    }

    /// httpbin's `stale_after` route answers every authorized request with `stale=true` while the
    /// request sends the cookie `stale_after=0` (given here by hand): a stale nonce is answered
    /// once more, and then the 401 is the answer.
    @Test func aStaleNonceIsAnsweredOnceMoreAndNoMore() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try await HTTPBinServer.with { httpbin in
            let url = "\(httpbin.baseURL)/digest-auth/auth/ann/\(Self.password)/MD5/0"
            let script = """
                plugin auth digest ann:\(Self.password) host 127.0.0.1
                plugin logger on verbose file calls.log
                get \(url) Cookie:stale_after=0 > out.json
                expect status == 401
                """
            let (result, _) = try await runScript(script, directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let log = try String(contentsOf: directory.appendingPathComponent("calls.log"), encoding: .utf8)
            #expect(Self.statuses(inVerboseLog: log) == ["401", "401", "401"], "\(log)")
            let stale = log.split(separator: "\n").filter { $0.contains("WWW-Authenticate:") }.map { $0.contains("stale=True") }
            #expect(stale == [false, true, true], "\(log)")
        }
    }

    @Test func aWrongPasswordEndsInTheServers401WithThePasswordMasked() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try await HTTPBinServer.with { httpbin in
            let url = "\(httpbin.baseURL)/digest-auth/auth/ann/\(Self.password)/MD5"
            let wrong = "not-\(Self.password)"
            let script = """
                plugin auth digest ann:\(wrong) host 127.0.0.1
                plugin logger on verbose file calls.log
                get \(url) > out.json
                expect status == 401
                plugins
                """
            let (result, _) = try await runScript(script, directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let curlStatus = try await runCurl(["--digest", "-u", "ann:\(wrong)", "-o", "/dev/null", "-w", "%{http_code}", url], directory: directory)
            #expect(String(decoding: curlStatus, as: UTF8.self) == "401")
            let log = try String(contentsOf: directory.appendingPathComponent("calls.log"), encoding: .utf8)
            let statuses = Self.statuses(inVerboseLog: log)
            #expect(statuses == ["401", "401"], "one answer to the challenge, no more: \(log)")
            for text in [log, result.stdout, result.stderr] { #expect(!text.contains(wrong)) }
            #expect(!result.stderr.contains("does not implement"), "a wrong password is no unknown algorithm: \(result.stderr)")
        }
    }

    /// httpbin's SHA-512 route challenges with `algorithm=SHA-512`, which wsh does not implement:
    /// the 401 comes with a note naming it and what wsh answers, for `plugin auth` and `-A digest`.
    @Test func anAlgorithmWshDoesNotImplementIsNamedInANote() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try await HTTPBinServer.with { httpbin in
            let url = "\(httpbin.baseURL)/digest-auth/auth/ann/\(Self.password)/SHA-512"
            let note = "note: the server asks for Digest with algorithm SHA-512, which wsh does not implement "
                + "(it answers MD5, MD5-sess, SHA-256, SHA-256-sess); the credentials were not sent\n"
            let plugin = try await runScript("plugin auth digest ann:\(Self.password) host 127.0.0.1\nget \(url) > out.json\nexpect status == 401\n",
                                             directory: directory).0
            #expect(plugin.status == 0, "\(plugin.stderr)")
            #expect(plugin.stderr == note, "\(plugin.stderr)")
            let flag = try await runScript("get \(url) -A digest -a ann:\(Self.password) > out.json\nexpect status == 401\n", directory: directory).0
            #expect(flag.stderr == note, "\(flag.stderr)")
        }
    }
}
