/// Watching a store: observers called after every reduce, error observers, and
/// `states` as an `AsyncStream`.
extension Store {
    /// Calls `observer` after every reduce from now on, with the new state and the
    /// mutation that produced it, synchronously on the store and before the next
    /// reduce. Observers are called in the order they were registered. An observer
    /// must be quick and must not block: the store waits for it.
    @discardableResult
    public func observe(_ observer: @escaping StateObserver) -> ObservationToken {
        let token = makeToken()
        stateObservers.add(observer, as: token)
        return token
    }

    /// Calls `observer` with the action and the error each time a `mutate` throws
    /// (not when an action is cancelled), before that action's `send` throws.
    @discardableResult
    public func observeErrors(_ observer: @escaping ErrorObserver) -> ObservationToken {
        let token = makeToken()
        errorObservers.add(observer, as: token)
        return token
    }

    /// Stops the calls to the observer registered under `token`. Does nothing if it
    /// was already removed.
    public func removeObserver(_ token: ObservationToken) {
        stateObservers.remove(token)
        errorObservers.remove(token)
        stateStreams.remove(token)?.finish()
    }

    /// The current state, then every new state in order, none dropped. Each access
    /// makes a new stream. The stream finishes when the store is released; the
    /// store stops feeding it when its consumer stops listening.
    public var states: AsyncStream<R.State> {
        if let stub {
            return stub.makeStateStream()
        }
        let (stream, continuation) = AsyncStream<R.State>.makeStream()
        let token = makeToken()
        continuation.yield(state)
        stateStreams.add(continuation, as: token)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(token) }
        }
        return stream
    }

    func publish(_ state: R.State, from mutation: R.Mutation) {
        for observer in stateObservers.observers {
            observer(state, mutation)
        }
        for continuation in stateStreams.observers {
            continuation.yield(state)
        }
    }

    func report(_ error: any Error, of action: R.Action) {
        for observer in errorObservers.observers {
            observer(action, error)
        }
    }

    private func makeToken() -> ObservationToken {
        defer { nextObservationID += 1 }
        return ObservationToken(id: nextObservationID)
    }
}
