import Foundation
import TestSupport
import Testing

/// How `wsh serve` ends and reads its options: SIGTERM (docker, systemd) killed it with no word
/// where Ctrl-C said `wsh serve: stopped`, and `--delay -5ms` said "Missing value".
@Suite struct ServeStopAndOptionsTests {
    /// SIGTERM stops the server as Ctrl-C does: it says so, closes the connection of a request
    /// still waiting for its delay, and then ends by the signal, as a script stopped so does.
    @Test func sigtermStopsTheServerAsCtrlCDoes() async throws {
        let directory = try ServeTests.apiDirectory()
        let (server, port) = try await ServeTests.serve(["api.wsh", "--delay", "60s"], directory: directory)
        let connection = try RawHTTPConnection(port: port, timeout: 60)
        try connection.send("GET /api/users/7 HTTP/1.1\r\nHost: x\r\n\r\n")
        server.interrupt(with: SIGTERM)
        #expect(try await offPool { server.waitForExit() } == SIGTERM)
        #expect(server.stderr.hasSuffix("wsh serve: stopped\n"), "\(server.stderr)")
        #expect(try await offPool { connection.isClosedByServer() })
    }

    @Test func aNegativeDelayOrPortIsSaidWrong() async throws {
        let directory = try ServeTests.apiDirectory()
        for (arguments, said) in [(["--delay", "-5ms"], "a delay is a duration such as 100ms or 2s"),
                                  (["--port", "-1"], "a port is a number from 0 to 65535")] {
            let result = try await WSHProcess.run(["serve", "api.wsh"] + arguments, directory: directory)
            #expect(result.status == 1 && result.stderr.contains(said) && !result.stderr.contains("Missing value"), "\(arguments): \(result.stderr)")
        }
    }
}
