import NIOCore
import Synchronization

/// What an upload learns from its answer's delegate: how much of the body was written, whether
/// the answer is already complete (an early answer: a 401 or 413 before the body was read), and
/// whether a 2xx began over HTTP/2 before the body was all written (``hurry()``). ``UploadBody``
/// waits on it so that an early answer ends the upload instead of leaving it waiting for a
/// connection AsyncHTTPClient will never write to again.
final class UploadWatch: Sendable {
    private struct State {
        var written = 0
        var answered = false
        /// Called once the answer is complete.
        var onAnswer: [@Sendable () -> Void] = []
        /// Called as parts are written, with the bytes written so far.
        var onWrite: [@Sendable (Int) -> Void] = []
        var hurried = false
        /// Called once, on ``hurry()``.
        var onHurry: [@Sendable () -> Void] = []
    }
    private let state = Mutex(State())

    /// A part of the body was written to the connection.
    func wrote(_ count: Int) {
        let (written, callbacks) = state.withLock { state in
            state.written += count
            return (state.written, state.onWrite)
        }
        for callback in callbacks { callback(written) }
    }

    /// The answer is complete by its framing and the body is not wanted, the request was sent
    /// whole, or the exchange is over (answered or failed): the upload stops waiting, every wait
    /// still pending fails with ``UploadStopped``, and ``whenOver(on:deadline:stalled:)`` ends.
    func stop() {
        fireOnce(\.answered, \.onAnswer)
    }

    /// A 2xx answer began over HTTP/2 while the body was still being written: the rest of the body
    /// is to be handed over at once, and its end with it. Called on the request's event loop, from
    /// the answer's head, before AsyncHTTPClient reads on: if the answer's end came while the body
    /// was still streaming, AsyncHTTPClient 1.37 would let go of the request and then trap when
    /// the stream closed (its HTTP2ClientRequestHandler force-unwraps the request it let go of).
    func hurry() {
        fireOnce(\.hurried, \.onHurry)
    }

    /// Sets the flag at `fired` and calls the callbacks at `callbacks`, outside the lock; a second call does nothing.
    private func fireOnce(_ fired: WritableKeyPath<State, Bool>, _ callbacks: WritableKeyPath<State, [@Sendable () -> Void]>) {
        let due = state.withLock { state -> [@Sendable () -> Void] in
            guard !state[keyPath: fired] else { return [] }
            state[keyPath: fired] = true
            defer { state[keyPath: callbacks] = [] }
            return state[keyPath: callbacks]
        }
        for callback in due { callback() }
    }

    /// Calls `callback` on ``hurry()``, or at once if it came already.
    func onHurry(_ callback: @escaping @Sendable () -> Void) {
        let hurried = state.withLock { state in
            if !state.hurried { state.onHurry.append(callback) }
            return state.hurried
        }
        if hurried { callback() }
    }

    /// Succeeded by ``stop()``: holds an early answer (a 2xx before the body was sent, on a
    /// connection the server keeps) until the request was sent whole, since AsyncHTTPClient refuses
    /// the rest of the body once it has handed the whole answer on.
    ///
    /// AsyncHTTPClient does not tell a delegate holding an answer's end that the connection failed
    /// (nor that its deadline passed), and the upload would then wait for ever. So this checks
    /// every ``stallWindow``, and at `deadline`: once no piece of the body was written since the
    /// last check (the server stopped reading, or closed the connection), or the deadline passed,
    /// `stalled` is told the bytes written and whether it was the deadline (it fails the task, which
    /// closes the connection), and the watch stops: the answer is taken as it came, the body cut
    /// short. A cancelled task stops the watch itself.
    func whenOver(
        on loop: any EventLoop, deadline: NIODeadline?, stalled: @escaping @Sendable (_ written: Int, _ pastDeadline: Bool) -> Void
    ) -> EventLoopFuture<Void> {
        let promise = loop.makePromise(of: Void.self)
        let (over, written) = state.withLock { state in
            if !state.answered { state.onAnswer.append { promise.succeed() } }
            return (state.answered, state.written)
        }
        if over {
            promise.succeed()
        } else {
            check(on: loop, deadline: deadline, lastWritten: written, stalled: stalled)
        }
        return promise.futureResult
    }

    /// How long an upload held by ``whenOver(on:deadline:stalled:)`` may write no piece of its
    /// body (``UploadBody/pieceSize``): a server reading slower than a piece in this time has its
    /// upload cut, and one that stopped reading has its answer shown this long after it came.
    static let stallWindow = TimeAmount.seconds(2)

    private func check(
        on loop: any EventLoop, deadline: NIODeadline?, lastWritten: Int,
        stalled: @escaping @Sendable (_ written: Int, _ pastDeadline: Bool) -> Void
    ) {
        let next = min(NIODeadline.now() + Self.stallWindow, deadline ?? .distantFuture)
        loop.scheduleTask(deadline: next) {
            let (over, written) = self.state.withLock { ($0.answered, $0.written) }
            guard !over else { return }
            let pastDeadline = deadline.map { $0 <= .now() } ?? false
            guard pastDeadline || written == lastWritten else {
                return self.check(on: loop, deadline: deadline, lastWritten: written, stalled: stalled)
            }
            stalled(written, pastDeadline)
            self.stop()
        }
    }

    /// `future`, unless ``stop()`` comes first: then failed with ``UploadStopped``.
    func unlessAnswered(_ future: EventLoopFuture<Void>) -> EventLoopFuture<Void> {
        race(on: future.eventLoop) { settle in future.whenComplete(settle) }
    }

    /// Succeeded once `total` bytes were written; failed with ``UploadStopped`` if ``stop()`` comes first.
    func allWritten(_ total: Int, on loop: any EventLoop) -> EventLoopFuture<Void> {
        race(on: loop) { settle in
            let reached = state.withLock { state in
                if state.written < total { state.onWrite.append { if $0 >= total { settle(.success(())) } } }
                return state.written >= total
            }
            if reached { settle(.success(())) }
        }
    }

    /// A future completed by the first of `start`'s settle and ``stop()``: never left unfulfilled,
    /// since AsyncHTTPClient ends every exchange with a call that stops the watch.
    private func race(
        on loop: any EventLoop, _ start: (@escaping @Sendable (Result<Void, any Error>) -> Void) -> Void
    ) -> EventLoopFuture<Void> {
        let promise = loop.makePromise(of: Void.self)
        let settled = Atomic(false)
        let settle: @Sendable (Result<Void, any Error>) -> Void = { result in
            guard settled.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
            promise.completeWith(result)
        }
        let answered = state.withLock { state in
            if !state.answered { state.onAnswer.append { settle(.failure(UploadStopped())) } }
            return state.answered
        }
        if answered { settle(.failure(UploadStopped())) }
        start(settle)
        return promise.futureResult
    }
}

/// The upload stopped because the answer had come whole before it was sent.
struct UploadStopped: Error {}
