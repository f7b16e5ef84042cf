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
}
