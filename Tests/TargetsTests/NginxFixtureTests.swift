import Foundation
import TestSupport
import Testing

/// The nginx fixture itself, as other suites rely on it: gzip for JSON, the echo routes, the log.
@Suite struct NginxFixtureTests {
    @Test func jsonIsGzippedForAClientThatAcceptsGzipOnly() async throws {
        try await withNginx { nginx in
            let url = nginx.httpURL + "/data.json"
            let compressed = try await curl(["-D", "-", "-o", "/dev/null", "-H", "Accept-Encoding: gzip", url])
            #expect(compressed.lowercased().contains("content-encoding: gzip"))
            #expect(try await nginx.accessLogLine(1)?.hasSuffix("encoding=gzip") == true)
            let plain = try await curl(["-D", "-", "-o", "/dev/null", url])
            #expect(!plain.lowercased().contains("content-encoding"))
            #expect(try await curl(["--compressed", url]) == nginx.jsonBody)
        }
    }

    @Test func headersRouteEchoesWhatTheClientSent() async throws {
        try await withNginx { nginx in
            let text = try await curl(["-A", "probe/1", "-H", "Cookie: a=1", nginx.httpURL + "/headers"])
            #expect(text == "accept-encoding: \nuser-agent: probe/1\nproxy-authorization: \ncookie: a=1\n")
        }
    }
}
