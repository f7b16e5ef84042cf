import Foundation
import Testing
import TestSupport
@testable import WeatherShell

/// `header NAME` with no value in a target: each call must give `NAME:value`, and it is sent.
@ShellActor @Suite struct RequiredHeaderTests {
    @Test func aCallWithoutTheHeaderIsAnErrorSayingHowToGiveIt() async {
        let shell = ShellHarness()
        let halt = await shell.run("target t { base http://127.0.0.1:9; path /x; header X-Request-Id Accept:application/json }\ncall t")
        #expect(halt != nil)
        #expect(shell.stderr.contains("<test>:2:6: error: missing header 'X-Request-Id' for target 't'"), "\(shell.stderr)")
        #expect(shell.stderr.contains("note: give it as X-Request-Id:VALUE"))
    }

    @Test func theHeaderGivenAtTheCallIsSent() async throws {
        let server = try await TestServer.start(routes: [:])
        let shell = ShellHarness()
        let halt = await shell.run("""
            target t { base \(server.baseURL); path /echo; header X-Request-Id }
            call t X-Request-Id:req-42
            expect status == 200
            """)
        try await server.shutdown()
        #expect(halt == nil, "\(shell.stderr)")
        #expect(shell.stdout.contains(#"["X-Request-Id","req-42"]"#), "\(shell.stdout)")
    }

    @Test func aHeaderNameWithBlanksOrColonFirstIsRefused() async {
        let shell = ShellHarness()
        let halt = await shell.run(#"target t { base http://127.0.0.1:9; header "X Y" }"#)
        #expect(halt != nil)
        #expect(shell.stderr.contains("a header is Name:value, or a bare Name each call must give"), "\(shell.stderr)")
    }
}
