import Foundation
import Plugins
import Synchronization
import Targets
import TestSupport
import Testing

/// The retry plugin against the loopback server: what is retried, how often, how long it waits.
/// Its waits go to a ``Sleeps`` that records each delay and returns at once, so no test depends on
/// how fast a loaded machine wakes a sleeping task; one test keeps the real sleep, to cancel it.
@Suite struct RetryPluginTests {
    /// The delays the plugin asked to wait, and when it asked.
    final class Sleeps: Sendable {
        private let asked = Mutex<[(delay: Duration, at: Date)]>([])
        var delays: [Duration] { asked.withLock { $0.map(\.delay) } }
        var first: (delay: Duration, at: Date)? { asked.withLock { $0.first } }
        var sleep: @Sendable (Duration) async throws -> Void { { [self] delay in asked.withLock { $0.append((delay, Date())) } } }
    }

    func retry(count: Int = 3, backoff: Duration = .milliseconds(50), max: Duration = .seconds(5),
               unsafe: Bool = false, _ recorder: Recorder, sleeps: Sleeps = Sleeps()) -> RetryPlugin {
        RetryPlugin(count: count, backoff: backoff, maxDelay: max, jitter: 0, retriesUnsafeMethods: unsafe,
                    report: recorder.output, sleep: sleeps.sleep)
    }

    @Test func twoFailuresThenSuccessRetriesTwiceWithDoublingDelays() async throws {
        try await withTestServer { server in
            let recorder = Recorder(), sleeps = Sleeps()
            let provider = Provider<Target>(plugins: [retry(recorder, sleeps: sleeps)])
            let target = Target(name: "flaky", baseURL: server.baseURL, path: "/flaky/twice?fail=2")
            let response = try await provider.request(target)
            #expect(response.status == 200)
            #expect(server.hits("/flaky/twice") == 3)
            #expect(recorder.lines == [
                "retry 1/3 after 50 ms: 503 Service Unavailable",
                "retry 2/3 after 100 ms: 503 Service Unavailable",
            ])
            // The waits asked for, not how long a loaded machine took to wake (39.7 s once, under CI).
            #expect(sleeps.delays == [.milliseconds(50), .milliseconds(100)])
        }
    }

    @Test func runningOutOfRetriesFailsWithTheLastResponse() async throws {
        try await withTestServer { server in
            let recorder = Recorder()
            let provider = Provider<Target>(plugins: [retry(count: 1, recorder)])
            let target = Target(name: "flaky", baseURL: server.baseURL, path: "/flaky/out?fail=2")
            let failure = try #require(await providerError { _ = try await provider.request(target) })
            #expect(server.hits("/flaky/out") == 2)
            #expect(recorder.lines == ["retry 1/1 after 50 ms: 503 Service Unavailable"])
            #expect(failure.response?.status == 503)
            #expect(failure.description.hasPrefix(
                #"HTTP 503 Service Unavailable from target 'flaky' (after 2 attempts): "Service Unavailable" body: "#))
        }
    }

    @Test func postIsRetriedOnlyWhenUnsafe() async throws {
        try await withTestServer { server in
            let recorder = Recorder()
            let target = Target(name: "create", baseURL: server.baseURL, path: "/flaky/post?fail=1", method: .post)
            let safe = try await Provider<Target>(plugins: [retry(recorder)]).request(target)
            #expect(safe.status == 503)
            #expect(server.hits("/flaky/post") == 1)
            #expect(recorder.lines.isEmpty)

            let unsafeTarget = Target(name: "create", baseURL: server.baseURL, path: "/flaky/post2?fail=1", method: .patch)
            let unsafe = try await Provider<Target>(plugins: [retry(unsafe: true, recorder)]).request(unsafeTarget)
            #expect(unsafe.status == 200)
            #expect(server.hits("/flaky/post2") == 2)
            #expect(recorder.lines.count == 1)
        }
    }

    @Test func idempotentMethodsAreRetried() async throws {
        try await withTestServer { server in
            for method in [HTTPMethod.put, .delete, .head, .options] {
                let path = "/flaky/\(method.rawValue)"
                let target = Target(name: "m", baseURL: server.baseURL, path: path + "?fail=1", method: method)
                let response = try await Provider<Target>(plugins: [retry(Recorder())]).request(target)
                #expect(response.status == 200, "\(method)")
                #expect(server.hits(path) == 2, "\(method)")
            }
        }
    }

    @Test func retryAfterSecondsIsWaitedInsteadOfTheBackoff() async throws {
        try await withTestServer { server in
            let recorder = Recorder(), sleeps = Sleeps()
            let provider = Provider<Target>(plugins: [retry(backoff: .seconds(60), max: .seconds(120), recorder, sleeps: sleeps)])
            let target = Target(name: "limited", baseURL: server.baseURL, path: "/flaky/ra?fail=1&status=429&retry-after=1")
            let response = try await provider.request(target)
            #expect(response.status == 200)
            #expect(recorder.lines == ["retry 1/3 after 1000 ms: 429 Too Many Requests"])
            // One second, in place of the 60 s backoff.
            #expect(sleeps.delays == [.seconds(1)])
        }
    }

    @Test func retryAfterHTTPDateIsWaitedUntil() async throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE',' dd MMM yyyy HH':'mm':'ss 'GMT'"
        let date = formatter.string(from: Date().addingTimeInterval(3))
        let until = try #require(formatter.date(from: date))
        let route = StaticRoute(status: 503, headers: [("Retry-After", date)], body: Array("{}".utf8))
        try await withTestServer(routes: ["/busy": route]) { server in
            let recorder = Recorder(), sleeps = Sleeps()
            let provider = Provider<Target>(plugins: [retry(count: 1, recorder, sleeps: sleeps)])
            let target = Target(name: "busy", baseURL: server.baseURL, path: "/busy")
            let failure = await providerError { _ = try await provider.request(target) }
            #expect(failure?.response?.status == 503)
            #expect(server.hits("/busy") == 2)
            // It asked to wait until the date (which has whole seconds), whenever the first attempt was.
            let asked = try #require(sleeps.first)
            let wakes = asked.at.addingTimeInterval(Double(asked.delay.components.seconds) + Double(asked.delay.components.attoseconds) / 1e18)
            // Not before the date; at once when a loaded machine sent the first attempt after it.
            #expect(wakes >= until.addingTimeInterval(-0.05), "asked for \(asked.delay), to wake \(until.timeIntervalSince(wakes)) s early")
            #expect(asked.delay <= .seconds(3))
        }
    }

    @Test func retryAfterLongerThanMaxEndsTheRetriesAtOnce() async throws {
        try await withTestServer { server in
            let recorder = Recorder(), sleeps = Sleeps()
            let provider = Provider<Target>(plugins: [retry(max: .seconds(2), recorder, sleeps: sleeps)])
            let target = Target(name: "limited", baseURL: server.baseURL, path: "/flaky/long?fail=5&status=429&retry-after=120")
            let failure = await providerError { _ = try await provider.request(target) }
            #expect(server.hits("/flaky/long") == 1)
            #expect(recorder.lines.isEmpty)
            #expect(sleeps.delays.isEmpty, "it did not wait the 120 s it was told to")
            #expect(failure?.description.hasPrefix(
                "HTTP 429 Too Many Requests from target 'limited' (after 1 attempt; Retry-After 2m is longer than max 2s)") == true)
        }
    }

    @Test func refusedConnectionsAreRetriedThenReported() async throws {
        // Port 9 (discard), which nothing here listens on: the port of a server just shut down can be
        // taken at once by a server another test starts, and answer.
        let port = 9
        let recorder = Recorder()
        let provider = Provider<Target>(plugins: [retry(count: 2, backoff: .milliseconds(10), recorder)])
        let target = Target(name: "gone", baseURL: "http://127.0.0.1:\(port)", path: "/")
        let failure = try #require(await providerError { _ = try await provider.request(target) })
        #expect(failure.isConnectionFailure)
        #expect(recorder.lines == [
            "retry 1/2 after 10 ms: could not connect to 127.0.0.1:\(port): connection refused",
            "retry 2/2 after 20 ms: could not connect to 127.0.0.1:\(port): connection refused",
        ])
    }

    @Test func timeoutsAreRetried() async throws {
        try await withTestServer { server in
            let recorder = Recorder()
            let provider = Provider<Target>(plugins: [retry(count: 1, backoff: .milliseconds(10), recorder)])
            let target = Target(name: "stuck", baseURL: server.baseURL, path: "/never", timeout: .milliseconds(150))
            let failure = try #require(await providerError { _ = try await provider.request(target) })
            #expect(failure.isTimeout)
            // Not hits == 2: on a busy machine a 150 ms timeout can end an attempt before the server reads it.
            #expect(recorder.lines.count == 1)
            #expect(recorder.lines.first?.contains("timed out after 150 ms") == true)
        }
    }

    @Test func otherStatusesAndErrorsAreNotRetried() async throws {
        try await withTestServer { server in
            let recorder = Recorder()
            let provider = Provider<Target>(plugins: [retry(recorder)])
            for status in [400, 401, 404, 501] {
                let response = try await provider.request(Target(name: "s", baseURL: server.baseURL, path: "/status/\(status)"))
                #expect(response.status == status)
                #expect(server.hits("/status/\(status)") == 1)
            }
            for status in [408, 500, 502, 504] {
                let target = Target(name: "s", baseURL: server.baseURL, path: "/flaky/s\(status)?fail=1&status=\(status)")
                let response = try await provider.request(target)
                #expect(response.status == 200)
            }
            #expect(recorder.lines.count == 4)
            let invalid = Target(name: "bad", baseURL: server.baseURL, path: "/nothing{x}")
            _ = await providerError { _ = try await provider.request(invalid) }
            #expect(recorder.lines.count == 4)
        }
    }

    @Test func targetRetryCountOverridesThePluginCount() async throws {
        try await withTestServer { server in
            let recorder = Recorder()
            let none = Provider<Target>(plugins: [retry(count: 0, recorder)])
            let twice = Target(name: "t", baseURL: server.baseURL, path: "/flaky/t2?fail=2", retryCount: 2)
            let twiceResponse = try await none.request(twice)
            #expect(twiceResponse.status == 200)
            #expect(recorder.lines == [
                "retry 1/2 after 50 ms: 503 Service Unavailable", "retry 2/2 after 100 ms: 503 Service Unavailable",
            ])
            let never = Target(name: "t", baseURL: server.baseURL, path: "/flaky/t0?fail=1", retryCount: 0)
            let neverResponse = try await Provider<Target>(plugins: [retry(recorder)]).request(never)
            #expect(neverResponse.status == 503)
            #expect(server.hits("/flaky/t0") == 1)
        }
    }

    @Test func cancellingDuringTheBackoffEndsTheCallAtOnce() async throws {
        try await withTestServer { server in
            let recorder = Recorder()
            // The real sleep: what is cancelled is a task waiting out its backoff.
            let plugin = RetryPlugin(count: 3, backoff: .seconds(60), maxDelay: .seconds(120), jitter: 0, report: recorder.output)
            let provider = Provider<Target>(plugins: [plugin])
            let target = Target(name: "flaky", baseURL: server.baseURL, path: "/flaky/cancel?fail=3")
            let call = Task { try await provider.request(target) }
            // Cancelled once the backoff has begun: the plugin reports the retry as it starts waiting
            // (60 s: a bound only a failure reaches).
            let deadline = ContinuousClock.now + .seconds(60)
            while recorder.lines.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
            #expect(!recorder.lines.isEmpty, "the backoff began")
            call.cancel()
            // Had the cancel not ended the 60 s wait, the retry would have answered instead.
            guard case .failure(let error as ProviderError) = await call.result else {
                Issue.record("expected a cancellation")
                return
            }
            #expect(error.isCancelled)
            // With its request: the shell records a call stopped while it waited in the history.
            #expect(error.request?.url.hasSuffix("/flaky/cancel?fail=3") == true, "\(String(describing: error.request))")
            #expect(server.hits("/flaky/cancel") == 1)
        }
    }

    @Test func delaysDoubleUpToTheMaximumAndJitterStaysWithinItsFraction() {
        let plain = RetryPlugin(backoff: .milliseconds(100), maxDelay: .milliseconds(300), jitter: 0)
        #expect((1...5).map { plain.delay(beforeRetry: $0) } == [
            .milliseconds(100), .milliseconds(200), .milliseconds(300), .milliseconds(300), .milliseconds(300),
        ])
        let jittered = RetryPlugin(backoff: .milliseconds(1000), maxDelay: .seconds(60), jitter: 0.2)
        let samples = (0..<500).map { _ in jittered.delay(beforeRetry: 2) }
        #expect(samples.allSatisfy { $0 >= .milliseconds(1600) && $0 <= .milliseconds(2400) })
        #expect(Set(samples).count > 50, "jitter varies the delay")
    }

    @Test func retryAfterReadsSecondsAndTheThreeDateForms() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryAfter.delay("3", now: now) == .seconds(3))
        #expect(RetryAfter.delay(" 0 ", now: now) == .zero)
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:49:40 GMT", now: now) == .seconds(3))
        #expect(RetryAfter.delay("Sunday, 06-Nov-94 08:49:42 GMT", now: now) == .seconds(5))
        #expect(RetryAfter.delay("Sun Nov  6 08:49:47 1994", now: now) == .seconds(10))
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == .zero)
        #expect(RetryAfter.delay("-1", now: now) == nil)
        #expect(RetryAfter.delay("soon", now: now) == nil)
        #expect(RetryAfter.delay("1.5", now: now) == nil)
    }
}
