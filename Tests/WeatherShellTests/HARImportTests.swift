import Foundation
import Targets
import Testing
@testable import WeatherShell

/// Reading a HAR: which requests become targets, which headers they keep, how a body is rebuilt.
@Suite struct HARImportTests {
    static func imported(_ entries: String, creator: String = "WebInspector") throws -> HARImport {
        try HARImport(json: try JSONValue.parse(Array(#"{"log": {"version": "1.2", "creator": {"name": "\#(creator)"}, "entries": [\#(entries)]}}"#.utf8)))
    }

    @Test func aBrowsersHARKeepsItsAPICallsAndTheHeadersAPersonWould() throws {
        let har = try Self.imported("""
            {"_resourceType": "document", "request": {"method": "GET", "url": "https://app.example/", "headers": []}, "response": {"status": 200}},
            {"_resourceType": "image", "request": {"method": "GET", "url": "https://app.example/logo.png", "headers": []}, "response": {"status": 200}},
            {"_resourceType": "fetch", "request": {"method": "post", "url": "https://api.example/v1/items?x=1",
              "headers": [{"name": ":authority", "value": "api.example"}, {"name": "Cookie", "value": "s=1"}, {"name": "User-Agent", "value": "Chrome"},
                          {"name": "sec-ch-ua", "value": "x"}, {"name": "Authorization", "value": "Bearer t"}, {"name": "Bad Name", "value": "v"}],
              "postData": {"mimeType": "application/json", "text": "{\\"a\\": 1}"}},
             "response": {"status": 201, "content": {"mimeType": "application/json", "text": "{\\"id\\": 7}"}}},
            {"_resourceType": "xhr", "request": {"method": "POST", "url": "https://api.example/v1/items?x=2", "headers": []},
             "response": {"status": 409, "content": {"text": "e30=", "encoding": "base64"}}}
            """)
        #expect(har.leftOut == ["document", "image"])
        #expect(har.requests.count == 1, "the same method and path is one target")
        let request = try #require(har.requests.first)
        #expect(request.curlWords == ["-X", "POST", "https://api.example/v1/items?x=1", "-H", "Authorization: Bearer t",
                                      "-H", "Content-Type: application/json", "--data-raw", "{\"a\": 1}"])
        #expect(request.answers.map(\.status) == [201, 409])
        #expect(request.answers.last?.text == "{}", "a base64 answer is decoded")
        #expect(har.invalidHeaderNames == ["Bad Name"])
    }

    /// A HAR an API client wrote (mitmproxy's test file from Insomnia, Tests/Files/har/SOURCES.md)
    /// keeps its requests, though its answer is HTML: the browser's filter is a browser's HAR's.
    @Test func aHARFromAnAPIClientKeepsEveryRequest() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Files/har/insomnia.har")
        let har = try HARImport(json: try JSONValue.parse(Array(try Data(contentsOf: file))))
        #expect(har.leftOut.isEmpty && har.requests.map { Array($0.curlWords.prefix(3)) } == [["-X", "GET", "http://mitm.it/"]])
        let page = #"{"request": {"method": "GET", "url": "https://h/"}, "response": {"status": 200, "content": {"mimeType": "text/html; charset=utf-8"}}}"#
        #expect(try Self.imported(page).leftOut == ["text/html"], "a browser's page")
        #expect(try Self.imported(page, creator: "Charles Proxy").leftOut.isEmpty)
    }

    @Test func queryStringAndFormParamsAreRebuilt() throws {
        let har = try Self.imported("""
            {"request": {"method": "POST", "url": "https://h/post", "queryString": [{"name": "q", "value": "a b"}],
              "postData": {"mimeType": "application/x-www-form-urlencoded", "params": [{"name": "n", "value": "1"}, {"name": "m", "value": "2"}]}}},
            {"request": {"method": "POST", "url": "https://h/upload", "postData": {"mimeType": "multipart/form-data", "params": [{"name": "f", "value": "@/etc/passwd"}]}}}
            """)
        #expect(har.requests.first?.curlWords == ["-X", "POST", "https://h/post?q=a%20b", "-H", "Content-Type: application/x-www-form-urlencoded",
                                                  "--data-raw", "n=1&m=2"])
        #expect(har.requests.last?.curlWords == ["-X", "POST", "https://h/upload", "--form-string", "f=@/etc/passwd"],
                "a part's value is text, never a file of this machine")
    }

    @Test func aHARWshWroteKeepsEveryCall() throws {
        let har = try Self.imported(#"""
            {"comment": "wsh target logo", "request": {"method": "GET", "url": "http://h/logo.png"}, "response": {"status": 200, "content": {"mimeType": "image/png"}}},
            {"comment": "wsh target (get)", "request": {"method": "GET", "url": "http://h/other"}}
            """#, creator: "wsh")
        #expect(har.requests.count == 2 && har.leftOut.isEmpty)
        #expect(har.requests.map(\.name) == ["logo", nil], "the target's name, not an ad-hoc request's")
        let report = try Self.imported(#"""
            {"comment": "wsh test api/req.http: getUser", "request": {"method": "GET", "url": "http://h/users/1"}},
            {"comment": "wsh test a: b.wsh: post-json", "request": {"method": "POST", "url": "http://h/post"}},
            {"comment": "wsh test t.wsh: (get)", "request": {"method": "GET", "url": "http://h/other"}}
            """#, creator: "wsh")
        #expect(report.requests.map(\.name) == ["getUser", "post-json", nil], "a --report-har entry's target, after its file")
        #expect(throws: HARImport.Failure.self) { try HARImport(json: .object([])) }
    }
}
