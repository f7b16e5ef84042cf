import Foundation
@testable import Targets
import Testing

/// The credentials a recording masks by shape, and the prose it keeps (review of F20: `Basic
/// authentication.` lost its last word to `***`).
@Suite struct RecordedShapesTests {
    static func masked(_ text: String) -> String {
        String(decoding: Redaction.maskedCredentialShapes(Data(text.utf8)), as: UTF8.self)
    }

    @Test func credentialsAreMaskedAndProseIsKept() {
        #expect(Self.masked("Authorization: Bearer abc123DEF456ghi") == "Authorization: Bearer ***")
        #expect(Self.masked("Proxy: Basic dXNlcjpwYXNz") == "Proxy: Basic ***")
        #expect(Self.masked("postgres://user:pa55word@db/app") == "postgres://user:***@db/app")
        for prose in ["Use Basic authentication. See the docs.", "Use Basic authentication, then", "Bearer tokens, as issued.",
                      "a Basic Authorization header"] {
            #expect(Self.masked(prose) == prose, "\(prose)")
        }
        // A binary body is never rewritten, though its bytes happen to read as a URL's password.
        let binary = Data([0xFF, 0xFE, 0x00] + Array("xx://ab:cd@ef".utf8) + [0x80])
        #expect(Redaction.maskedCredentialShapes(binary) == binary)
    }
}
