extension AsyncThrowingStream where Failure == any Error, Element: Sendable {
    /// A stream fed by an async closure, the usual body of `Reactor.mutate(action:)`:
    ///
    ///     func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error> {
    ///         .emitting { emit in
    ///             emit.yield(.setLoading(true))
    ///             try await Task.sleep(for: .milliseconds(300))
    ///             emit.yield(.increaseValue)
    ///             emit.yield(.setLoading(false))
    ///         }
    ///     }
    ///
    /// `body` runs in a new task as soon as the stream is made. Elements arrive in
    /// the order `body` yields them, none dropped (the buffer is unbounded). The
    /// stream finishes when `body` returns, or fails with the error `body` throws.
    /// When the consumer stops listening (its task is cancelled, or the stream is
    /// dropped), the task running `body` is cancelled, so `Task.sleep` and other
    /// cancellable awaits in it end early; elements yielded after that are dropped.
    public static func emitting(
        _ body: @escaping @Sendable (_ emit: Continuation) async throws -> Void
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let producer = Task {
            do {
                try await body(continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in producer.cancel() }
        return stream
    }
}
