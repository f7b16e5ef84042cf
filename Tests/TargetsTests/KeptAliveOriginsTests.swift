import AsyncHTTPClient
import NIOHTTP1
@testable import Targets
import Testing

/// Which origins' last answers left a connection open: what decides whether a request that met a
/// closed connection is sent again.
@Suite struct KeptAliveOriginsTests {
    private func request(_ url: String) throws -> HTTPClient.Request {
        try HTTPClient.Request(url: url)
    }

    private func head(keepAlive: Bool) -> HTTPResponseHead {
        HTTPResponseHead(version: .http1_1, status: .ok, headers: keepAlive ? [:] : ["Connection": "close"])
    }

    @Test func anOriginIsForgottenOnceAndOnlyWhenItsLastAnswerLeftItOpen() throws {
        let origins = KeptAliveOrigins()
        let a = try request("http://127.0.0.1:8080/x")
        let b = try request("http://127.0.0.1:8081/y")
        // Noted open twice in a row, then forgotten once.
        origins.note(head(keepAlive: true), answering: a)
        origins.note(head(keepAlive: true), answering: a)
        #expect(origins.forget(a))
        #expect(!origins.forget(a))
        // Open again after being forgotten: kept again.
        origins.note(head(keepAlive: true), answering: a)
        #expect(origins.forget(a))
        origins.note(head(keepAlive: true), answering: a)
        #expect(origins.forget(a))
        // Open, then closed: not kept.
        origins.note(head(keepAlive: true), answering: a)
        origins.note(head(keepAlive: false), answering: a)
        #expect(!origins.forget(a))
        origins.note(head(keepAlive: true), answering: a)
        #expect(origins.forget(a))
        // Two origins, each kept, whichever was noted last; the other port is another origin.
        origins.note(head(keepAlive: true), answering: a)
        origins.note(head(keepAlive: true), answering: b)
        origins.note(head(keepAlive: true), answering: a)
        #expect(origins.forget(b) && origins.forget(a))
        #expect(!origins.forget(a) && !origins.forget(b))
        // The same path on another scheme is another origin.
        origins.note(head(keepAlive: true), answering: a)
        #expect(!origins.forget(try request("https://127.0.0.1:8080/x")))
        #expect(origins.forget(a))
    }
}
