import Foundation
import Targets

/// Sends a call again when it failed in a way that may pass: a connection that could not be made or
/// was dropped, a timeout, or a status in ``statuses`` (408, 429, 500, 502, 503, 504). Moya never
/// shipped this; it is the reason ``Plugin`` has `intercept`.
///
/// - Up to ``count`` retries, or the target's ``TargetType/retryCount`` when it declares one.
/// - Before retry *n* it waits ``backoff`` × 2^(n-1), varied by ±``jitter``, at most ``maxDelay``;
///   a `Retry-After` header (seconds or HTTP-date) replaces that delay. A `Retry-After` longer than
///   ``maxDelay`` ends the retries at once.
/// - Only idempotent methods (GET, PUT, DELETE, HEAD, OPTIONS) are retried, unless ``retriesUnsafeMethods``.
/// - An answer cut short after part of its body was printed as it came (into a pipe) is not
///   retried: the error says what happened, where a retry would print a second body after the part.
/// - Each retry is reported through ``report``: `retry 1/3 after 200 ms: 503 Service Unavailable`.
/// - When it gives up on a status, the call fails with ``ProviderError/retriesExhausted(_:attempts:note:targetName:)``,
///   which carries the last response, whatever the target's validation; a transport error is rethrown as it was.
///
/// Put it before the logger and the loading plugin or after them: their `willSend` and `didReceive`
/// run for every attempt either way, as the provider runs them inside the `intercept` chain.
public struct RetryPlugin: Plugin {
    /// The statuses retried by default.
    public static let defaultStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// Three retries after 200 ms, 400 ms and 800 ms (±20%), at most 5 s, idempotent methods only.
    public static let `default` = RetryPlugin()

    /// How many times a call is sent again at most, when its target does not say.
    public var count: Int
    /// The delay before the first retry; it doubles for each one after.
    public var backoff: Duration
    /// The longest delay, and the longest `Retry-After` honoured.
    public var maxDelay: Duration
    /// How much each delay varies at random, as a fraction of it: 0.2 is ±20%. Keeps clients that
    /// failed together from retrying together.
    public var jitter: Double
    /// Whether POST and PATCH are retried too.
    public var retriesUnsafeMethods: Bool
    /// The statuses that are retried.
    public var statuses: Set<Int>
    /// Masks secrets in the reasons that ``report`` shows.
    public var redaction: Redaction
    /// Where each retry is reported; by default ``Console/standardError``.
    public var report: OutputClosure
    /// How a delay is waited out: `Task.sleep`, or a test's clock that records it.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// `retry`.
    public var name: String { "retry" }

    /// A retry plugin; every setting has the default that ``default`` has.
    public init(
        count: Int = 3, backoff: Duration = .milliseconds(200), maxDelay: Duration = .seconds(5),
        jitter: Double = 0.2, retriesUnsafeMethods: Bool = false, statuses: Set<Int> = defaultStatuses,
        redaction: Redaction = Redaction(), report: @escaping OutputClosure = { Console.standardError.write(line: $0) },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.count = count
        self.backoff = backoff
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.retriesUnsafeMethods = retriesUnsafeMethods
        self.statuses = statuses
        self.redaction = redaction
        self.report = report
        self.sleep = sleep
    }

    /// Sends, and sends again while the result is worth retrying and retries are left.
    public func intercept(
        _ request: Request, target: any TargetType, next: SendClosure
    ) async throws(ProviderError) -> Response {
        let limit = max(0, target.retryCount ?? count)
        guard limit > 0, request.method.isIdempotent || retriesUnsafeMethods else { return try await next(request) }
        var retries = 0
        while true {
            let result: Result<Response, ProviderError>
            do throws(ProviderError) {
                result = .success(try await next(request))
            } catch {
                result = .failure(error)
            }
            guard let reason = retryReason(result, request: request) else { return try result.get() }
            let attempts = retries + 1
            guard retries < limit else { throw exhausted(result, attempts: attempts, note: nil, target: target) }
            let delay: Duration
            switch plannedDelay(result, beforeRetry: attempts) {
            case .wait(let planned): delay = planned
            case .tooLong(let asked):
                // Seconds past what a delay holds were cut to its range: the server's number, as written.
                var seconds: String?
                if case .success(let response) = result, let header = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces),
                   !header.isEmpty, header.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                   Int64(header).map({ Duration.seconds($0) != asked }) ?? true {
                    seconds = header + "s"
                }
                let note = "Retry-After \(seconds ?? asked.settingText) is longer than max \(maxDelay.settingText)"
                throw exhausted(result, attempts: attempts, note: note, target: target)
            }
            retries += 1
            report("retry \(retries)/\(limit) after \(delay.shortDescription): \(reason)")
            do {
                try await sleep(delay)
            } catch {
                throw ProviderError.cancelled(request, targetName: target.name)
            }
        }
    }

    /// Why `result` is worth another attempt (`503 Service Unavailable`, `could not connect ...`), or `nil`.
    func retryReason(_ result: Result<Response, ProviderError>, request: Request) -> String? {
        switch result {
        case .success(let response):
            guard statuses.contains(response.status) else { return nil }
            return response.reason.isEmpty ? "\(response.status)" : "\(response.status) \(response.reason)"
        case .failure(let error):
            guard !error.isCancelled, error.isConnectionFailure || error.isTimeout || error.isConnectionClosed else {
                return nil
            }
            // Part of the body is on the terminal or in a pipe: another attempt would print it again after that part.
            if request.responseBodySink?.hasShownBytes == true { return nil }
            return error.description(masking: redaction.including(secretsOf: request))
        }
    }

    /// The delay before retry `retry` (from 1): ``backoff`` × 2^(retry-1), varied by ±``jitter``, at most ``maxDelay``.
    public func delay(beforeRetry retry: Int) -> Duration {
        let nominal = backoff.milliseconds * pow(2, Double(max(0, retry - 1)))
        let spread = min(max(jitter, 0), 1)
        let varied = spread > 0 ? nominal * Double.random(in: (1 - spread)...(1 + spread)) : nominal
        return .milliseconds(double: min(varied, maxDelay.milliseconds))
    }

    private enum Plan {
        case wait(Duration)
        case tooLong(Duration)
    }

    private func plannedDelay(_ result: Result<Response, ProviderError>, beforeRetry retry: Int) -> Plan {
        guard case .success(let response) = result, let header = response.header("Retry-After"),
              let asked = RetryAfter.delay(header) else { return .wait(delay(beforeRetry: retry)) }
        return asked > maxDelay ? .tooLong(asked) : .wait(asked)
    }

    private func exhausted(
        _ result: Result<Response, ProviderError>, attempts: Int, note: String?, target: any TargetType
    ) -> ProviderError {
        switch result {
        case .success(let response):
            .retriesExhausted(response, attempts: attempts, note: note, targetName: target.name)
        case .failure(let error):
            error
        }
    }
}
