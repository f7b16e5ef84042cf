/// Names one observer registered with a ``Store``; pass it to
/// ``Store/removeObserver(_:)`` to stop the calls.
public struct ObservationToken: Hashable, Sendable {
    let id: Int
}
