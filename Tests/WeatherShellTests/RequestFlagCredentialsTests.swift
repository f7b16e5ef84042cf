import Testing
@testable import WeatherShell

/// A request's `-a` credential is `***` in the line the history keeps and an error quotes.
@Suite struct RequestFlagCredentialsTests {
    @Test(arguments: [
        ("get /x -a ann:s3cret", "get /x -a ann:***"),
        ("get /x --auth 'ann:pa ss' q==1", "get /x --auth 'ann:***' q==1"),
        ("post /x --auth=ann:s3cret name=a", "post /x --auth=ann:*** name=a"),
        ("get /x -A bearer -a tok:en-1", "get /x -A bearer -a ***"),
        ("request PROPFIND /x -a ann:s3cret", "request PROPFIND /x -a ann:***"),
    ])
    func authValuesAreHidden(line: String, stored: String) {
        #expect(LiteralCredentials.hidden(in: line) == stored)
    }

    @Test func aVariableStays() {
        #expect(LiteralCredentials.hidden(in: "get /x -a $credential") == "get /x -a $credential")
    }

    @Test func flagsAreReadWithTheirValues() throws {
        let text = "get /x -a ann:pw --auth-type=digest -v -F --offline --check-status -o out.json"
        let statements = try Parser.parse(SourceFile(name: "t.wsh", directory: "/", text: text)).statements
        guard case .request(let request) = statements.first?.kind else { Issue.record("not a request"); return }
        #expect(request.flags.auth?.literal == "ann:pw")
        #expect(request.flags.authType == .digest)
        #expect(request.flags.print == .verbose && request.flags.follow && request.flags.offline && request.flags.checkStatus)
        #expect(request.output?.literal == "out.json")
        #expect(request.items.isEmpty)
    }
}
