import Foundation
import NIOHTTP1

/// Answers from the target's `sampleData` and `sampleStatus` instead of the network (Moya's stubbing),
/// at once or after a delay. The answer has `Content-Type: application/json` when the sample parses as JSON.
public struct StubTransport: Transport {
    /// How long to wait before answering; `nil` answers at once.
    public var delay: Duration?

    /// A stub that answers after `delay`, or at once when it is `nil`.
    public init(delay: Duration? = nil) {
        self.delay = delay
    }

    /// A stub for a provider's stub behavior: `.delayed` waits, `.immediate` and `.never` answer at once.
    public init(behavior: StubBehavior) {
        if case .delayed(let delay) = behavior { self.delay = delay } else { self.delay = nil }
    }

    /// Answers from the sample, after the delay. Cancelling the task during the delay throws a
    /// cancellation error at step `.stub`.
    public func send<T: TargetType>(_ request: Request, for target: T) async throws(ProviderError) -> Response {
        let clock = ContinuousClock()
        let start = clock.now
        if let delay, delay > .zero {
            do {
                try await Task.sleep(for: delay, clock: clock)
            } catch {
                throw ProviderError.cancelled(request, step: .stub, targetName: target.name)
            }
        }
        let body = target.sampleData
        var response = Response(
            status: target.sampleStatus,
            reason: HTTPResponseStatus(statusCode: target.sampleStatus).reasonPhrase,
            headers: [Header(name: "Content-Length", value: String(body.count))], body: body,
            request: request, targetName: target.name)
        // The response's own parse, so that callers reading the body as JSON do not parse it again.
        if !body.isEmpty, case .success = response.parsedBody {
            response.headers.insert(Header(name: "Content-Type", value: "application/json"), at: 0)
        }
        response.elapsed = start.duration(to: clock.now)
        return response
    }
}
