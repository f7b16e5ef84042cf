import Foundation
import Testing
import TestSupport
@testable import WeatherShell

/// `set output all` shows status line, headers and body once; at a terminal a binary body is
/// described rather than printed.
@ShellActor @Suite struct ResponsePrinterTests {
    private static let routes = [
        "/user": StaticRoute(contentType: "application/json", body: Array(#"{"name":"Ada"}"#.utf8)),
        "/logo": StaticRoute(contentType: "image/png", body: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00]),
        "/bytes": StaticRoute(contentType: "text/plain", body: [0x41, 0x00, 0xFF, 0xFE]),
        "/text": StaticRoute(contentType: "text/plain", body: Array("café ☕\n".utf8)),
    ]

    @Test func allShowsTheStatusLineHeadersAndBodyOnceOnStdout() async throws {
        let server = try await TestServer.start(routes: Self.routes)
        let shell = ShellHarness(terminal: true)
        let halt = await shell.run("set color off\nset output all\ntarget user { base \(server.baseURL); path /user }\ncall user")
        try await server.shutdown()
        #expect(halt == nil, "\(shell.stderr)")
        #expect(shell.stdout.hasPrefix("HTTP 200 OK\n"), "\(shell.stdout)")
        #expect(shell.stdout.contains("\nContent-Type: application/json\n"))
        #expect(shell.stdout.hasSuffix("\n\n{\n  \"name\": \"Ada\"\n}\n"), "\(shell.stdout)")
        #expect(!shell.stderr.contains("HTTP 200"), "the status line is shown once: \(shell.stderr)")
    }

    @Test func headerNamesAreColouredAtATerminal() async throws {
        let server = try await TestServer.start(routes: Self.routes)
        let shell = ShellHarness(terminal: true)
        await shell.run("set color on\nset output headers\ntarget user { base \(server.baseURL); path /user }\ncall user")
        try await server.shutdown()
        #expect(shell.stdout.contains("\u{1B}[36mContent-Type\u{1B}[0m: application/json\n"), "\(shell.stdout.debugDescription)")
        #expect(shell.stdout.hasPrefix("\u{1B}[32mHTTP 200 OK\u{1B}[0m\n"))
    }

    @Test func aBinaryBodyIsDescribedAtATerminalAndWrittenAsIsElsewhere() async throws {
        let server = try await TestServer.start(routes: Self.routes)
        let terminal = ShellHarness(terminal: true)
        await terminal.run("""
            target logo { base \(server.baseURL); path /logo }
            target bytes { base \(server.baseURL); path /bytes }
            target text { base \(server.baseURL); path /text }
            call logo
            call bytes
            call text
            get \(server.baseURL)/logo
            get "\(server.baseURL)/logo?a=1;b"
            """)
        let piped = ShellHarness()
        await piped.run("target logo { base \(server.baseURL); path /logo }\ncall logo")
        try await server.shutdown()
        #expect(terminal.stdout.contains("[binary body: 10 B image/png, not shown at a terminal; save it with: call logo > FILE]"), "\(terminal.stdout)")
        #expect(terminal.stdout.contains("[binary body: 4 B text/plain, not shown at a terminal; save it with: call bytes > FILE]"))
        #expect(terminal.stdout.contains("café ☕\n"))
        // A request with no target: the command names the URL it went to, quoted when it must be.
        #expect(terminal.stdout.contains("save it with: get \(server.baseURL)/logo > FILE]"), "\(terminal.stdout)")
        #expect(terminal.stdout.contains("save it with: get '\(server.baseURL)/logo?a=1;b' > FILE]"), "\(terminal.stdout)")
        #expect(piped.stdout.utf8.count > 0 && !piped.stdout.contains("binary body"))
    }
}
