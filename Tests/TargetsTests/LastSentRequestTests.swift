import AsyncHTTPClient
import Foundation
import NIOHTTP1
@testable import Targets
import Testing

/// What the last request made is given back whole only for the same URL, method and headers, and in
/// part (what the URL and method made) when only header values differ.
@Suite struct LastSentRequestTests {
    @Test func madeComesBackWholeOnlyForTheSameURLMethodAndHeaders() throws {
        let last = LastSentRequest()
        let request = Request(method: .get, url: "http://127.0.0.1:8080/a", headers: [Header(name: "Accept", value: "*/*")])
        #expect(last.made(for: request) == nil)
        let made = LastSentRequest.Made(headers: ["Accept": "*/*"], outgoing: try HTTPClient.Request(url: request.url))
        last.keep(made, for: request)
        #expect(last.made(for: request)?.made.outgoing.url.absoluteString == request.url)
        #expect(last.made(for: request)?.sameHeaders == true)
        // With another body it is still the same request head.
        var withBody = request
        withBody.body = Data("x".utf8)
        #expect(last.made(for: withBody)?.sameHeaders == true)
        var other = request
        other.url = "http://127.0.0.1:8080/b"
        #expect(last.made(for: other) == nil)
        other = request
        other.method = .post
        #expect(last.made(for: other) == nil)
        // Another value under the same name: only what the URL made holds.
        other = request
        other.headers = [Header(name: "Accept", value: "*/*\r\nX-Injected: 1")]
        #expect(last.made(for: other)?.sameHeaders == false)
        other.headers = [Header(name: "accept", value: "*/*")]
        #expect(last.made(for: other) == nil)
        other.headers = request.headers + [Header(name: "X-More", value: "1")]
        #expect(last.made(for: other) == nil)
        other.headers = []
        #expect(last.made(for: other) == nil)
        // The same names in another order: a miss.
        let two = Request(method: .get, url: request.url, headers: [Header(name: "A", value: "1"), Header(name: "B", value: "2")])
        last.keep(made, for: two)
        other = two
        other.headers = [Header(name: "B", value: "2"), Header(name: "A", value: "1")]
        #expect(last.made(for: other) == nil)
        // Equal as Swift compares text, not as bytes: a miss, since the bytes are what is sent.
        let composed = Request(method: .get, url: "http://127.0.0.1:8080/caf\u{E9}", headers: [Header(name: "X-Name", value: "caf\u{E9}")])
        last.keep(made, for: composed)
        #expect(last.made(for: composed)?.sameHeaders == true)
        other = composed
        other.headers = [Header(name: "X-Name", value: "cafe\u{301}")]
        #expect(last.made(for: other)?.sameHeaders == false)
        other.headers = [Header(name: "X-Nam\u{E9}", value: "caf\u{E9}")]
        #expect(last.made(for: other) == nil)
        other = composed
        other.url = "http://127.0.0.1:8080/cafe\u{301}"
        #expect(last.made(for: other) == nil)
    }
}
