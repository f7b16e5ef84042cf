import Foundation
import Testing
@testable import WeatherShell

/// A `.http` request as a target: REST Client's Basic shorthand.
@Suite struct HTTPFileTargetTests {
    @Test func basicCredentialsAreSentInBase64AsRESTClientSendsThem() {
        let header = HTTPFile.Header(name: "Authorization", value: HTTPTemplate(parts: []), span: 0..<0)
        #expect(HTTPFileTarget.basicAuthorization(header, text: "Basic user:passwd") == "Basic dXNlcjpwYXNzd2Q=")
        #expect(HTTPFileTarget.basicAuthorization(header, text: "Basic user passwd") == "Basic dXNlcjpwYXNzd2Q=")
        #expect(HTTPFileTarget.basicAuthorization(header, text: "Basic dXNlcjpwYXNzd2Q=") == nil)
        #expect(HTTPFileTarget.basicAuthorization(header, text: "Bearer a:b") == nil)
    }

    /// REST Client splits the value at blanks and reads the scheme in any case: with two words after
    /// it, the first is the user and the rest (joined by a blank) the password, a `:` in it and all.
    @Test(arguments: [
        ("Basic ann p:w", "ann:p:w"),
        ("basic ann:pw", "ann:pw"),
        ("BASIC ann pw", "ann:pw"),
        ("Basic  ann\tpw ", "ann:pw"),
        ("Basic user:pa ss", "user:pa:ss"),
        ("bAsIc ann pass word", "ann:pass word"),
    ])
    func basicShorthandIsReadAsRESTClientReadsIt(text: String, pair: String) {
        let header = HTTPFile.Header(name: "authorization", value: HTTPTemplate(parts: []), span: 0..<0)
        #expect(HTTPFileTarget.basicAuthorization(header, text: text) == "Basic " + Data(pair.utf8).base64EncodedString(), "\(text)")
    }

    @Test(arguments: ["digest ann secretpw", "DIGEST ann secret pw", "aws AKID SECRET", "Aws AKID SECRET", "cognito a b c d", "oauth2 password", "OAuth2 client_credentials", "openid code pkce", "oauth2"])
    func digestAndSigningShorthandsAreRefusedInAnyCase(text: String) {
        let header = HTTPFile.Header(name: "Authorization", value: HTTPTemplate(parts: []), span: 0..<0)
        #expect(throws: HTTPFileParser.Failure.self, "\(text)") { try HTTPFileTarget.refuseShorthand(header, text: text) }
    }

    /// JetBrains' spec: `GET /get` with `Host: http://h:8080` (a scheme in the Host) and `OPTIONS *`.
    @Test func aHostWithASchemeAndTheAsteriskForm() throws {
        let withScheme = try #require(try HTTPFileParser.parse("GET /get\nHost: http://127.0.0.1:8080\n").requests.first)
        let declared = try HTTPFileTarget.declaration(withScheme, name: "r", directory: ".") { _ in "x" }
        #expect(declared.contains("base     \"http://127.0.0.1:8080\""), "\(declared)")
        let plain = try #require(try HTTPFileParser.parse("GET /get\nHost: 127.0.0.1:8080\n").requests.first)
        #expect(try HTTPFileTarget.declaration(plain, name: "r", directory: ".") { _ in "x" }.contains("base     \"http://127.0.0.1:8080\""))
        let asterisk = try #require(try HTTPFileParser.parse("OPTIONS * HTTP/1.1\nHost: 127.0.0.1:8080\n").requests.first)
        #expect(throws: HTTPFileParser.Failure.self) { try HTTPFileTarget.declaration(asterisk, name: "r", directory: ".") { _ in "x" } }
    }

    @Test func aDigestHeaderOfItsOwnIsSentAsWritten() throws {
        let header = HTTPFile.Header(name: "Authorization", value: HTTPTemplate(parts: []), span: 0..<0)
        try HTTPFileTarget.refuseShorthand(header, text: #"Digest username="ann", realm="r", nonce="n", uri="/", response="x""#)
        // OAuth 1.0's header written out is sent as written too.
        try HTTPFileTarget.refuseShorthand(header, text: #"OAuth oauth_consumer_key="k", oauth_signature="s""#)
    }
}
