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

    /// The answer is complete by its framing, or the exchange is over (answered or failed): the
    /// upload stops waiting, and every wait still pending fails with ``UploadStopped``.
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
