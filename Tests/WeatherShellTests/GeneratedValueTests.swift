import Foundation
import TestSupport
import Testing
@testable import WeatherShell

/// `$newUuid`, `$uuid`, `$newDate` and `$timestamp` (issue 39.5): a new value at each read, in
/// Hurl's forms, anywhere a variable goes; a variable of the same name wins.
@Suite struct GeneratedValueTests {
    @Test func newDateIsRFC3339InUTCWithMicroseconds() {
        #expect(GeneratedValue.rfc3339(Date(timeIntervalSince1970: 1_700_000_000.25)) == "2023-11-14T22:13:20.250000Z")
        #expect(GeneratedValue.rfc3339(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000000Z")
        #expect(GeneratedValue.variable("timestamp", now: Date(timeIntervalSince1970: 1_700_000_000.9))?.typedValue == .number("1700000000"))
    }

    @Test func eachReadIsNewAndTheyGoIntoRequestsAndChecks() async throws {
        try await TestServer.with { server in
            let (halt, stdout, stderr) = await Self.run("""
                set output quiet
                target e { base \(server.baseURL); path /echo; method POST; header X-Request-Id:$newUuid; body "{\\"at\\": \\"$newDate\\"}" }
                call e
                let sent = $.headers[?@[0] == 'X-Request-Id'][1] | first
                expect $sent matches "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"
                let body = .body
                expect $body | jsonpath "$.at" isIsoDate
                expect $newUuid != $newUuid
                expect $timestamp isInteger
                let uuid = "mine"
                echo $uuid
                """)
            #expect(halt == nil, "\(stderr)")
            #expect(stdout == "mine\n")
        }
    }

    @ShellActor private static func run(_ script: String) async -> (Halt?, String, String) {
        let shell = ShellHarness()
        let halt = await shell.run(script)
        return (halt, shell.stdout, shell.stderr)
    }
}
