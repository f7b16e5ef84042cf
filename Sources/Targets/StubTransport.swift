import Foundation
import NIOHTTP1

/// Answers from the target's samples instead of the network (Moya's stubbing), at once or after
/// a delay: the default sample, or the one with the status asked for. The answer's Content-Type is
/// the sample's (``Sample/effectiveContentType``); a target with no sample answers an empty 200.
public struct StubTransport: Transport {
    /// How long to wait before answering; `nil` answers at once.
    public var delay: Duration?
    /// Which sample to answer with, by status; `nil` answers the default (first) one.
    public var status: Int?

    /// A stub that answers after `delay`, or at once when it is `nil`.
    public init(delay: Duration? = nil, status: Int? = nil) {
        self.delay = delay
        self.status = status
    }

    /// A stub for a provider's stub behavior: `.delayed` waits, `.immediate` and `.never` answer at once.
    public init(behavior: StubBehavior, status: Int? = nil) {
        if case .delayed(let delay) = behavior { self.delay = delay } else { self.delay = nil }
        self.status = status
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
        let samples = target.samples
        let sample: Sample
        if let status {
            guard let found = samples.first(where: { $0.status == status }) else {
                let statuses = samples.map { String($0.status) }.joined(separator: ", ")
                throw ProviderError.other("target '\(target.name)' has no sample with status \(status)"
                                          + (statuses.isEmpty ? "" : "; its samples: \(statuses)"),
                                          step: .stub, targetName: target.name)
            }
            sample = found
        } else {
            sample = samples.first ?? Sample(body: Data())
        }
        var response = Response(
            status: sample.status,
            reason: HTTPResponseStatus(statusCode: sample.status).reasonPhrase,
            headers: [Header(name: "Content-Length", value: String(sample.body.count))], body: sample.body,
            request: request, targetName: target.name)
        if let contentType = sample.contentType {
            response.headers.insert(Header(name: "Content-Type", value: contentType), at: 0)
        } else if !sample.body.isEmpty, case .success = response.parsedBody {
            // The response's own parse, so that callers reading the body as JSON do not parse it again.
            response.headers.insert(Header(name: "Content-Type", value: "application/json"), at: 0)
        }
        response.elapsed = start.duration(to: clock.now)
        return response
    }
}
