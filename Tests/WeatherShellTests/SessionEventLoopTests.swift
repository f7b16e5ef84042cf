import Testing
import Targets
import TestSupport
@testable import WeatherShell

/// Code isolated to an actor on the session's executor is back on the session's loop after a call
/// through the session's transport, without a detour through another thread.
@Suite struct SessionEventLoopTests {
    private actor OnTheLoop {
        nonisolated var unownedExecutor: UnownedSerialExecutor { SessionEventLoop.executor.asUnownedSerialExecutor() }

        func call(_ target: Target) async throws -> (before: Bool, after: Bool, status: Int) {
            let before = SessionEventLoop.shared.inEventLoop
            let response = try await Provider<Target>(transport: SessionEventLoop.transport).request(target)
            return (before, SessionEventLoop.shared.inEventLoop, response.status)
        }
    }

    @Test func aCallResumesOnTheLoop() async throws {
        try await TestServer.with { server in
            let target = Target(name: "s", baseURL: server.baseURL, path: "/slow?ms=20")
            let result = try await Task(executorPreference: SessionEventLoop.executor) {
                try await OnTheLoop().call(target)
            }.value
            #expect(result.before && result.after)
            #expect(result.status == 200)
        }
    }
}
