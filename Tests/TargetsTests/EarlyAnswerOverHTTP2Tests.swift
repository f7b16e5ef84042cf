import Foundation
import Targets
import TestSupport
import Testing

/// nginx answers an upload over HTTP/2 before reading its body (`return 200`), then resets the
/// stream: AsyncHTTPClient 1.37 trapped when that answer's end came while the body was still
/// being written. The transport is called off its event loops, as a test runner or a load run
/// calls it, so that each request's task may start on another loop than the pooled connection.
@Suite struct EarlyAnswerOverHTTP2Tests {
    @Test func earlyAnswersToLargeUploadsOverHTTP2AreTaken() async throws {
        try await withNginx { nginx in
            let settings = TransportSettings(caCertificateFile: nginx.certificates.caCertificate)
            let transport = NetworkTransport(settings: settings, environment: [:])
            let body = RequestTask.data(Data(repeating: 0x61, count: 20_000_000), contentType: "application/octet-stream")
            let early = Target(name: "early", baseURL: nginx.httpsURL, path: "/early", method: .post, task: body)
            let tooLarge = Target(name: "large", baseURL: nginx.httpsURL, path: "/tls", method: .post, task: body)
            let provider = Provider<Target>(transport: transport)
            for _ in 0..<4 {
                let response = try await provider.request(early)
                #expect(response.status == 200 && response.httpVersion == "HTTP/2")
                #expect(response.text == #"{"early":true}"#)
            }
            #expect(try await provider.request(tooLarge).status == 413)
            try await transport.shutdown()
        }
    }
}
