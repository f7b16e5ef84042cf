import Histogram
import Targets
import Synchronization

/// What a load run has measured so far: every call's latency in an HDR histogram (microseconds,
/// three significant digits), the same per second of the run for the live view and the report's
/// plots, errors by kind and failed `expect`s by place. Shared by the virtual users.
public final class LoadStats: Sendable {
    /// One second of the run.
    public struct Second: Sendable {
        public var calls = 0
        public var errors = 0
        public var latencies = Histogram<UInt64>(highestTrackableValue: LoadStats.highest, numberOfSignificantValueDigits: .three)
    }

    /// A snapshot: the whole run and each second so far.
    public struct Snapshot: Sendable {
        public var calls = 0
        public var errors = 0
        public var latencies = Histogram<UInt64>(highestTrackableValue: LoadStats.highest, numberOfSignificantValueDigits: .three)
        /// Errors by kind: `timeout`, `connection refused`, `status 500`.
        public var errorsByKind: [String: Int] = [:]
        /// Failed `expect`s by place: `file.wsh:12: .id exists`.
        public var failedExpectations: [String: Int] = [:]
        /// Arrivals the open model could not start: every user was busy.
        public var dropped = 0
        /// Arrivals the open model started: with ``dropped``, every arrival of the run so far.
        public var arrivals = 0
        /// Iterations still running at the end of the run, stopped there: their calls in flight
        /// are not counted.
        public var stopped = 0
        /// `expect`s that held, and that did not.
        public var passedChecks = 0
        public var failedChecks = 0
        /// The run's seconds from ``firstSecond`` on: a worker process sends what it measured
        /// since its last report (``LoadStats/drain()``), which starts in the second it left off.
        public var seconds: [Second] = []
        public var firstSecond = 0
    }

    /// An hour in microseconds: a call slower than that is recorded as an hour.
    public static let highest: UInt64 = 3_600_000_000

    private let state = Mutex(Snapshot())
    private let started: ContinuousClock.Instant

    public init(started: ContinuousClock.Instant = .now) {
        self.started = started
    }

    /// A call that took `latency`, at `now`; `error` its kind when it failed.
    public func record(latency: Duration, error: String?, at now: ContinuousClock.Instant = .now) {
        count(latency: Self.microseconds(latency), error: error, at: now)
    }

    /// A call that got no answer, of this kind (`timeout`): counted, with no latency.
    public func recordError(_ kind: String, at now: ContinuousClock.Instant = .now) {
        count(latency: nil, error: kind, at: now)
    }

    /// One call in the run's totals and its second's.
    private func count(latency micros: UInt64?, error: String?, at now: ContinuousClock.Instant) {
        let second = max(0, Int((now - started).components.seconds))
        state.withLock { state in
            let index = max(0, second - state.firstSecond)
            while state.seconds.count <= index { state.seconds.append(Second()) }
            state.calls += 1
            state.seconds[index].calls += 1
            if let micros {
                _ = state.latencies.record(micros)
                _ = state.seconds[index].latencies.record(micros)
            }
            if let error {
                state.errors += 1
                state.seconds[index].errors += 1
                state.errorsByKind[error, default: 0] += 1
            }
        }
    }

    /// A failed `expect`, by its place and text.
    public func recordFailedExpectation(_ place: String) {
        state.withLock { state in
            state.failedExpectations[place, default: 0] += 1
            state.failedChecks += 1
        }
    }

    /// An `expect` that held.
    public func recordPassedExpectation() {
        state.withLock { $0.passedChecks += 1 }
    }

    /// `count` arrivals that found no free user.
    public func recordDropped(_ count: Int = 1) {
        state.withLock { $0.dropped += count }
    }

    /// `count` iterations stopped at the end of the run, their calls in flight not counted.
    public func recordStopped(_ count: Int) {
        state.withLock { $0.stopped += count }
    }

    /// An arrival of the open model that started an iteration.
    public func recordArrival() {
        state.withLock { $0.arrivals += 1 }
    }

    public var snapshot: Snapshot { state.withLock { $0 } }

    /// What was measured since the last drain, and a fresh start from the second it is in.
    public func drain() -> Snapshot {
        state.withLock { state in
            let drained = state
            state = Snapshot()
            state.firstSecond = drained.firstSecond + max(0, drained.seconds.count - 1)
            return drained
        }
    }

    /// Adds what another process measured (a ``drain()`` of its stats): its seconds to the same seconds here.
    public func merge(_ other: Snapshot) {
        state.withLock { state in
            state.calls += other.calls
            state.errors += other.errors
            state.latencies.add(other.latencies)
            state.errorsByKind.merge(other.errorsByKind, uniquingKeysWith: +)
            state.failedExpectations.merge(other.failedExpectations, uniquingKeysWith: +)
            state.dropped += other.dropped
            state.arrivals += other.arrivals
            state.stopped += other.stopped
            state.passedChecks += other.passedChecks
            state.failedChecks += other.failedChecks
            for (offset, second) in other.seconds.enumerated() {
                let index = other.firstSecond + offset - state.firstSecond
                guard index >= 0 else { continue }
                while state.seconds.count <= index { state.seconds.append(Second()) }
                state.seconds[index].calls += second.calls
                state.seconds[index].errors += second.errors
                state.seconds[index].latencies.add(second.latencies)
            }
        }
    }

    /// Whole microseconds, from 1 to ``highest``.
    static func microseconds(_ duration: Duration) -> UInt64 {
        UInt64(Swift.min(Swift.max(duration.milliseconds * 1000, 1), Double(highest)))
    }
}
