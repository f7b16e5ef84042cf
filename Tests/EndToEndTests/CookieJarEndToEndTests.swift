import Foundation
import TestSupport
import Testing

/// The session's cookie jar against httpbin: cookies set on a redirect hop are sent on the next
/// call, listed with secrets masked, saved in the file curl reads, and kept out when `set cookies off`.
@Suite struct CookieJarEndToEndTests {
    @Test func aLoginFlowKeepsItsCookiesAndCurlReadsTheSavedFile() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try await HTTPBinServer.with { httpbin in
            let base = httpbin.baseURL
            let (result, _) = try await runScript("""
            get \(base)/cookies/set?theme=dark&session_token=s3cr3t-cookie-value
            expect redirects | length == 1
            expect .cookies.theme == "dark"
            get \(base)/cookies
            expect .cookies.session_token == "s3cr3t-cookie-value"
            cookies
            cookies save jar.txt
            set cookies off
            get \(base)/cookies
            expect .cookies | length == 0
            set cookies on
            cookies clear
            cookies
            cookies load jar.txt
            get \(base)/cookies > after-load.json
            """, directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("127.0.0.1  /  session_token=***  session\n"), "\(result.stdout)")
            #expect(result.stdout.contains("127.0.0.1  /  theme=dark         session\n"), "\(result.stdout)")
            #expect(result.stdout.contains("(no cookies)\n"))
            #expect(!result.stdout.contains("s3cr3t-cookie-value\n127"), "the listing masks a cookie named like a secret")
            let fromCurl = try await runCurl(["-b", "jar.txt", "\(base)/cookies"], directory: directory)
            let curlSaw = try JSONSerialization.jsonObject(with: fromCurl) as? [String: Any]
            let wshSaw = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("after-load.json"))) as? [String: Any]
            #expect(curlSaw?["cookies"] as? [String: String] == ["theme": "dark", "session_token": "s3cr3t-cookie-value"])
            #expect(wshSaw?["cookies"] as? [String: String] == curlSaw?["cookies"] as? [String: String])
        }
    }

    @Test func aMalformedCookieFileIsAnErrorAtItsLine() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try "# Netscape HTTP Cookie File\nnot a cookie line\n".write(to: directory.appendingPathComponent("bad.txt"), atomically: true, encoding: .utf8)
        let (result, _) = try await runScript("cookies load bad.txt\n", directory: directory)
        #expect(result.status != 0)
        #expect(result.stderr.contains("bad.txt:2"), "\(result.stderr)")
    }
}
