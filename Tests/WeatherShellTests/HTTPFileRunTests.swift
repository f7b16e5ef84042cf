import Testing
@testable import WeatherShell

/// What running a `.http` file keeps: the target names its requests are declared under.
@Suite struct HTTPFileRunTests {
    @ShellActor @Test func targetNamesAreWrittenAsTargetNamesAndNeverTwice() throws {
        let file = try HTTPFileParser.parse("### get a user\nGET http://h\n###\nGET http://h\n### get a user\nGET http://h\n###\n# @name 9lives\nGET http://h")
        #expect(HTTPFileRun.targetNames(file.requests) == ["get-a-user", "request-2", "get-a-user-2", "request-4"])
    }
}
