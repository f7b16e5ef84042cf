import Foundation
import Targets
import TestSupport
import Testing

/// What every hook saw, in order, across plugins.
actor EventLog {
    private(set) var events: [String] = []

    func record(_ event: String) {
        events.append(event)
    }
}

/// Records every hook into a shared log, tagged with its name.
struct RecordingPlugin: Plugin {
    let name: String
    let log: EventLog

    func prepare(_ request: Request, target: any TargetType) async throws(ProviderError) -> Request {
        await log.record("\(name).prepare")
        var request = request
        request.setHeader("X-Prepared-By", [request.header("X-Prepared-By"), name].compactMap { $0 }.joined(separator: ","))
        return request
    }

    func willSend(_ request: Request, target: any TargetType) async {
        await log.record("\(name).willSend")
    }

    func intercept(_ request: Request, target: any TargetType, next: SendClosure) async throws(ProviderError) -> Response {
        await log.record("\(name).intercept>")
        let response = try await next(request)
        await log.record("\(name).intercept<")
        return response
    }

    func didReceive(_ result: Result<Response, ProviderError>, target: any TargetType) async {
        switch result {
        case .success(let response): await log.record("\(name).didReceive \(response.status)")
        case .failure: await log.record("\(name).didReceive failure")
        }
    }

    func process(_ result: Result<Response, ProviderError>, target: any TargetType) async -> Result<Response, ProviderError> {
        switch result {
        case .success(let response): await log.record("\(name).process \(response.status)")
        case .failure(let error): await log.record("\(name).process \(error.step)")
        }
        return result
    }
}

/// Sends again once when the first answer is a 503.
struct RetryOncePlugin: Plugin {
    func intercept(_ request: Request, target: any TargetType, next: SendClosure) async throws(ProviderError) -> Response {
        let first = try await next(request)
        return first.status == 503 ? try await next(request) : first
    }
}

@Suite struct ProviderTests {
    @Test func hooksRunInTheDocumentedOrder() async throws {
        try await withTestServer { server in
            let log = EventLog()
            let provider = Provider<Target>(plugins: [RecordingPlugin(name: "A", log: log), RecordingPlugin(name: "B", log: log)])
            let response = try await provider.request(Target(name: "t", baseURL: server.baseURL, path: "/echo"))
            #expect(await log.events == [
                "A.prepare", "B.prepare",
                "A.intercept>", "B.intercept>",
                "A.willSend", "B.willSend",
                "A.didReceive 200", "B.didReceive 200",
                "B.intercept<", "A.intercept<",
                "A.process 200", "B.process 200",
            ])
            #expect(try Echo(response).header("X-Prepared-By") == "A,B")
        }
    }

    @Test func retryingInterceptRunsWillSendAndDidReceiveForEachAttempt() async throws {
        try await withTestServer { server in
            let log = EventLog()
            let provider = Provider<Target>(plugins: [RetryOncePlugin(), RecordingPlugin(name: "R", log: log)])
            let target = Target(name: "flaky", baseURL: server.baseURL, path: "/flaky/once?fail=1", validationType: .successCodes)
            let response = try await provider.request(target)
            #expect(response.status == 200)
            #expect(try response.json()["attempts"]?.double == 2)
            #expect(server.hits("/flaky/once") == 2)
            #expect(await log.events == [
                "R.prepare", "R.intercept>", "R.willSend", "R.didReceive 503", "R.intercept<",
                "R.intercept>", "R.willSend", "R.didReceive 200", "R.intercept<", "R.process 200",
            ])
        }
    }

    @Test func validationFailureReachesProcessAfterDidReceiveSawTheResponse() async throws {
        try await withTestServer { server in
            let log = EventLog()
            let provider = Provider<Target>(plugins: [RecordingPlugin(name: "P", log: log)])
            let target = Target(name: "bad", baseURL: server.baseURL, path: "/status/404", validationType: .successCodes)
            let failure = await providerError { _ = try await provider.request(target) }
            #expect(failure?.step == .validation)
            #expect(await log.events.suffix(3) == ["P.didReceive 404", "P.intercept<", "P.process validation"])
        }
    }

    @Test func didReceiveSeesTransportErrors() async throws {
        // Port 9 (discard), which nothing here listens on: the port of a server just shut down
        // could be taken at once by a server another test starts, and answer.
        let log = EventLog()
        let provider = Provider<Target>(plugins: [RecordingPlugin(name: "P", log: log)])
        let failure = await providerError { _ = try await provider.request(Target(name: "gone", baseURL: "http://127.0.0.1:9")) }
        #expect(failure?.isConnectionFailure == true)
        #expect(await log.events == ["P.prepare", "P.intercept>", "P.willSend", "P.didReceive failure", "P.process transport"])
    }

    @Test func processCanReplaceTheResult() async throws {
        struct Recover: Plugin {
            func process(_ result: Result<Response, ProviderError>, target: any TargetType) async -> Result<Response, ProviderError> {
                guard case .failure(let error) = result, let response = error.response else { return result }
                return .success(response)
            }
        }
        try await withTestServer { server in
            let target = Target(name: "bad", baseURL: server.baseURL, path: "/status/500", validationType: .successCodes)
            let response = try await Provider<Target>(plugins: [Recover()]).request(target)
            #expect(response.status == 500)
        }
    }

    @Test func prepareThatThrowsStopsTheCall() async throws {
        struct Refuse: Plugin {
            func prepare(_ request: Request, target: any TargetType) async throws(ProviderError) -> Request {
                throw .other("no credentials for \(target.name)", step: .endpoint, targetName: target.name)
            }
        }
        try await withTestServer { server in
            let target = Target(name: "secret", baseURL: server.baseURL, path: "/echo")
            let failure = await providerError { _ = try await Provider<Target>(plugins: [Refuse()]).request(target) }
            #expect(failure?.description == "no credentials for secret")
            #expect(server.hits("/echo") == 0)
        }
    }
}
