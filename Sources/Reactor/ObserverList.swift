/// Observers in the order they were registered, each under its token.
///
/// A plain value: the owner (a ``Store`` or a ``ReactorStub``) protects it.
struct ObserverList<Observer> {
    private var entries: [(token: ObservationToken, observer: Observer)] = []

    /// The observers, oldest first.
    var observers: [Observer] {
        entries.map(\.observer)
    }

    mutating func add(_ observer: Observer, as token: ObservationToken) {
        entries.append((token, observer))
    }

    /// Removes the observer registered under `token`; returns it, or `nil` if there
    /// is none.
    @discardableResult
    mutating func remove(_ token: ObservationToken) -> Observer? {
        guard let index = entries.firstIndex(where: { $0.token == token }) else {
            return nil
        }
        return entries.remove(at: index).observer
    }

    /// Removes every observer and returns them, oldest first.
    mutating func removeAll() -> [Observer] {
        defer { entries.removeAll() }
        return observers
    }
}

extension ObserverList: Sendable where Observer: Sendable {}
